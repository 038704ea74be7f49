"""`diskdoctor bench wal`: run the WAL engine child, show progress on stderr, print the verdict or JSON."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time

from diskdoctor.probes.fio_json import FioSyncStats
from diskdoctor.probes.fio_run import run_fio
from diskdoctor.probes.wal_engine import EngineConfig
from diskdoctor.probes.wal_params import (
    PROFILES,
    SYNC_LABELS,
    SYNC_METHODS,
    ParamError,
    WalParams,
    parse_duration,
    parse_size,
    profile_params,
)
from diskdoctor.probes.wal_run import RunFailed, WalResult, WalRun
from diskdoctor.probes.wal_target import Target, TargetError, describe_target

from .errors import EXIT_CHECK_FAILED, EXIT_OK, UsageError
from .latency_charts import histogram_text_chart, percentile_text_chart
from .runs.autosave import save_run
from .wal_report import ETCD_THRESHOLD_MS, result_document, summary_lines, threshold_source, verdict_for

PROGRESS_EVERY_S = 2.0
"""When stderr is not a terminal, print a progress line this often (a terminal gets one updating line)."""


def add_bench_parser(commands: argparse._SubParsersAction, parser_class: type) -> argparse.ArgumentParser:
    """Add `bench wal` to the CLI."""
    bench = commands.add_parser("bench", help="run a database-style storage benchmark (writes scratch files)",
                                description="Benchmarks write only inside a private scratch directory "
                                            "they create in --dir and always remove.")
    kinds = bench.add_subparsers(dest="bench_kind", metavar="KIND", parser_class=parser_class, required=True)
    wal = kinds.add_parser("wal", help="write + fdatasync latency, as etcd's WAL does",
                           description="Time sequential writes each followed by a sync call (the etcd "
                                       "fio check), in a child process, and judge the p99 sync latency.")
    wal.add_argument("--dir", required=True, metavar="DIR", help="a directory on the filesystem to test")
    wal.add_argument("--profile", choices=sorted(PROFILES), default="etcd",
                     help="etcd: 2300-byte writes, 22m (default); postgres-wal: 8k writes, 16m")
    wal.add_argument("--bs", metavar="N", help="bytes per write, e.g. 2300 or 8k")
    amount = wal.add_mutually_exclusive_group()
    amount.add_argument("--size", metavar="N", help="total bytes to write, e.g. 22m")
    amount.add_argument("--duration", metavar="S", help="run this long instead (e.g. 30s, 2m)")
    wal.add_argument("--sync", choices=SYNC_METHODS, help="the durable call (default fdatasync)")
    wal.add_argument("--prealloc", action=argparse.BooleanOptionalAction, default=None,
                     help="preallocate the file with fallocate first, as fio and etcd do (default on)")
    wal.add_argument("--threshold-ms", type=float, default=ETCD_THRESHOLD_MS, metavar="MS",
                     help="fail when the p99 sync latency reaches this (10: etcd docs; 20: vendor variant)")
    wal.add_argument("--json", action="store_true", help="print the JSON result (schema in README)")
    wal.add_argument("--fio", action="store_true", help="also run the equivalent fio job and compare")
    wal.add_argument("--latency-log", metavar="FILE",
                     help="also write every write/sync latency to FILE (CSV)")
    wal.add_argument("--plot", action="store_true",
                     help="also draw the percentiles and the histogram as text charts")
    wal.add_argument("--no-save", action="store_true",
                     help="do not save the run (runs are saved in $XDG_STATE_HOME/diskdoctor/runs)")
    return wal


def params_from_args(args: argparse.Namespace) -> WalParams:
    """The run the user asked for, or UsageError."""
    try:
        return profile_params(args.profile, bs=parse_size(args.bs, "block size") if args.bs else None,
                              size=parse_size(args.size) if args.size else None,
                              duration_s=parse_duration(args.duration) if args.duration else None,
                              sync=args.sync, prealloc=args.prealloc)
    except ParamError as err:
        raise UsageError(str(err)) from err


class Progress:
    """Progress on stderr: one rewritten line on a terminal, a line every few seconds otherwise."""

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty()
        self.last = 0.0

    def show(self, text: str) -> None:
        now = time.monotonic()
        if self.tty:
            sys.stderr.write("\r\033[K" + text)
        elif now - self.last >= PROGRESS_EVERY_S:
            sys.stderr.write(text + "\n")
            self.last = now
        sys.stderr.flush()

    def done(self) -> None:
        if self.tty:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def run_wal(params: WalParams, target: Target, latency_log: str | None) -> WalResult:
    """Run the engine child to the end, printing progress; Ctrl-C stops it and removes its scratch dir."""
    try:
        run = WalRun(EngineConfig(target.directory, params, list(target.layers), latency_log=latency_log))
    except TargetError as err:
        raise UsageError(str(err)) from err
    progress, ops = Progress(), 0
    try:
        for event in run.events():
            if isinstance(event, WalResult):
                return event
            if isinstance(event, RunFailed) and event.cancelled:
                raise KeyboardInterrupt
            if isinstance(event, RunFailed):
                raise UsageError(event.message)
            ops = event.ops
            p99 = event.sync.percentile(99.0)
            p99_text = f"{p99 / 1e6:.2f} ms" if p99 is not None else "-"
            progress.show(f"bench wal: {event.progress:4.0%}  {ops:,} writes  interval p99 {p99_text}")
    finally:
        progress.done()
    raise UsageError("the benchmark engine ended without a result")


def run_bench(args: argparse.Namespace) -> int:
    """`diskdoctor bench wal ...`: exit 0 when the p99 is under the threshold, 1 when not, 2 on error."""
    if args.sysroot is not None:
        raise UsageError("bench measures this host's storage; it cannot be combined with --sysroot")
    if not 0 < args.threshold_ms < math.inf:  # also refuses nan
        raise UsageError("--threshold-ms must be a number of milliseconds more than 0")
    params = params_from_args(args)
    try:
        target = describe_target(args.dir, params.size)
    except TargetError as err:
        raise UsageError(str(err)) from err
    result = run_wal(params, target, args.latency_log)
    fio: FioSyncStats | None = None
    if args.fio:
        print("bench wal: running the equivalent fio job…", file=sys.stderr)
        try:
            fio = run_fio(params, target.directory)
        except TargetError as err:
            raise UsageError(str(err)) from err
    document = result_document(params, target, result, args.threshold_ms, fio)
    verdict = verdict_for(params, result.sync, args.threshold_ms)
    if args.json:
        sys.stdout.write(json.dumps(document, indent=2) + "\n")
    else:
        lines = summary_lines(document, verdict)
        if args.plot:
            lines += plot_lines(params, result, args.threshold_ms)
        sys.stdout.write("\n".join(lines) + "\n")
    sys.stdout.flush()
    if not args.no_save:  # after the result is out: a full disk here must not cost the user the result
        saved, message = save_run("wal", params, result, target,
                                  {"threshold_ms": args.threshold_ms,
                                   "threshold_source": threshold_source(args.threshold_ms)})
        print(f"bench wal: {message}" if saved else f"diskdoctor: warning: {message}", file=sys.stderr)
    return EXIT_OK if verdict.passed else EXIT_CHECK_FAILED


def plot_lines(params: WalParams, result: WalResult, threshold_ms: float) -> list[str]:
    """The run's percentiles (with the threshold) and its histogram as plotext text charts."""
    label = SYNC_LABELS[params.sync]
    return ["", percentile_text_chart(f"{label} latency", [("this run", result.sync)], threshold_ms),
            histogram_text_chart(f"{label} latency histogram", result.sync)]
