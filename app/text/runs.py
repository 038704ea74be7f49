"""Saved runs as plain text lines: the list, one run, a comparison (shared by the CLI and the Runs screen)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..base.columns import aligned_figures
from ..base.units import AT_LEAST, compared, format_threshold
from ..core.bench.caveats import contention_change, durability_change, model_change
from ..core.bench.compaction import ThroughputVerdict
from ..core.bench.kind import Metric
from ..core.bench.outcome import verdict_word
from ..core.bench.wal import format_ms, record_level_lines
from ..core.runs.compare import REGRESSION_PERCENT, Comparison, MetricDelta
from ..core.runs.render_guard import RunRenderError, damaged_text, rendering

if TYPE_CHECKING:
    from ..core.runs.record import SavedRun


def value_text(value: float | None, unit: str) -> str:
    """A metric value in its unit: "0.956 ms", "2,286 ops/s", "-"."""
    if value is None:
        return "-"
    return format_ms(value) if unit == "ms" else f"{value:,.0f} {unit}"


def row_name(delta: MetricDelta) -> str:
    """A comparison row's label without the unit its cells now carry ("write MB/s" is "write" beside
    "219 MB/s"); a label that is its unit ("ops/s") stays."""
    label = delta.row_label
    return label.removesuffix(f" {delta.unit}") if label != delta.unit else label


def labelled_value(label: str, value: float | None, unit: str) -> str:
    """"p99 fdatasync 956 µs", and "write 273 MB/s" for a label that already ends in its unit."""
    name = label.removesuffix(f" {unit}") if label != unit else label
    return f"{name} {value_text(value, unit)}"


def headline(run: SavedRun) -> str:
    """The verdict with its limit ("FAIL p99 fdatasync 1.22 ms ≥ 10 µs", so a custom threshold is not
    read as etcd's), or the judged figure of an unjudged run; then its caveats in short ("[not durable]
    [host busy] [closed-loop model]")."""
    verdict = run.verdict()
    if verdict is not None:
        text = f"{verdict_word(verdict)} {verdict.line.split(':', 1)[0]}"
    else:
        judged = next((m for m in run.kind_info.metrics(run.record) if m.judged), None)
        text = labelled_value(judged.label, judged.value, judged.unit) if judged else ""
    tags = run.record.caveats().tags()
    return f"{text} {tags}" if tags else text


LIMIT, ASIDE, TAGS = 1, 2, 3
"""The parts of a headline after its figure, in the order they are shown and kept: the limit ("< 10 ms"),
an unjudged figure's aside ("(other file w.log)"), then the caveats' tags, always last."""


def headline_parts(run: SavedRun) -> list[tuple[str, int]]:
    """The headline in (text, part) parts for a narrow column, in display order: the verdict word with its
    figure ("PASS p99 6.08 ms", part 0), its limit ("< 10 ms", LIMIT), then the caveats' tags (TAGS); an
    unjudged run's figure, its aside (ASIDE) and tags. A run that cannot be shown says DAMAGED and why."""
    try:
        with rendering(f"run {run.id}"):
            verdict = run.record.verdict()
            tags = run.record.caveats().tags()
            if verdict is None:
                return [*_figure_parts(run), (tags, TAGS)]
            if isinstance(verdict, ThroughputVerdict):  # a compaction run with a minimum MB/s (--threshold)
                sign = AT_LEAST if verdict.passed else "<"
                return [(f"{verdict_word(verdict)} write {verdict.value_mb_s:,.0f} MB/s", 0),
                        (f"{sign} {verdict.threshold_mb_s:g} MB/s", LIMIT), (tags, TAGS)]
            judged = verdict.to_json()
            value, limit = unrounded_ms(verdict, judged), float(judged["threshold_ms"])
            word = verdict_word(verdict)
            if word == "INCONCLUSIVE":
                figure, sign = format_ms(value), "vs"
            else:
                figure, sign = compared(value, limit, below=bool(verdict.passed)), \
                    "<" if verdict.passed else AT_LEAST
            statistic = str(judged["metric"]).split(" ")[0]
            return [(f"{word} {statistic} {figure}", 0), (f"{sign} {format_threshold(limit)}", LIMIT),
                    (tags, TAGS)]
    except RunRenderError as err:
        return [(damaged_text(err.reason), 0)]


def unrounded_ms(verdict: object, judged: dict[str, object]) -> float:
    """The verdict's own figure, not its JSON's (rounded to 1 µs: 3.8748 ms saved as 3.875 then shown as
    3.88 ms beside the Benchmark's 3.87 ms, newuser24 #9): a WAL verdict's `value_ms`, an interference
    verdict's `under_ms`."""
    for name in ("value_ms", "under_ms"):
        value = getattr(verdict, name, None)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    return float(judged["value_ms"])  # type: ignore[arg-type]


def _figure_parts(run: SavedRun) -> list[tuple[str, int]]:
    """An unjudged run's figure with its unit, then its label's aside ("(other file w.log)"):
    "p99 fdatasync 345 µs", then "(other file w.log)"."""
    judged = next((m for m in run.kind_info.metrics(run.record) if m.judged), None)
    if judged is None:
        return [("", 0)]
    label, aside = judged.label, ""
    if label.endswith(")") and " (" in label:
        label, aside = label[: label.rindex(" (")], label[label.rindex(" ("):].strip()
    return [(labelled_value(label, judged.value, judged.unit), 0), (aside, ASIDE)]


def target_text(run: SavedRun) -> str:
    """"/var/lib/etcd (ext4 on dm-2) on etcd-2"."""
    return f"{run.stack.describe()} on {run.host.hostname or '?'}"


def list_row(run: SavedRun) -> tuple[str, str, str]:
    """(saved, result, target) of one run; a run that cannot be shown says DAMAGED and why instead."""
    try:
        with rendering(f"run {run.id}"):
            return run.when(), headline(run), target_text(run)
    except RunRenderError as err:
        return "?", damaged_text(err.reason), ""


def list_lines(runs: list[SavedRun]) -> list[str]:
    """One line per run, in the order given, under a header."""
    if not runs:
        return []
    shown = [list_row(run) for run in runs]
    rows = [("ID", "KIND", "RESULT")] + [(run.id, run.kind, result) for run, (_, result, _) in
                                         zip(runs, shown, strict=True)]
    id_w, kind_w, result_w = (max(len(row[column]) for row in rows) for column in range(3))
    lines = [f"{'ID':<{id_w}}  {'SAVED':<20}  {'KIND':<{kind_w}}  {'RESULT':<{result_w}}  TARGET"]
    for run, (when, result, target) in zip(runs, shown, strict=True):
        lines.append(f"{run.id:<{id_w}}  {when:<20}  {run.kind:<{kind_w}}  {result:<{result_w}}  "
                     f"{target}".rstrip())
    return lines


def _layers_text(run: SavedRun) -> str:
    parts = []
    for layer in run.stack.layers:
        detail = ", ".join(part for part in (layer.kind, layer.model, layer.scheduler and
                                             f"scheduler {layer.scheduler}") if part)
        name = layer.name if layer.name == layer.kname else f"{layer.name} ({layer.kname})"
        parts.append(f"{name} [{detail}]")
    return " → ".join(parts) or "no block device"


def metric_lines(metrics: list[Metric]) -> list[str]:
    """"p99 fdatasync      0.956 ms" per metric, the labels in one column, the numbers right-aligned
    and their units in a column of their own (as iostat prints them)."""
    width = max((len(metric.label) for metric in metrics), default=0)
    values = aligned_figures([value_text(metric.value, metric.unit) for metric in metrics])
    return [f"  {metric.label:<{width}}  {value}".rstrip()
            for metric, value in zip(metrics, values, strict=True)]


def show_lines(run: SavedRun) -> list[str]:
    """Everything saved about one run: where, on what, with which parameters, and its figures;
    RunRenderError when the run cannot be shown."""
    with rendering(f"run {run.id}"):
        return _show_lines(run)


def _show_lines(run: SavedRun) -> list[str]:
    kind = run.kind_info
    verdict = run.verdict()
    lines = [f"run       {run.id} ({kind.title})",
             f"saved     {run.when()}",
             f"host      {run.host.line()}",
             f"target    {run.stack.describe()}, mounted at {run.stack.target.mountpoint} "
             f"({','.join(run.stack.mount_options) or 'options unknown'})",
             f"layers    {_layers_text(run)}",
             f"params    {kind.params_text(run.record)}"]
    if verdict is not None:
        lines.append(f"verdict   {verdict_word(verdict)} {verdict.line}")
        lines += [f"{label:<9} {text}" for label, text in (("settle", verdict.settle),
                                                             ("note", verdict.interval_note)) if text]
    lines += run.record.caveats().lines()
    lines.append("figures")
    lines += metric_lines(kind.metrics(run.record))
    return lines + record_level_lines(run.kind, run.record)


def delta_line(delta: MetricDelta, width: int = 18, cells: tuple[str, str] | None = None,
               change: int = 8) -> str:
    """One row of the comparison table (labels padded to `width`; `cells`: the two values as the table
    aligns them; the change in `change` cells)."""
    mark = "  REGRESSION" if delta.regression else ("  better" if delta.improvement else
                                                    "  within noise" if delta.within_noise else "")
    before, after = cells or (f"{value_text(delta.before, delta.unit):>14}",
                              f"{value_text(delta.after, delta.unit):>14}")
    return f"  {row_name(delta):<{width}} {before}  {after}  {delta.ratio_text():>{change}}{mark}"


def compare_lines(comparison: Comparison, *, judged_only: bool = False,
                  target_below: bool = False) -> list[str]:
    """The verdict first (the flags, or NOT COMPARABLE for runs that are not like for like, or that the
    judged metrics did not change), what differed beyond the disk, then every metric with its change,
    how each judged percentile was tested against noise, both runs and their parameters;
    RunRenderError when the two runs cannot be shown side by side. `judged_only`: of two WAL runs, only
    the rows of the first judged load (a guide's short summary keeps its conclusion in view);
    `target_below`: each run's target on a line of its own under its id, as a pane that wraps shows it."""
    with rendering(f"the comparison of runs {comparison.baseline.id} and {comparison.candidate.id}"):
        return _compare_lines(comparison, judged_only, target_below)


def _load_heading(delta: MetricDelta, comparison: Comparison) -> str:
    """"at 500 writes/s, steady (judged)", "at 50 writes/s, steady (judged by the baseline's verdict)" when
    the two verdicts cited different loads, "closed loop (capacity), not judged": the load of the rows
    under it (two WAL runs are compared load by load)."""
    load = str(delta.load)
    if delta.load in comparison.judged_loads:
        by = comparison.judged_by.get(load, "both")  # two runs can judge different loads: say whose
        return f"  at {load} (judged)" if by == "both" else f"  at {load} (judged by the {by}'s verdict)"
    return f"  {load}, not judged" if load.startswith("closed loop") else f"  at {load} (not judged)"


def _compare_lines(comparison: Comparison, judged_only: bool = False,
                   target_below: bool = False) -> list[str]:
    base, cand = comparison.baseline, comparison.candidate
    first = comparison.judged_loads[:1]  # the load the newer run's verdict cited
    deltas = [delta for delta in comparison.deltas  # each column: numbers right-aligned, units in their own
              if not judged_only or delta.load is None or delta.load in first]
    width = max([18, *(len(row_name(delta)) + 1 for delta in deltas)])  # two spaces before a value
    before = aligned_figures([value_text(delta.before, delta.unit) for delta in deltas])  # every unit shown:
    after = aligned_figures([value_text(delta.after, delta.unit) for delta in deltas])  # one right edge
    cell = max([len("candidate"), *map(len, before + after)])
    change = max([len("change"), *(len(delta.ratio_text()) for delta in deltas)])
    lines = comparison.flags() or [unchanged_line(comparison)]  # the verdict and its caveats come first
    if comparison.not_comparable():
        lines.append(str(comparison.not_comparable()))
    lines += caveat_changes(comparison)
    lines.append(f"  {'metric':<{width}} {'baseline':>{cell}}  {'candidate':>{cell}}  {'change':>{change}}")
    load: str | None = None
    for delta, b, a in zip(deltas, before, after, strict=True):
        if delta.load is not None and delta.load != load:  # WAL levels: one heading per load
            load = delta.load
            lines.append(_load_heading(delta, comparison))
        lines.append(delta_line(delta, width, (f"{b:>{cell}}", f"{a:>{cell}}"), change))
    lines += comparison.noise_lines()
    gap = "\n" + " " * len("candidate ") if target_below else "  "
    lines += [f"baseline  {base.id}  {base.when()}{gap}{target_text(base)}",
              f"candidate {cand.id}  {cand.when()}{gap}{target_text(cand)}",
              f"where     {comparison.where()}"]
    if comparison.param_changes:
        changes = "; ".join(f"{name} {before} → {after}" for name, before, after in comparison.param_changes)
        lines.append(f"params    DIFFER: {changes} (the figures are not like for like)")
    else:
        lines.append(f"params    same: {base.kind_info.params_text(base.record)}")
    return lines


def unchanged_line(comparison: Comparison) -> str:
    """"p99 fdatasync from due at 50 writes/s, steady, the judged metric, changed by less than 20% (on the
    same filesystem)": named, so that a bigger change of another row above is not read as a contradiction."""
    names = comparison.judged_names()
    at = f" at {' or '.join(comparison.judged_loads)}" if comparison.judged_loads else ""
    if names:
        what = f"{' and '.join(names)}{at}, the judged metric{'s' if len(names) > 1 else ''},"
        return f"{what} changed by less than {REGRESSION_PERCENT:.0f}% ({comparison.where()})"
    return f"no judged metric{at} changed by {REGRESSION_PERCENT:.0f}% or more ({comparison.where()})"


def caveat_changes(comparison: Comparison) -> list[str]:
    """What differed between the two runs beyond the disk: the host's contention, durability, the model."""
    base, cand = comparison.baseline.record.caveats(), comparison.candidate.record.caveats()
    return [text for text in (model_change(base, cand), durability_change(base, cand),
                              contention_change(base, cand)) if text]
