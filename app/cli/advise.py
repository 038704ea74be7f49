"""`diskdoctor advise`: every finding for this host (or a capture) and the benchmark results given."""

from __future__ import annotations

import argparse
import os
import sys

from diskdoctor.probes.etcd_metrics import MetricsError, read_etcd_metrics
from diskdoctor.probes.etcd_metrics import discover as discover_etcd_metrics
from diskdoctor.probes.etcd_metrics import summary as etcd_summary

from ..base.errors import EXIT_CHECK_FAILED, EXIT_OK, UsageError
from ..core.advice.advise import advice_document, advise, fails_check, load_advice_input
from ..core.advice.bench_input import load_bench_result
from ..core.capture.sysroot import open_root
from ..core.trim.peak_window import parse_peak_window
from .json_output import add_json_options, json_text

PIPE_WIDTH = 80


def add_advise_parser(commands: argparse._SubParsersAction, parser_class: type) -> argparse.ArgumentParser:
    """Add `advise` to the CLI."""
    advise_parser = commands.add_parser(
        "advise", help="every configuration finding, with evidence, fix, risk and how to verify",
        description="Check this host (or a --sysroot capture) against the whole rule catalog: TRIM, "
                    "scheduler, write cache, barriers, journaling, atime, read-ahead, alignment, RAID "
                    "geometry, swap, btrfs, dm-crypt, NVMe/SATA links and power saving, fio, Ceph; plus "
                    "benchmark results given with --bench and etcd's metrics with --etcd-metrics. Exit 1 "
                    "when any finding is warn or crit.")
    add_json_options(advise_parser)
    advise_parser.add_argument("--data", action="append", default=[], metavar="DIR",
                               help="a directory holding database or search data (repeatable); known "
                                    "ones such as /var/lib/etcd are found by themselves")
    advise_parser.add_argument("--bench", action="append", default=[], metavar="FILE",
                               help="a `bench wal --json` or interference result, a saved run file or "
                                    "a run id (`runs list`) to judge (repeatable)")
    advise_parser.add_argument("--etcd-metrics", metavar="FILE|URL",
                               help="etcd's /metrics (an http(s) URL, or a saved copy): judge its backend "
                                    "commit p99 from the histogram buckets (an etcd running here with "
                                    "plain-http --listen-metrics-urls, as kubeadm sets up, is read "
                                    "without it)")
    advise_parser.add_argument("--peak", metavar="SPEC",
                               help='busy hours, e.g. "Mon-Fri 08:00-20:00": flag trims scheduled then')
    return advise_parser


def run_advise(args: argparse.Namespace) -> int:
    """Load one snapshot, run every rule, print text or JSON; exit 1 when anything is warn or crit."""
    peak = parse_peak_window(args.peak) if args.peak is not None else None
    bench = tuple(load_bench_result(path) for path in args.bench)
    etcd = None
    if args.etcd_metrics is not None:
        try:
            etcd = read_etcd_metrics(args.etcd_metrics)
        except MetricsError as err:
            raise UsageError(str(err)) from err
    with open_root(args.sysroot) as root:
        if etcd is None:
            etcd, notes = discover_etcd_metrics(root)
            for note in notes:
                print(f"advise: {note}", file=sys.stderr)
        if etcd is not None:  # say it was read, also when nothing in it is a finding
            print(f"advise: etcd metrics from {etcd.source}: {etcd_summary(etcd)} (FAQ: commit p99 under "
                  "25 ms, WAL fsync p99 under 10 ms)", file=sys.stderr)
        for path in args.data:
            if not root.is_dir(os.path.abspath(path).lstrip("/")):
                where = "" if args.sysroot is None else f" in {args.sysroot}"
                raise UsageError(f"--data {path}: no such directory{where}")
        advice = load_advice_input(root, data_paths=tuple(args.data), bench=bench, peak=peak,
                                   etcd_metrics=etcd)
    if advice.host.mounts_unknown:
        raise UsageError(f"cannot advise: {advice.host.mounts_unknown}")
    findings = advise(advice)
    if args.json:
        sys.stdout.write(json_text(advice_document(findings), args) + "\n")
    else:
        from rich.console import Console

        from ..text.advice import print_advice

        kernel = f" · kernel {advice.host.kernel}" if advice.host.kernel else ""
        console = Console(highlight=False, width=None if sys.stdout.isatty() else PIPE_WIDTH)
        print_advice(console, findings, f"diskdoctor advise: {advice.host.root_label}{kernel}")
    return EXIT_CHECK_FAILED if fails_check(findings) else EXIT_OK
