"""`diskdoctor runs list|show|compare`: saved benchmark runs as text, JSON, or plotext charts."""

from __future__ import annotations

import argparse
import sys

from ..base.errors import EXIT_CHECK_FAILED, EXIT_INCONCLUSIVE, EXIT_OK, UsageError
from ..core.bench.caveats import different_models
from ..core.runs.compare import Comparison, compare_runs, different_kinds
from ..core.runs.record import SavedRun
from ..core.runs.render_guard import RunRenderError, rendering
from ..core.runs.store import PREVIOUS, RunListing, RunStore, RunStoreError
from ..text.latency_charts import histogram_text_chart, percentile_text_chart
from ..text.runs import caveat_changes, compare_lines, headline, list_lines, show_lines
from .json_output import add_json_options, json_text


def add_runs_parser(commands: argparse._SubParsersAction,
                    parser_class: type) -> list[argparse.ArgumentParser]:
    """Add `runs list|show|compare` to the CLI; returns the three action parsers."""
    runs = commands.add_parser("runs", help="saved benchmark runs: list, show, compare",
                               description="Every benchmark run is saved in $XDG_STATE_HOME/diskdoctor/runs "
                                           "(default ~/.local/state/diskdoctor/runs), one JSON file each.")
    actions = runs.add_subparsers(dest="runs_action", metavar="ACTION", parser_class=parser_class,
                                  required=True)
    listing = actions.add_parser("list", help="every saved run, newest first")
    add_json_options(listing)
    show = actions.add_parser("show", help="one run: host, stack, parameters, figures")
    show.add_argument("run", metavar="ID", help="a run id, any unique part of one, latest or previous")
    add_json_options(show, "print the saved run file")
    show.add_argument("--plot", action="store_true", help="also draw its percentiles and histogram")
    compare = actions.add_parser("compare", help="two runs side by side; exit 1 on a regression",
                                 description="The older run is the baseline. Exit 1 when a judged metric "
                                             "(p99, ops/s) got 20% or more worse; exit 3 when the runs are "
                                             "NOT COMPARABLE (durability, filesystem, host or parameters "
                                             "differ), which is never a regression. `previous` beside "
                                             "another run means the run of the same kind saved just before "
                                             "it, so `runs compare latest previous` compares like with like.")
    compare.add_argument("first", metavar="A", help="a run id, any unique part of one, latest or previous")
    compare.add_argument("second", metavar="B", help="a run id, any unique part of one, latest or previous")
    add_json_options(compare)
    compare.add_argument("--plot", action="store_true", help="also draw both runs' percentiles")
    return [listing, show, compare]


def _print(lines: list[str]) -> None:
    sys.stdout.write("\n".join(lines) + "\n")


def _summary_json(run: SavedRun) -> dict[str, object]:
    verdict = run.verdict()
    return {"id": run.id, "kind": run.kind, "saved_at": run.saved_at.isoformat(),
            "hostname": run.host.hostname, "target": run.stack.target.to_json(),
            "params": run.params.to_json(),  # type: ignore[attr-defined]
            "pass": None if verdict is None else verdict.passed,
            "outcome": None if verdict is None else verdict.result, "headline": headline(run),
            "caveats": run.record.caveats().to_json()}


def _plot_run(run: SavedRun) -> list[str]:
    curves = run.kind_info.curves(run.record)
    if not curves:
        return ["", f"no chart: run {run.id} saved no per-call latencies"]
    judged = curves[0]
    if run.kind_info.threshold_unit != "ms":  # judged in MB/s: every call's latency, no threshold line
        return ["", percentile_text_chart("per-call latency", [(c.label, c.histogram) for c in curves]),
                histogram_text_chart(f"{judged.label} latency histogram", judged.histogram)]
    return ["", percentile_text_chart(f"{judged.label} latency", [(run.id, judged.histogram)],
                                      run.latency_threshold),
            histogram_text_chart(f"{judged.label} latency histogram", judged.histogram)]


def run_runs(args: argparse.Namespace) -> int:
    """Dispatch `runs ACTION`; exit 1 from compare when a judged metric regressed, 3 when the two runs are
    not comparable (not like for like)."""
    if args.sysroot is not None:
        raise UsageError("saved runs belong to this machine's diskdoctor; `runs` cannot take --sysroot")
    try:
        store = RunStore()
        listing = store.scan()
        for warning in listing.warnings():
            print(f"diskdoctor: warning: {warning}", file=sys.stderr)
        if args.runs_action == "list":
            if args.json:
                _print([json_text(_list_json(store, listing), args)])
            elif listing.runs:
                _print(list_lines(listing.newest_first()))
            else:
                _print([f"no saved runs in {store.directory} (run `diskdoctor bench wal --dir DIR`)"])
            return EXIT_OK
        if args.runs_action == "show":
            run = store.find(args.run, listing)
            with rendering(f"run {run.id}"):
                lines = ([json_text(run.to_json(), args)] if args.json else
                         show_lines(run) + (_plot_run(run) if args.plot else []))
            _print(lines)
            return EXIT_OK
        first, second = _compare_pair(store, listing, args.first, args.second)
        if first.id == second.id:
            raise UsageError(f"both arguments name run {first.id}; give two different runs")
        if first.kind != second.kind:
            raise UsageError(different_kinds(first, second))
        with rendering(f"the comparison of runs {first.id} and {second.id}"):
            models = different_models(first.id, first.record.caveats(), second.id, second.record.caveats())
        if models:
            raise UsageError(models)
        with rendering(f"the comparison of runs {first.id} and {second.id}"):
            comparison = compare_runs(first, second)
            lines = ([json_text(_compare_json(comparison), args)] if args.json else
                     compare_lines(comparison) + (_plot_compare(comparison) if args.plot else []))
    except (RunStoreError, RunRenderError) as err:
        raise UsageError(str(err)) from err
    _print(lines)
    return compare_exit(comparison)


def compare_exit(comparison: Comparison) -> int:
    """3 when the runs are not like for like (NOT COMPARABLE: no change of theirs is a regression), 1 for
    a REGRESSION, else 0."""
    if not comparison.comparable:
        return EXIT_INCONCLUSIVE
    return EXIT_CHECK_FAILED if comparison.regressed else EXIT_OK


def _compare_json(comparison: Comparison) -> dict[str, object]:
    """The `runs compare --json` document, with what differed between the runs beyond the disk."""
    return {**comparison.to_json(), "caveats": caveat_changes(comparison),
            "contention": {"baseline": comparison.baseline.record.caveats().contention_text(),
                           "candidate": comparison.candidate.record.caveats().contention_text()}}


def _list_json(store: RunStore, listing: RunListing) -> dict[str, object]:
    """The `runs list --json` document; a run that cannot be summarised is listed as skipped, with why."""
    runs, skipped = [], [{"file": name, "reason": why} for name, why in listing.skipped]
    for run in listing.newest_first():
        try:
            with rendering(f"run {run.id}"):
                runs.append(_summary_json(run))
        except RunRenderError as err:
            print(f"diskdoctor: warning: {err}", file=sys.stderr)
            skipped.append({"file": f"{run.id}.json", "reason": f"damaged run file ({err.reason})"})
    return {"runs_dir": str(store.directory), "runs": runs, "skipped": skipped}


def _compare_pair(store: RunStore, listing: RunListing, first: str, second: str) -> tuple[SavedRun, SavedRun]:
    """Both runs; `previous` beside another run means the run of that kind just before it."""
    if (first == PREVIOUS) != (second == PREVIOUS):
        other = store.find(second if first == PREVIOUS else first, listing)
        before = store.previous_of(other, listing)
        return (before, other) if first == PREVIOUS else (other, before)
    return store.find(first, listing), store.find(second, listing)


def _plot_compare(comparison: Comparison) -> list[str]:
    base, cand = comparison.baseline, comparison.candidate
    base_curves, cand_curves = base.kind_info.curves(base.record), cand.kind_info.curves(cand.record)
    if not base_curves or not cand_curves:
        return []
    title = f"{base_curves[0].label} latency: baseline vs candidate"
    return ["", percentile_text_chart(title, [(f"baseline {base.id}", base_curves[0].histogram),
                                              (f"candidate {cand.id}", cand_curves[0].histogram)])]
