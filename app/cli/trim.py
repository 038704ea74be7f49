"""`diskdoctor trim`: TRIM verdicts per filesystem (exit 1 when any is not ok), and `--run` to trim now."""

from __future__ import annotations

import argparse
import sys

from diskdoctor.probes.host import read_host
from diskdoctor.probes.host_text import CONTROL_NOTE, shell_quote, shown, spells_control_characters

from ..base.errors import EXIT_CHECK_FAILED, EXIT_OK, UsageError
from ..core.capture.sysroot import open_root
from ..core.snapshot import read_snapshot
from ..core.trim.doctor import trim_document
from ..core.trim.peak_window import parse_peak_window
from ..core.trim.rules import TRIM_NOW_RISK
from .json_output import json_text

PIPE_WIDTH = 160
CONFIRM_WORD = "yes"


def run_trim(args: argparse.Namespace) -> int:
    """Dispatch to the report or to trim-now."""
    if args.yes and args.run is None:
        raise UsageError("--yes only confirms --run MOUNTPOINT")
    if args.peak is not None and args.run is not None:
        raise UsageError("--peak belongs to the report; it does nothing with --run")
    peak = parse_peak_window(args.peak) if args.peak is not None else None
    if args.run is not None:
        return _trim_now(args)
    with open_root(args.sysroot) as root:  # verdicts judge mounted filesystems: no blkid child
        snapshot = read_snapshot(root, peak=peak, host=read_host(root, signatures=False))
    host, facts, verdicts = snapshot.host, snapshot.trim_facts, list(snapshot.verdicts)
    if host.mounts_unknown:
        raise UsageError(f"cannot judge TRIM: {host.mounts_unknown}")
    if args.json:
        sys.stdout.write(json_text(trim_document(verdicts, facts, peak), args) + "\n")
    else:
        from rich.console import Console

        from ..text.trim import print_trim_report

        print_trim_report(verdicts, facts, Console(highlight=False,
                                                   width=None if sys.stdout.isatty() else PIPE_WIDTH))
    return EXIT_OK if all(v.verdict == "ok" for v in verdicts) else EXIT_CHECK_FAILED


def _confirm(mountpoint: str) -> bool:
    if not sys.stdin.isatty():
        raise UsageError("trim --run needs --yes when there is no terminal to confirm on")
    command = f"fstrim --verbose {shell_quote(mountpoint)}"
    note = f"\n{CONTROL_NOTE}" if spells_control_characters(command) else ""
    print(f"About to run: {command}{note}\nRisk: {TRIM_NOW_RISK}", file=sys.stderr)
    try:
        answer = input(f"Type '{CONFIRM_WORD}' to trim {mountpoint} now: ")
    except EOFError:
        print(file=sys.stderr)
        return False
    return answer.strip().lower() == CONFIRM_WORD


def _trim_now(args: argparse.Namespace) -> int:
    from diskdoctor.probes.fstrim_run import run_fstrim  # its child guard and scratch: only for --run

    from ..core.trim.trim_now import hold_confirmed_mount, result_text, trimmable_mount

    if args.sysroot is not None:
        raise UsageError("trim --run changes this host; it cannot run on a --sysroot capture")
    if args.json:
        raise UsageError("trim --run prints a one-line result; drop --json")
    with open_root(None) as root:
        host = read_host(root)
    mountpoint, disks = trimmable_mount(host, shown(args.run))
    held = hold_confirmed_mount(host, mountpoint)
    try:
        if not args.yes and not _confirm(mountpoint):
            print("diskdoctor: not trimmed (not confirmed)", file=sys.stderr)
            return EXIT_CHECK_FAILED
        ticking = sys.stderr.isatty()

        def tick(elapsed: float) -> None:
            if ticking:
                print(f"\rtrimming {mountpoint}: {elapsed:5.1f} s", end="", file=sys.stderr, flush=True)

        result = run_fstrim(mountpoint, tick, watch=disks, held=held)
    finally:
        held.close()
    if ticking:
        print("\r" + " " * 60 + "\r", end="", file=sys.stderr)
    if not result.ok:
        raise UsageError(result.message)
    print(result_text(result))
    return EXIT_OK
