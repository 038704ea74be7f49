"""`diskdoctor watch --process NAME | --pid N`: the per-call sync latency of a running database, live from
kernel tracepoints in a private tracefs instance, judged as the benchmarks judge, and saved like a run."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from dataclasses import replace

from diskdoctor.probes.host_text import visible
from diskdoctor.probes.sync_trace import Tally
from diskdoctor.probes.tracefs import TraceUnavailable
from diskdoctor.probes.wal_params import ParamError
from diskdoctor.probes.wal_target import Target, TargetError, describe_target
from diskdoctor.probes.watch_session import (
    KNOWN_PROCESSES,
    WatchParams,
    WatchResult,
    WatchSession,
    check_can_trace,
    check_root,
    describe_pid,
    find_processes,
    process_cwd,
    stack_devices,
    synced_dir,
)

from ..base.errors import EXIT_CHECK_FAILED, EXIT_OK, UsageError
from ..core.bench import watch as watch_kind
from ..core.bench.record import BenchRecord
from ..core.bench.wal import threshold_source

WATCH_HELP = "per-call sync latency of a running database, from kernel tracepoints (root)"
"""Also in main.py's stub (the command's help without importing this module)."""
MIN_INTERVAL_S = 0.2
POLL_S = 0.2


def add_watch_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add `watch` and its options."""
    watch = commands.add_parser(
        "watch", help=WATCH_HELP,
        description="Time every fdatasync, fsync and sync_file_range call of a running database (and its "
                    "writes with --writes) from the kernel's syscall tracepoints, per file (the WAL told "
                    "apart from the backend and SST files), and each request's time in its devices from "
                    "the block tracepoints: live p50/p99/p99.9 per interval, then a summary judged as "
                    "`bench wal` judges (etcd: the WAL's p99 against 10 ms) beside the saved benchmark "
                    "of that directory. Needs root. Changes one thing on the host: private tracing "
                    "instances (tracefs instances/diskdoctor-*), removed on exit. Ctrl-C ends it normally: "
                    "the summary, the saved run and the exit by the verdict (0, or 1 when it fails).")
    which = watch.add_mutually_exclusive_group(required=True)
    which.add_argument("--process", metavar="NAME",
                       help=f"every process called NAME ({', '.join(KNOWN_PROCESSES)} or any program name)")
    which.add_argument("--pid", type=int, action="append", metavar="N", help="this process (repeatable)")
    watch.add_argument("--dir", metavar="DIR",
                       help="the database's data directory (its device and layers are traced and the run is "
                            "saved against it; default: from the command line of etcd, postgres, mysqld, "
                            "db_bench, else the directory of the file the process syncs most)")
    watch.add_argument("--seconds", type=float, default=None, metavar="S",
                       help="stop after S seconds (default: run until Ctrl-C)")
    watch.add_argument("--interval", type=float, default=1.0, metavar="S",
                       help="seconds between live lines (default 1)")
    watch.add_argument("--writes", action="store_true", help="also time write() and pwrite64() calls")
    watch.add_argument("--threshold-ms", type=float, default=None, metavar="MS",
                       help="judge the WAL's p99 sync against MS (default: 10 for etcd, none otherwise)")
    watch.add_argument("--json-lines", action="store_true",
                       help="print one JSON object per interval, then the whole watch "
                            "(schema: man diskdoctor)")
    watch.add_argument("--no-save", action="store_true",
                       help="do not save the watch (saved like benchmark runs: diskdoctor runs list)")
    return watch


def _params(args: argparse.Namespace) -> WatchParams:
    if args.seconds is not None and not 0 < args.seconds < math.inf:
        raise UsageError("--seconds must be a positive number of seconds")
    if not MIN_INTERVAL_S <= args.interval < math.inf:
        raise UsageError(f"--interval must be a number of seconds, at least {MIN_INTERVAL_S:g}")
    if args.threshold_ms is not None and not 0 < args.threshold_ms < math.inf:
        raise UsageError("--threshold-ms must be a positive number of milliseconds")
    given = None
    if args.dir is not None:
        if not os.path.isdir(args.dir):
            raise UsageError(f"--dir {visible(args.dir)!r} is not a directory")
        given = os.path.abspath(args.dir)
    if args.pid:
        try:
            described = [describe_pid(pid) for pid in args.pid]
        except ParamError as err:
            raise UsageError(str(err)) from None
        return WatchParams(described[0][0], tuple(sorted(set(args.pid))), given or described[0][1],
                           args.seconds, args.writes)
    name = args.process.strip()
    if not name or "/" in name:
        raise UsageError(f"--process wants a program name ({', '.join(KNOWN_PROCESSES)}...), got "
                         f"{visible(args.process)!r}")
    pids, data_dir = find_processes(name)
    if not pids:
        raise UsageError(f"no running process called {visible(name)!r} (see ps; or give --pid N)")
    return WatchParams(name, tuple(pids), given or data_dir, args.seconds, args.writes)


def _target(data_dir: str | None) -> Target:
    if data_dir:
        try:
            return describe_target(data_dir, 0)
        except (TargetError, OSError):
            pass
    return Target(data_dir or "-", "-", "unknown", None, ())


def _emit_json(document: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(document) + "\n")
    sys.stdout.flush()


def _interval(args: argparse.Namespace, t: float, seconds: float, tally: Tally, lost: int) -> None:
    if args.json_lines:
        _emit_json({"type": "interval", "t": round(t, 3), "seconds": round(seconds, 3),
                    "by_class": watch_kind.class_rows(tally, histograms=True), "lost_events": lost,
                    "devices": [{"dev": d.dev, "requests": d.histogram.count, "flushes": d.flushes}
                                for d in tally.devices.values()]})
        return
    lines = watch_kind.tally_lines(tally, seconds)
    print(f"[{t:7.1f} s] " + f"\n{'':11}".join(lines) + (f"  (lost events so far: {lost:,})" if lost else ""))
    sys.stdout.flush()


def _watch(args: argparse.Namespace, params: WatchParams) -> WatchResult:
    total = Tally()
    with WatchSession(params) as session:
        for name in session.swept:
            print(f"diskdoctor watch: removed a stale tracing instance of a watch that was killed: {name}",
                  file=sys.stderr)
        start = time.monotonic()
        started = {"type": "start", "process": params.process, "pids": list(params.pids),
                   "instances": session.names}
        if args.json_lines:
            _emit_json(started)
        print(f"diskdoctor watch: tracing {params.process} (pids {', '.join(map(str, params.pids[:8]))}) "
              f"through tracefs instances {', '.join(session.names)}; "
              + (f"{args.seconds:g} s" if args.seconds else "Ctrl-C stops"), file=sys.stderr, flush=True)
        next_tick, last = start + args.interval, start
        end = start + args.seconds if args.seconds else math.inf
        try:
            while True:
                now = time.monotonic()
                if now >= end:
                    break
                session.poll(max(0.0, min(POLL_S, next_tick - now, end - now)))
                now = time.monotonic()
                if now >= next_tick:
                    if session.processes_gone():
                        print("diskdoctor watch: the watched processes have exited; summary follows",
                              file=sys.stderr)
                        break
                    tally = session.take()
                    total.merge(tally)
                    _interval(args, now - start, now - last, tally, session.lost_events())
                    last, next_tick = now, next_tick + args.interval * max(1, math.ceil((now - next_tick)
                                                                                         / args.interval))
        except KeyboardInterrupt:
            print("diskdoctor watch: stopped (Ctrl-C); summary follows", file=sys.stderr)
        session.poll(0.0)
        total.merge(session.take())
        seconds = time.monotonic() - start
        return WatchResult(seconds, total, session.lost_events(), session.tracer.unpaired, session.devices)


def run_watch(args: argparse.Namespace) -> int:
    """Trace until --seconds or Ctrl-C, then print the summary (or the document), save it, exit by verdict."""
    if getattr(args, "sysroot", None):
        raise UsageError("watch traces this host's running processes; it cannot be combined with --sysroot")
    try:
        check_root()  # then the arguments, then what this host lacks: a typo is named on any host
        params = _params(args)
        check_can_trace()
    except TraceUnavailable as err:
        raise UsageError(str(err)) from None
    threshold = args.threshold_ms
    if threshold is None:
        threshold = watch_kind.default_threshold(params.process)
    source = threshold_source(threshold) if threshold is not None else None
    try:
        result = _watch(args, params)
    except TraceUnavailable as err:
        raise UsageError(str(err)) from None
    except BrokenPipeError:
        raise  # the reader went away (`watch | head`, a TUI that died): not an error
    except OSError as err:
        raise UsageError(f"tracing failed: {err.strerror or err}") from None
    if params.data_dir is None:  # a program that does not name its directory: where it synced
        params = replace(params, data_dir=synced_dir(result.tally) or process_cwd(params.pids[0]))
        if params.data_dir:
            result.device_names = {**stack_devices(params.data_dir), **result.device_names}
    target = _target(params.data_dir)
    record = BenchRecord("watch", params, target, result, threshold, source)
    prediction = None
    if target.mountpoint != "-":
        from ..core.runs.prediction import prediction_for, prediction_line

        found = prediction_for(target)
        prediction = prediction_line(found) if found is not None else None
    if args.json_lines:
        _emit_json({"type": "summary", **record.to_json(), "prediction": prediction})
    else:
        print("\n".join(visible(line) for line in record.summary_lines()))
        if prediction:
            print(visible(prediction))
    if not args.no_save:
        from ..core.runs.store import save_run

        saved, message = save_run(record)
        print(("diskdoctor watch: " if saved else "diskdoctor: warning: ") + message, file=sys.stderr)
    found_verdict = record.verdict()
    return EXIT_CHECK_FAILED if found_verdict is not None and not found_verdict.passed else EXIT_OK
