"""Two saved runs side by side: the change of every metric, changed parameters, and regression flags."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from diskdoctor.app.base.formatting import with_article
from diskdoctor.probes.wal_params import load_text

from ..bench.kind import Metric
from ..bench.run_metrics import param_changes
from .noise import NoiseTest, change_text, noise_test

if TYPE_CHECKING:
    from .record import SavedRun

REGRESSION_PERCENT = 20.0
"""A judged metric this much worse is flagged (run-to-run noise of a shared VM stays under it at the p99)."""
RATIO_DECIMALS = ((0, 100.0), (1, 10.0), (2, 1.0))
"""A ratio's decimals by its size: "×641", "×23.2", "×3.40", "×1.00"; a drop is said by the same rule as a
rise, its factor after "÷" ("÷106" for 3.43 ms → 32.3 µs, "÷1.33" for -25%), so both directions keep three
significant digits (×0.01 said a 106-fold drop in one: newuser21) and the decimal points share one column."""
NOT_COMPARABLE = "NOT COMPARABLE"
"""The verdict of two runs that are not like for like: no change between them is a regression."""
MIN_LATENCY_CHANGE_MS = 0.05
"""Below this absolute change a latency is not flagged, however large the percentage (µs-scale tmpfs runs)."""


@dataclass(frozen=True)
class MetricDelta:
    """One metric in both runs: the change, whether it got worse, and whether that is flagged."""

    key: str
    label: str
    unit: str
    before: float | None
    after: float | None
    lower_is_better: bool
    judged: bool
    noise: NoiseTest | None = None
    """The test of the two runs' samples (judged percentiles); None for a figure without samples (ops/s)."""
    load: str | None = None
    """The load of a WAL level's figure ("500 writes/s, steady", "closed loop (capacity)"); None otherwise."""
    name: str = ""
    """The label without its load, for a table under a heading that names the load ("" : the label)."""
    comparable: bool = True
    """False when the two runs are not like for like (see Comparison.unlike): the change is the setups'
    difference, never flagged."""

    @property
    def row_label(self) -> str:
        """The label a table row shows: without its load when the table's heading names it."""
        return self.name or self.label

    @property
    def change(self) -> float | None:
        """after - before, in the metric's unit."""
        return None if self.before is None or self.after is None else self.after - self.before

    @property
    def percent(self) -> float | None:
        """The change relative to `before`, in percent (None when before is 0 or unknown)."""
        change = self.change
        return None if change is None or not self.before else change / self.before * 100.0

    @property
    def worse(self) -> bool:
        """Whether the metric moved the bad way (latency up, throughput down)."""
        change = self.change
        return change is not None and (change > 0 if self.lower_is_better else change < 0)

    @property
    def significant(self) -> bool:
        """Whether the change is big enough to talk about (REGRESSION_PERCENT and, for ms, a floor)."""
        percent, change = self.percent, self.change
        if percent is None or change is None or abs(percent) < REGRESSION_PERCENT:
            return False
        return self.unit != "ms" or abs(change) >= MIN_LATENCY_CHANGE_MS

    @property
    def beyond_noise(self) -> bool:
        """The change is more than the runs' own noise (always, for a figure without samples)."""
        return self.noise is None or self.noise.beyond_noise

    @property
    def within_noise(self) -> bool:
        """A judged change big enough to talk about that the samples do not bear out."""
        return self.comparable and self.judged and self.significant and not self.beyond_noise

    @property
    def regression(self) -> bool:
        """A judged metric of two like-for-like runs that got significantly worse, beyond their noise."""
        return self.comparable and self.judged and self.worse and self.significant and self.beyond_noise

    @property
    def improvement(self) -> bool:
        """A judged metric of two like-for-like runs that got significantly better, beyond their noise."""
        return self.comparable and self.judged and not self.worse and self.significant and self.beyond_noise

    def ratio_text(self) -> str:
        """The change as a factor: a rise as "×3.40", "×641", a drop as "÷1.33", "÷106", none as "×1.00"; "-".
        One form for every change, small or large, better or worse (a percentage up to +200% and a ratio
        beyond it read as two scales side by side: newuser17), and the one storage people read latency
        changes in; a drop's factor is the baseline over the candidate, so it has a rise's digits. A change
        under the REGRESSION_PERCENT flag is cut toward 1 rather than rounded up to the flag ("×1.19" for
        +19.6%, "÷1.24" for -19.9%), so no change seems a missed flag."""
        percent = self.percent
        if percent is None or self.after is None or self.before is None:
            return "-"
        if self.after / self.before <= 0:
            return "×0.00"
        return factor_text(self.after / self.before, flagged=abs(percent) >= REGRESSION_PERCENT)

    def to_json(self) -> dict[str, object]:
        """One entry of `metrics` in `runs compare --json`."""
        percent = self.percent
        return {"key": self.key, "label": self.label, "load": self.load, "judged": self.judged,
                "unit": self.unit, "before": _round(self.before),
                "after": _round(self.after), "change": _round(self.change),
                "percent": None if percent is None else round(percent, 1), "worse": self.worse,
                "regression": self.regression, "beyond_noise": self.beyond_noise,
                "noise": None if self.noise is None else self.noise.to_json()}


def factor_text(ratio: float, flagged: bool = True) -> str:
    """"×103" for a ratio of 103, "÷106" for 1/106, "×1.00" for 1: a positive ratio as a factor with three
    significant digits either way (RATIO_DECIMALS); not `flagged`, it stays short of the flag's factor."""
    rise = ratio >= 1
    factor = ratio if rise else 1 / ratio
    decimals = next(places for places, least in RATIO_DECIMALS if round(factor, places) >= least)
    shown = round(factor, decimals)
    flag = 1 + REGRESSION_PERCENT / 100 if rise else 1 / (1 - REGRESSION_PERCENT / 100)
    if not flagged and shown >= flag:
        shown = flag - 10.0 ** -decimals  # a step toward 1: under the flag, never shown at it
    return f"{'×' if rise or shown == 1 else '÷'}{shown:,.{decimals}f}"  # no change: "×1.00" either way


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


@dataclass(frozen=True)
class Comparison:
    """`baseline` is the older run, `candidate` the newer one."""

    baseline: SavedRun
    candidate: SavedRun
    deltas: list[MetricDelta]
    param_changes: list[tuple[str, str, str]]
    """(label, before, after) as a person reads them ("size", "2 MiB", "22 MiB")."""
    unmatched: tuple[list[str], list[str]] = ([], [])
    """Judged metrics only one run has (baseline's labels, candidate's): not comparable, never flagged."""
    only_in: list[tuple[str, str, str]] = field(default_factory=list)
    """WAL loads only one run measured: (load, "baseline" or "candidate", run id); never compared."""
    judged_loads: list[str] = field(default_factory=list)
    """The loads the two WAL verdicts cited that both runs measured (their figures are the judged ones)."""
    judged_by: dict[str, str] = field(default_factory=dict)
    """Each judged load's verdict: "baseline", "candidate" or "both" (two runs can judge different loads)."""

    def loads_note(self) -> str | None:
        """"not compared, measured by one run only: 500 writes/s, steady: only in the candidate, 3202";
        when the runs share no load at all, that nothing is compared; None when every load is shared."""
        if not self.only_in:
            return None
        named = "; ".join(f"{load}: only in the {side}, {short_id(run_id)}"
                          for load, side, run_id in self.only_in)
        if not self.deltas:
            return ("the loads differ, so nothing is compared (no flag; compare runs with the same "
                    f"writes/s): {named}")
        return f"not compared, measured by one run only: {named}"

    def not_comparable(self) -> str | None:
        """"not comparable on p99 fdatasync: the candidate measured p99 write() instead"; the WAL loads only
        one run measured (`loads_note`); or None."""
        loads = self.loads_note()
        only_base, only_cand = self.unmatched
        if not only_base and not only_cand:
            return loads
        what = ", ".join(only_base or only_cand)
        other = ", ".join(only_cand or only_base)
        side = "candidate" if only_base else "baseline"
        instead = f" measured {other} instead" if only_base and only_cand else " lacks it"
        metrics = (f"not comparable on {what}: the {side}{instead} (no flag; compare runs with the same "
                   "settings)")
        return metrics if loads is None else f"{loads}; {metrics}"

    @property
    def same_filesystem(self) -> bool:
        """Both runs on the same host, mountpoint, filesystem type and device."""
        return (self.baseline.host.hostname == self.candidate.host.hostname
                and self.baseline.stack.same_filesystem(self.candidate.stack))

    @property
    def durability_differs(self) -> bool:
        """One run's target made fdatasync durable and the other's did not."""
        return self.baseline.record.caveats().durable != self.candidate.record.caveats().durable

    def unlike(self) -> str | None:
        """"NOT COMPARABLE (not like for like): tmpfs (not durable) against ext4 on vda; the changes below
        are the two setups' difference, not a regression" when the runs differ in durability, filesystem,
        host or parameters; None when like for like."""
        parts = []
        if self.durability_differs or not self.same_filesystem:
            differs = self.durability_differs
            base, cand = (_setup_text(run, differs) for run in (self.baseline, self.candidate))
            if base == cand:  # the same kind of filesystem: the directories tell them apart
                base, cand = self.baseline.stack.describe(), self.candidate.stack.describe()
            parts.append(f"{base} against {cand}")
        if self.baseline.host.hostname != self.candidate.host.hostname:
            hosts = (run.host.hostname or "?" for run in (self.baseline, self.candidate))
            parts.append("host {} against {}".format(*hosts))
        if self.param_changes:
            changed = "; ".join(f"{name} {before} → {after}" for name, before, after in self.param_changes)
            parts.append(f"other parameters ({changed})")
        if not parts:
            return None
        return (f"{NOT_COMPARABLE} (not like for like): {'; '.join(parts)}; the changes below are the two "
                "setups' difference, not a regression")

    @property
    def comparable(self) -> bool:
        """Whether the runs are like for like (same durability, filesystem, host and parameters): only then
        can a change be a regression."""
        return self.unlike() is None

    @property
    def verdict(self) -> str:
        """REGRESSION, NOT COMPARABLE (the runs are not like for like) or NO REGRESSION."""
        if not self.comparable:
            return NOT_COMPARABLE
        return "REGRESSION" if self.regressed else "NO REGRESSION"

    def judged_names(self) -> list[str]:
        """The judged metrics' labels without their load ("p99 fdatasync from due"), once each."""
        return list(dict.fromkeys(delta.row_label for delta in self.deltas if delta.judged))

    def where(self) -> str:
        """"on the same filesystem", or what differs."""
        if self.same_filesystem:
            return "on the same filesystem"
        if self.baseline.host.hostname != self.candidate.host.hostname:
            return f"on another host ({self.baseline.host.hostname} → {self.candidate.host.hostname})"
        return f"on another filesystem ({self.baseline.stack.describe()} → {self.candidate.stack.describe()})"

    def flags(self) -> list[str]:
        """e.g. "REGRESSION p99 fdatasync +240% since 2026-11-20 14:30 UTC on the same filesystem"; of two
        runs that are not like for like, only the NOT COMPARABLE line (see `unlike`)."""
        unlike = self.unlike()
        if unlike is not None:
            return [unlike]
        since = self.baseline.when()  # with the time: two runs of one day are told apart
        lines = []
        for delta in self.deltas:
            if delta.regression or delta.improvement:
                word = "REGRESSION" if delta.regression else "improved"
                lines.append(f"{word} {delta.label} {delta.ratio_text()} since {since} {self.where()}")
            elif delta.within_noise and delta.noise is not None and delta.noise.untested is not None:
                lines.append(f"not flagged: {delta.label} {delta.ratio_text()} "
                             f"({change_text(delta.before, delta.after)}) could not be tested against "
                             f"run-to-run noise ({delta.noise.untested})")
            elif delta.within_noise:
                lines.append(f"no significant change in {delta.label}: {delta.ratio_text()} "
                             f"({change_text(delta.before, delta.after)}) is within run-to-run noise")
        return lines

    def noise_lines(self) -> list[str]:
        """How each judged percentile was tested: both intervals and the rank test, or why not."""
        return [f"noise     {delta.label}: {delta.noise.text()}" for delta in self.deltas
                if delta.judged and delta.noise is not None]

    @property
    def regressed(self) -> bool:
        """Whether any judged metric regressed."""
        return any(delta.regression for delta in self.deltas)

    def to_json(self) -> dict[str, object]:
        """The `runs compare --json` document."""
        return {"baseline": self.baseline.id, "candidate": self.candidate.id,
                "same_filesystem": self.same_filesystem,
                "metrics": [delta.to_json() for delta in self.deltas],
                "param_changes": _raw_param_changes(self.baseline, self.candidate),
                "flags": self.flags(), "not_comparable": self.not_comparable(),
                "not_like_for_like": self.unlike(),
                "only_in": [{"load": load, "side": side, "run": run_id}
                            for load, side, run_id in self.only_in],
                "regression": self.regressed, "verdict": self.verdict}


def _setup_text(run: SavedRun, durability: bool) -> str:
    """"tmpfs (not durable)", "ext4 on vda": the filesystem a run measured, and its durability when the
    runs differ in it."""
    target = run.stack.target
    text = f"{target.fstype} on {target.device}" if target.device else target.fstype
    return f"{text} (not durable)" if durability and not run.record.caveats().durable else text


def _raw_param_changes(first: SavedRun, second: SavedRun) -> list[dict[str, object]]:
    """The changed fields with their saved values, for JSON readers (nested parts compared whole)."""
    before = first.params.to_json()  # type: ignore[attr-defined]
    after = second.params.to_json()  # type: ignore[attr-defined]
    return [{"name": name, "before": before.get(name), "after": after.get(name)}
            for name in dict.fromkeys([*before, *after]) if before.get(name) != after.get(name)]


def _param_changes(first: SavedRun, second: SavedRun) -> list[tuple[str, str, str]]:
    if first.kind != second.kind:
        return [("kind", first.kind, second.kind)]
    return param_changes(first.params.to_json(), second.params.to_json())  # type: ignore[attr-defined]


def _by_key(metrics: list[Metric]) -> dict[str, Metric]:
    return {metric.key: metric for metric in metrics}


def _load_of(run: SavedRun) -> tuple[object, object] | None:
    """(rate, arrival) of the open-loop load a WAL run's verdict cited; None for any other run."""
    head = getattr(getattr(run.record, "result", None), "headline", None)
    return None if head is None or head.rate is None else (head.rate, head.arrival)


def _judged_at(run: SavedRun, load: tuple[object, object]) -> SavedRun | None:
    """`run` with the figures of its level at `load` as its headline, or None when it has no such level."""
    result = run.record.result  # type: ignore[attr-defined]
    level = next((level for level in result.levels if (level.rate, level.arrival) == load), None)
    if level is None:
        return None
    return replace(run, record=replace(run.record, result=result.judged_at(level)))  # type: ignore[type-var]


Load = tuple[object, object]
"""(rate, arrival) of a WAL level; rate None for the closed loop (capacity)."""


def _loads(run: SavedRun) -> list[Load]:
    """Every load an open-loop WAL run measured, in the order it ran; [] for any other run."""
    if _load_of(run) is None:
        return []
    return [(level.rate, level.arrival) for level in run.record.result.levels]  # type: ignore[attr-defined]


def _load_rank(load: Load) -> tuple[bool, float, str]:
    """Open-loop loads by rate, the closed loop (capacity) last."""
    rate, arrival = load
    return rate is None, float(rate) if isinstance(rate, (int, float)) else 0.0, str(arrival)


def short_id(run_id: str) -> str:
    """"3202" of "20261126-061200-wal-3202": the part a user types."""
    return run_id.rsplit("-", 1)[-1]


def different_kinds(first: SavedRun, second: SavedRun) -> str:
    """Why two runs cannot be compared, when they measured different things."""
    return (f"run {first.id} is {with_article(first.kind)} run and {second.id} "
            f"{with_article(second.kind)} run: only runs of the same kind can be compared")


def compare_runs(first: SavedRun, second: SavedRun) -> Comparison:
    """Compare two runs; the older one is the baseline whatever the argument order. Two open-loop WAL runs
    are compared at every load both measured: the loads their verdicts cited first (judged: flagged),
    then the other rates, then the capacity (shown, never flagged); a load only one run has is named."""
    baseline, candidate = sorted((first, second), key=lambda run: (run.saved_at, run.id))
    before_loads, after_loads = _loads(baseline), _loads(candidate)
    if not before_loads or not after_loads:
        deltas, unmatched = _deltas(baseline, candidate)
        changes = _param_changes(baseline, candidate)
        return _marked(Comparison(baseline, candidate, deltas, changes, unmatched))
    judged = [load for load in dict.fromkeys((_load_of(candidate), _load_of(baseline)))
              if load in before_loads and load in after_loads]
    shared = judged + sorted((load for load in dict.fromkeys(before_loads)
                              if load in after_loads and load not in judged), key=_load_rank)
    deltas, unmatched = [], ([], [])
    for load in shared:
        part, missing = _deltas(_judged_at(baseline, load), _judged_at(candidate, load),  # type: ignore[arg-type]
                                load, judged=load in judged)
        deltas += part
        unmatched[0].extend(missing[0])
        unmatched[1].extend(missing[1])
    only = [(load_text(*load), side, run.id)  # type: ignore[arg-type]
            for side, run, mine, other in (("baseline", baseline, before_loads, after_loads),
                                           ("candidate", candidate, after_loads, before_loads))
            for load in sorted(dict.fromkeys(mine), key=_load_rank) if load not in other]
    judged_by = {load_text(*load): ("both" if _load_of(baseline) == _load_of(candidate)  # type: ignore[arg-type]
                                    else "candidate" if load == _load_of(candidate) else "baseline")
                 for load in judged}
    return _marked(Comparison(baseline, candidate, deltas, _param_changes(baseline, candidate), unmatched,
                              only, [load_text(*load) for load in judged], judged_by))  # type: ignore[arg-type]


def _marked(comparison: Comparison) -> Comparison:
    """The comparison with every delta marked not comparable when its runs are not like for like."""
    if comparison.comparable:
        return comparison
    return replace(comparison, deltas=[replace(delta, comparable=False) for delta in comparison.deltas])


def _at_load(metric: Metric, load: Load | None, judged: bool) -> Metric:
    """A WAL level's metric: the capacity's named so (its key and label carry it, as the rates' do), and
    judged only at a load a verdict cited (the figures at the other loads are shown, never flagged)."""
    if load is None:
        return metric
    if load[0] is None:
        metric = replace(metric, key=f"{metric.key}@capacity", label=f"{metric.label} at capacity")
    return metric if judged else replace(metric, judged=False, samples=None)


def _deltas(baseline: SavedRun, candidate: SavedRun, load: Load | None = None,
            judged: bool = True) -> tuple[list[MetricDelta], tuple[list[str], list[str]]]:
    """Every metric both runs have, and the labels of the judged ones only one run has (per side)."""
    before = _by_key([_at_load(m, load, judged) for m in baseline.kind_info.metrics(baseline.record)])
    after = _by_key([_at_load(m, load, judged) for m in candidate.kind_info.metrics(candidate.record)])
    text = None if load is None else load_text(*load)  # type: ignore[arg-type]
    deltas = []
    for key, metric in before.items():
        other = after.get(key)
        if other is None:
            continue
        noise = noise_test(metric.samples, other.samples) \
            if metric.samples is not None and other.samples is not None else None
        name = "" if text is None else _without_load(metric.label, text)
        deltas.append(MetricDelta(key, metric.label, metric.unit, metric.value, other.value,
                                  metric.lower_is_better, metric.judged, noise, text, name))
    unmatched = ([metric.label for key, metric in before.items() if metric.judged and key not in after],
                 [metric.label for key, metric in after.items() if metric.judged and key not in before])
    return deltas, unmatched


def _without_load(label: str, load: str) -> str:
    """"p99 fdatasync from due" of "p99 fdatasync from due at 500 writes/s, steady" (the table's heading
    names the load); "p99 fdatasync" of "p99 fdatasync at capacity"."""
    for suffix in (f" at {load}", " at capacity"):
        if label.endswith(suffix):
            return label.removesuffix(suffix)
    return label
