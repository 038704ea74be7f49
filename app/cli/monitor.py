"""`diskdoctor monitor [--json-lines] [--interval S] [--count N]`: the live per-layer I/O monitor for
terminals and scripts; on a --sysroot capture it prints the one reading the capture holds."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time

from diskdoctor.probes.io_monitor import IoMonitor, MonitorSample, TickSchedule

from ..base.errors import EXIT_OK, UsageError
from ..core.capture.sysroot import open_root
from ..text.monitor import sample_text

MIN_INTERVAL_S = 0.1
CLEAR = "\033[H\033[2J"


def add_monitor_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add `monitor` and its options."""
    monitor = commands.add_parser(
        "monitor", help="the live per-layer I/O monitor (iostat -x for the stack)",
        description="Every device and layer each interval: read/write/discard/flush IOPS, MB/s, average "
                    "wait per kind, in-flight requests and utilisation, grouped by filesystem from its "
                    "device down to the disks; the saturated layer is marked. Also CPU iowait/steal and "
                    "the processes doing the I/O. Ctrl-C stops it.")
    monitor.add_argument("--json-lines", action="store_true",
                         help="print one JSON object per tick (schema: man diskdoctor)")
    monitor.add_argument("--interval", type=float, default=1.0, metavar="S",
                         help="seconds between ticks (default 1)")
    monitor.add_argument("--count", type=int, default=None, metavar="N",
                         help="stop after N ticks with rates (default: run until Ctrl-C)")
    return monitor


def _emit(sample: MonitorSample, json_lines: bool, clear: bool) -> None:
    if json_lines:
        sys.stdout.write(json.dumps(sample.to_json()) + "\n")
    else:
        sys.stdout.write((CLEAR if clear else "") + sample_text(sample) + "\n\n")
    sys.stdout.flush()


def run_monitor(args: argparse.Namespace) -> int:
    """Print a tick every --interval seconds (or the capture's one reading) until --count or Ctrl-C."""
    if not MIN_INTERVAL_S <= args.interval < math.inf:
        raise UsageError(f"--interval must be a number of seconds, at least {MIN_INTERVAL_S}")
    if args.count is not None and args.count < 1:
        raise UsageError("--count must be 1 or more")
    clear = sys.stdout.isatty() and not args.json_lines
    with open_root(args.sysroot) as root:
        monitor = IoMonitor(root)
        first = monitor.poll()
        if not root.live:
            _emit(first, args.json_lines, clear=False)
            return EXIT_OK
        if not args.json_lines:
            print(f"diskdoctor monitor: first reading taken; rates every {args.interval:g} s (Ctrl-C stops)",
                  file=sys.stderr)
        schedule, late, shown = TickSchedule(args.interval), 0, 0
        while args.count is None or shown < args.count:
            time.sleep(schedule.wait_s())
            _emit(monitor.poll(late), args.json_lines, clear)
            shown += 1
            late = schedule.advance()
    return EXIT_OK
