"""`diskdoctor bench wal|compaction|randwrite|interference`: run the engine child, show progress on stderr,
print the verdict or JSON; exit 0 (pass or no threshold), 1 (threshold failed), 2 (usage or environment),
3 (inconclusive: the p99's confidence interval straddles the threshold)."""

from __future__ import annotations

import argparse
import math
import sys
import time
from typing import Any

from diskdoctor.app.base.units import format_latency
from diskdoctor.probes.engine.protocol import Event, Failed, Finished, Interval, PhaseChanged
from diskdoctor.probes.engine.runner import EngineRun
from diskdoctor.probes.engine.runtime import EngineConfig
from diskdoctor.probes.wal_params import ParamError, load_text
from diskdoctor.probes.wal_target import Target, TargetError, describe_target

from ..base.errors import EXIT_CHECK_FAILED, EXIT_INCONCLUSIVE, EXIT_OK, UsageError
from ..core.bench.fit import fit_for
from ..core.bench.kinds import kind_of
from ..core.bench.outcome import outcome_of_verdict
from ..core.bench.record import BenchRecord
from ..core.bench.repeat import MAX_REPEATS, REPEATABLE, merge_records
from ..core.bench.uncertainty import FAIL, INCONCLUSIVE
from ..core.bench.verdict import verdict_findings, verdict_lines
from . import bench_args
from .json_output import json_text

PROGRESS_EVERY_S = 2.0
"""When stderr is not a terminal, print a progress line this often (a terminal gets one updating line)."""


def add_bench_parser(commands: argparse._SubParsersAction,
                     parser_class: type) -> list[argparse.ArgumentParser]:
    """Add `bench KIND` for every workload; returns the kinds' parsers."""
    bench = commands.add_parser("bench", help="run a database-style storage benchmark (writes scratch files)",
                                description="Benchmarks write only inside a private scratch directory "
                                            "they create in --dir and always remove.")
    kinds = bench.add_subparsers(dest="bench_kind", metavar="KIND", parser_class=parser_class, required=True)
    return bench_args.add_kinds(kinds)


class Progress:
    """Progress on stderr: one rewritten line on a terminal, a line every few seconds otherwise."""

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty()
        self.last = 0.0

    def show(self, text: str, *, force: bool = False) -> None:
        now = time.monotonic()
        if self.tty:
            sys.stderr.write("\r\033[K" + text)
        elif force or now - self.last >= PROGRESS_EVERY_S:
            sys.stderr.write(text + "\n")
            self.last = now
        sys.stderr.flush()

    def done(self) -> None:
        if self.tty:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def interval_text(kind: str, event: Interval) -> str:
    """One progress line for an interval of `kind`."""
    form = kind_of(kind).form
    head = f"bench {kind}: {event.phase.replace('_', ' ')} {event.progress:4.0%}" if form.phased \
        else f"bench {kind}: {event.progress:4.0%}"
    if event.job == "compaction" or form.throughput:
        seconds = event.seconds or 1e-9
        return (f"{head}  read {event.bytes_read / seconds / 1e6:,.0f} MB/s  "
                f"write {event.bytes_written / seconds / 1e6:,.0f} MB/s")
    name = "sync" if event.stream("sync").count else "write"
    p99 = event.stream(name).percentile(99.0)
    load = f"  at {load_text(event.load.get('rate'), str(event.load.get('arrival')))}" if event.load else ""
    return f"{head}  {event.ops:,} writes  interval p99 {format_latency(p99)}{load}"


def drive(config: EngineConfig, intervals: list[Interval]) -> Finished:
    """Run the engine child to the end, printing progress; Ctrl-C stops it and removes its scratch dirs."""
    try:
        run = EngineRun(config)
    except TargetError as err:
        raise UsageError(str(err)) from err
    progress = Progress()

    def show(event: Event) -> None:
        if isinstance(event, Interval) and (not event.job or kind_of(config.workload).form.phased):
            if not event.job or event.job == "compaction":
                intervals.append(event)
            progress.show(interval_text(config.workload, event))
        elif isinstance(event, PhaseChanged) and not event.job and event.detail:
            progress.show(f"bench {config.workload}: {event.detail}…", force=True)

    try:
        final = run.wait(show)
    finally:
        progress.done()
    if isinstance(final, Failed) and final.cancelled:
        raise KeyboardInterrupt
    if isinstance(final, Failed):
        raise UsageError(final.message)
    assert isinstance(final, Finished)
    return final


def _fit_or_refuse(args: argparse.Namespace, params: Any, err: TargetError) -> tuple[Any, Target]:
    """A run too big for the free space: with --fit, sized down to fit (said on stderr); without, the
    refusal names the flag that shrinks it. Any other target error is refused as it is."""
    fitted = fit_for(str(err), params, args.dir)
    if fitted is None:
        raise UsageError(str(err)) from err
    if not getattr(args, "fit", False):
        raise UsageError(f"{err}; add {fitted.flags} (or --fit) to size it to {fitted.sized}: "
                         f"{fitted.cost}") from err
    print(f"bench {args.bench_kind}: {fitted.said} (as {fitted.flags})", file=sys.stderr)
    try:
        return fitted.params, describe_target(args.dir, fitted.params.scratch_bytes)  # type: ignore[attr-defined]
    except TargetError as again:
        raise UsageError(str(again)) from again


def run_bench(args: argparse.Namespace) -> int:
    """`diskdoctor bench KIND ...`: exit 0 on pass (or no threshold), 1 on fail, 2 on error."""
    if args.sysroot is not None:
        raise UsageError("bench measures this host's storage; it cannot be combined with --sysroot")
    kind = kind_of(args.bench_kind)
    threshold = getattr(args, kind.cli.threshold_option, None)
    if threshold is not None and not 0 < threshold < math.inf:  # also refuses nan
        option = "--" + kind.cli.threshold_option.replace("_", "-")
        unit = "milliseconds" if kind.threshold_unit == "ms" else kind.threshold_unit
        raise UsageError(f"{option} must be a number of {unit} more than 0")
    try:
        params = bench_args.params_from_args(args)
        params.validate()
    except ParamError as err:
        raise UsageError(str(err)) from err
    try:
        target = describe_target(args.dir, params.scratch_bytes)
    except TargetError as err:
        params, target = _fit_or_refuse(args, params, err)
    repeat = getattr(args, "repeat", 1)
    if not 1 <= repeat <= MAX_REPEATS:
        raise UsageError(f"--repeat must be a whole number from 1 to {MAX_REPEATS}")
    if repeat > 1 and args.bench_kind not in REPEATABLE:
        raise UsageError(f"bench {args.bench_kind} has no --repeat: its verdict is a throughput, not a "
                         "percentile (repeat it yourself and compare with `runs compare`)")
    intervals: list[Interval] = []
    records = []
    for number in range(repeat):
        if repeat > 1:
            print(f"bench {args.bench_kind}: run {number + 1} of {repeat}", file=sys.stderr)
        config = EngineConfig(args.bench_kind, target.directory, params, list(target.layers),
                              latency_log=getattr(args, "latency_log", None) if number == 0 else None)
        final = drive(config, intervals)
        records.append(BenchRecord.of_run(args.bench_kind, params, target, final.result, threshold,
                                          sections=final.sections))
    record = merge_records(records)
    if args.fio:
        record.fio = _fio(args, params, target)
    verdict = record.verdict()
    sys.stdout.write("\n".join(_output(args, record)) + "\n")
    if args.plot:
        from ..text.bench_plot import plot_run

        (sys.stderr if args.json else sys.stdout).write(plot_run(args.bench_kind, intervals, record) + "\n")
    sys.stdout.flush()
    if not args.no_save:  # after the result is out: a full disk here must not cost the user the result
        from ..core.runs.store import save_run

        saved, message = save_run(record)
        prefix = f"bench {args.bench_kind}: " if saved else "diskdoctor: warning: "
        print(prefix + message, file=sys.stderr)
    return exit_code(verdict)


def exit_code(verdict: object) -> int:
    """0 pass (or no threshold), 1 fail, 3 inconclusive."""
    if verdict is None:
        return EXIT_OK
    codes = {FAIL: EXIT_CHECK_FAILED, INCONCLUSIVE: EXIT_INCONCLUSIVE}
    return codes.get(outcome_of_verdict(verdict), EXIT_OK)


def _output(args: argparse.Namespace, record: BenchRecord) -> list[str]:
    """The JSON document (with the run's findings for wal and interference) or the summary, whose first
    lines are those findings (or PASS with the figure and threshold when the rules found nothing)."""
    if not kind_of(args.bench_kind).judged:
        return [json_text(record.to_json(), args)] if args.json else record.summary_lines()
    document = record.to_json()
    findings = verdict_findings(args.bench_kind, document)
    if args.json:
        return [json_text({**document, "findings": [f.to_json() for f in findings]}, args)]
    return verdict_lines(record, findings) + record.detail_lines()


def _fio(args: argparse.Namespace, params: object, target: Target) -> object:
    """fio's equivalent job on the same directory."""
    print(f"bench {args.bench_kind}: running the equivalent fio job…", file=sys.stderr)
    try:
        return kind_of(args.bench_kind).fio(params, target.directory)
    except TargetError as err:
        raise UsageError(str(err)) from err
