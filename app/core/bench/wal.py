"""Turn a WAL run into a verdict with provenance, its JSON document (docs/schemas/bench-wal.schema.json) and a
plain-text summary."""

from __future__ import annotations

from dataclasses import dataclass

from diskdoctor.app.base.filesystem_words import filesystem_on
from diskdoctor.app.base.units import AT_LEAST, compared, format_latency, format_latency_ms, format_threshold
from diskdoctor.probes.engine.sections import section_key
from diskdoctor.probes.engine.workloads.wal import WalLevel, WalResult
from diskdoctor.probes.fio_json import FioSyncStats
from diskdoctor.probes.host_load import HostLoad
from diskdoctor.probes.latency_histogram import LatencyHistogram, summary_us
from diskdoctor.probes.wal_params import SYNC_LABELS, WalParams, fio_command, rate_text
from diskdoctor.probes.wal_target import Target

from .finished import FinishedRun
from .outcome import Sections, verdict_word, with_sections
from .profile_name import profile_title
from .uncertainty import (
    CONFIDENCE,
    FAIL,
    INCONCLUSIVE,
    PASS,
    Interval,
    histogram_interval,
    outcome_of,
    settle_text,
)

ETCD_THRESHOLD_MS = 10.0
VENDOR_THRESHOLD_MS = 20.0
THRESHOLD_SOURCES = {
    ETCD_THRESHOLD_MS: "etcd docs threshold",
    VENDOR_THRESHOLD_MS: "vendor threshold (Red Hat OpenShift etcd guidance)",
}
FIO_LABEL = "community check: fio's etcd job, a closed loop (not the verdict)"
SUMMARY_KEYS = (("p50", 50.0), ("p90", 90.0), ("p99", 99.0), ("p99_9", 99.9))
RAM_FILESYSTEMS = frozenset({"tmpfs", "ramfs"})
RAM_NOTE = ("{fstype} keeps files in memory: fdatasync returns at once, so this run says nothing about "
            "a disk (test a directory on the disk etcd will use)")


def ram_note(fstype: str | None) -> str | None:
    """A warning when the target is RAM-backed, where a PASS would mislead; None otherwise."""
    return RAM_NOTE.format(fstype=fstype) if fstype in RAM_FILESYSTEMS else None


def threshold_source(threshold_ms: float) -> str:
    """Where a threshold comes from: etcd's docs (10 ms), the vendor variant (20 ms), or the user."""
    return THRESHOLD_SOURCES.get(threshold_ms, "custom threshold")


@dataclass(frozen=True)
class Verdict:
    """PASS, FAIL or INCONCLUSIVE of the p99 durable-call latency against a threshold: PASS or FAIL only when
    the p99's whole confidence interval lies on one side of it; where the threshold comes from."""

    passed: bool
    metric: str
    value_ms: float
    threshold_ms: float
    source: str
    samples: int
    outcome: str = ""
    """"pass", "fail" or "inconclusive" ("" : from `passed`, a verdict without an interval)."""
    interval: Interval | None = None
    """The p99's 95% confidence interval in ms (None: a run saved before intervals, or too few samples)."""
    settle: str | None = None
    """What would settle an INCONCLUSIVE verdict."""
    interval_note: str | None = None
    """Why there is no interval."""

    @property
    def result(self) -> str:
        """"pass", "fail" or "inconclusive"."""
        return self.outcome or (PASS if self.passed else FAIL)

    def line(self) -> str:
        """e.g. "p99 fdatasync 3.1 ms < 10 ms: etcd docs threshold; 10,029 samples; 95% interval 2.9 ms to
        3.4 ms (order statistics)"; INCONCLUSIVE: "p99 fdatasync 9.1 ms, not clearly under or over 10 ms:
        etcd docs threshold; 1,000 samples; 95% interval 6.0 ms to 13.2 ms (sections)"."""
        ci = f"; {interval_phrase(self.interval)}" if self.interval is not None else ""
        if self.result == INCONCLUSIVE:
            return (f"{self.metric} {format_ms(self.value_ms)}, not clearly under or over "
                    f"{format_threshold(self.threshold_ms)}: {self.source}; {self.samples:,} samples{ci}")
        sign = "<" if self.passed else AT_LEAST
        value = compared(self.value_ms, self.threshold_ms, below=self.passed)  # never "10 ms ≥ 10 ms"
        return (f"{self.metric} {value} {sign} {format_threshold(self.threshold_ms)}: {self.source}; "
                f"{self.samples:,} samples{ci}")

    def to_json(self) -> dict[str, object]:
        """The `verdict` object of the JSON result."""
        return {"pass": self.passed, "metric": self.metric, "value_ms": round(self.value_ms, 3),
                "threshold_ms": self.threshold_ms, "source": self.source, **uncertainty_json(self)}


def uncertainty_json(verdict: Verdict) -> dict[str, object]:
    """outcome, interval (null with its reason), settle: what every verdict object adds for its noise."""
    return {"outcome": verdict.result,
            "interval": None if verdict.interval is None else verdict.interval.to_json(),
            "interval_note": verdict.interval_note, "settle": verdict.settle}


def format_ms(value_ms: float) -> str:
    """A latency given in ms, in the unit that suits it with three significant digits: 412 µs, 3.10 ms."""
    return format_latency_ms(value_ms)


def interval_phrase(interval: Interval | None) -> str:
    """"95% interval 2.9 ms to 3.4 ms (order statistics)"; an open end: "95% interval from 7.1 ms, unbounded
    above (too few samples; order statistics)"."""
    if interval is None:
        return "no confidence interval"
    if interval.high is None:
        return (f"{CONFIDENCE:.0%} interval from {format_ms(interval.low)}, unbounded above (too few "
                f"samples; {interval.method})")
    bounds = f"{format_ms(interval.low)} to {format_ms(interval.high)}"
    return f"{CONFIDENCE:.0%} interval {bounds} ({interval.method})"


NO_INTERVAL_OLD = "no confidence interval: this run was saved before diskdoctor kept the sections it needs"
NO_INTERVAL_FEW = "no confidence interval: too few samples"



def level_interval(level: WalLevel, sections: Sections | None, phase: str = "run") -> Interval | None:
    """The 95% interval (ms) of a level's p99 from due time: order statistics, and sections when known."""
    if sections is None or level.rate is None:
        return None
    found = histogram_interval(level.latency, sections.get(section_key(phase, "sync", level.load)) or None)
    return None if found is None else found.scaled(1e-6)


def verdict_for(params: WalParams, sync: LatencyHistogram, threshold_ms: float,
                source: str | None = None, load: str | None = None, interval: Interval | None = None,
                uncertain: bool = False, duration_s: float | None = None, busy: str | None = None) -> Verdict:
    """Judge the p99 of the durable call (fdatasync, fsync or the O_DSYNC write); `source` names the
    threshold's origin when the user picked it (a custom 10 ms is still custom); `load` the open-loop
    load the latencies were measured at (timed from when each write was due); `interval` its confidence
    interval, `uncertain` whether the run kept what intervals need (False: saved before them)."""
    p99_ms = (sync.percentile(99.0) or 0.0) / 1e6
    metric = f"p99 {SYNC_LABELS[params.sync]}"
    if load:
        metric += f" from due at {load}"
    outcome = outcome_of(p99_ms, threshold_ms, interval)
    note = None if interval is not None else (NO_INTERVAL_FEW if uncertain else NO_INTERVAL_OLD)
    return Verdict(outcome == PASS, metric, p99_ms, threshold_ms, source or threshold_source(threshold_ms),
                   sync.count, outcome if uncertain else "", interval,
                   settle_text(interval, threshold_ms, sync.count, duration_s, busy), note)


def result_verdict(params: WalParams, result: WalResult, threshold_ms: float,
                   source: str | None = None, sections: Sections | None = None,
                   phase: str = "run") -> Verdict:
    """The run's verdict over its open-loop levels (never the closed loop's capacity figure unless the run
    had no rate, saved before the open loop existed): FAIL when a level's whole interval is over the
    threshold, INCONCLUSIVE when one straddles it, else PASS; it cites the deciding level (the worst p99)."""
    listed = level_verdict_list(params, result, threshold_ms, source, sections, phase)
    index = deciding_index(listed)
    if index is None:  # no open-loop level: a closed-loop run, its sections keyed by the phase alone
        busy = result.host.busy_reason if result.host is not None else None
        runs = sections.get(f"{phase}/sync") if sections is not None else None
        found = histogram_interval(result.sync, runs) if sections is not None else None
        return verdict_for(params, result.sync, threshold_ms, source, interval=found and found.scaled(1e-6),
                           uncertain=sections is not None, duration_s=result.duration_s, busy=busy)
    verdict = listed[index]
    assert verdict is not None
    return verdict


def deciding_index(listed: list[Verdict | None]) -> int | None:
    """The level whose verdict decides the run: the worst p99 among the failing levels, else among the
    unsettled ones, else among all (None: no open-loop level)."""
    indexed = [(index, verdict) for index, verdict in enumerate(listed) if verdict is not None]
    for wanted in (FAIL, INCONCLUSIVE, None):
        deciding = [(index, verdict) for index, verdict in indexed
                    if wanted is None or verdict.result == wanted]
        if deciding:
            return max(deciding, key=lambda pair: pair[1].value_ms)[0]
    return None


def judged_result(params: WalParams, result: WalResult, threshold_ms: float, source: str | None = None,
                  sections: Sections | None = None, phase: str = "run") -> WalResult:
    """`result` with the deciding level's figures as its headline, so the summary's counts, percentiles and
    a saved run's compared figures are those of the load the verdict cites."""
    index = deciding_index(level_verdict_list(params, result, threshold_ms, source, sections, phase))
    return result if index is None else result.judged_at(result.levels[index])


def level_verdict_list(params: WalParams, result: WalResult, threshold_ms: float, source: str | None,
                       sections: Sections | None, phase: str = "run") -> list[Verdict | None]:
    """Each level's own verdict with its interval, in the order of `result.levels` (None: the closed loop)."""
    busy = result.host.busy_reason if result.host is not None else None
    verdicts: list[Verdict | None] = []
    for level in result.levels:
        if level.rate is None:
            verdicts.append(None)
            continue
        verdicts.append(verdict_for(params, level.latency, threshold_ms, source,
                                    short_load(level.rate, level.arrival),
                                    level_interval(level, sections, phase),
                                    sections is not None, level.scheduled_s or level.duration_s, busy))
    return verdicts


SYNC_CALL = "sync call"
"""The name of the durable call timed alone (each fdatasync; a level's `sync`), apart from the write."""


def figure_label(call: str, rate: object) -> str:
    """The name of a WAL load's own latency (a level's `latency`, the engine's "sync" stream), never the
    bare call's: "fdatasync from due" at a rate (each write and its sync, timed from when it was due),
    "write+fdatasync" in the closed loop (each write and its sync back to back, from when it was issued);
    the call alone is SYNC_CALL. An O_DSYNC write is its own sync."""
    if isinstance(rate, (int, float)):
        return f"{call} from due"
    return call if call == SYNC_LABELS["dsync"] else f"write+{call}"


def short_load(rate: float, arrival: str) -> str:
    """A load for a verdict line: "500/s steady", "50/s Poisson"."""
    return f"{rate_text(rate)}/s {'Poisson' if arrival == 'poisson' else arrival}"


def level_lines(document: dict[str, object], threshold_ms: float) -> list[str]:
    """One line per load: its p50/p99/p99.9 from due time and of the sync call, the verdict against the
    threshold (the closed loop: capacity, not judged), and what a rate the disk could not reach did."""
    lines = []
    for level in document.get("levels") or []:
        assert isinstance(level, dict)
        due, call = level["latency_us"], level["sync_latency_us"]
        assert isinstance(due, dict) and isinstance(call, dict)
        if level.get("rate") is None:
            lines.append(f"{'capacity':<9} {level['text']}: {level['achieved_per_s'] or 0:,.0f} writes/s; "
                         f"{SYNC_CALL} p50 {_us(call.get('p50'))}  p99 {_us(call.get('p99'))}  "
                         f"p99.9 {_us(call.get('p99_9'))} (not the verdict)")
            continue
        p99 = due.get("p99")
        lines.append(f"{'load':<9} {level['text']}: from due p50 {_us(due.get('p50'))}  p99 "
                     f"{_us(p99)}  p99.9 {_us(due.get('p99_9'))}; sync call p50 {_us(call.get('p50'))}  "
                     f"p99 {_us(call.get('p99'))}; {_level_judged(level.get('verdict'), p99, threshold_ms)}")
        if level.get("reached") and int(level.get("max_backlog") or 1) > 1:  # type: ignore[call-overload]
            lines.append(f"{'note':<9} at {level['text']}, the writer fell behind: up to "
                         f"{level['max_backlog']:,} writes waited at once (each timed from when it was due)")
        if level.get("cpu_bound"):
            lines.append(f"{'note':<9} asked {rate_text(level['asked_per_s'])} writes/s, achieved "
                         f"{rate_text(level['achieved_per_s'] or 0)}/s: the writer itself used a whole "
                         "CPU, so this load measured this host's CPU, not the disk (judge the disk at "
                         "a lower rate)")
        elif not level.get("reached"):
            lines.append(f"{'note':<9} asked {rate_text(level['asked_per_s'])} writes/s, achieved "
                         f"{rate_text(level['achieved_per_s'] or 0)}/s: the disk could not keep up (up to "
                         f"{level['max_backlog']:,} writes waited at once; {level['end_backlog']:,} were "
                         "still waiting when the schedule ended)")
    return lines


def record_level_lines(workload: str, record: object) -> list[str]:
    """A saved WAL run's `level_lines` (each load, then the capacity); none for other kinds, or for runs
    saved before the open loop (they have no levels)."""
    threshold = getattr(record, "threshold", None)
    if workload != "wal" or threshold is None:
        return []
    document = record.to_json()  # type: ignore[attr-defined]
    return level_lines(document, threshold) if document.get("levels") else []


def _level_judged(verdict: object, p99: object, threshold_ms: float) -> str:
    """"PASS under 10 ms (95% interval ...)", "INCONCLUSIVE across 10 ms (...)" or, saved before intervals,
    "p99 under 10 ms"."""
    outcome = verdict.get("outcome") if isinstance(verdict, dict) else None
    interval = verdict.get("interval") if isinstance(verdict, dict) else None
    if outcome not in (PASS, FAIL, INCONCLUSIVE):
        under = isinstance(p99, (int, float)) and p99 / 1000.0 < threshold_ms
        return f"{'p99 under' if under else 'p99 at or over'} {format_threshold(threshold_ms)}"
    where = {PASS: "p99 under", FAIL: "p99 at or over", INCONCLUSIVE: "inconclusive across"}[str(outcome)]
    shown = f" ({interval_phrase(interval_from_json(interval, p99))})" if isinstance(interval, dict) else ""
    return f"{where} {format_threshold(threshold_ms)}{shown}"


def interval_from_json(data: dict[str, object], estimate_us: object = None) -> Interval:
    """An interval (ms) as a result document carries it."""
    low, high = data.get("low"), data.get("high")
    estimate = estimate_us / 1000.0 if isinstance(estimate_us, (int, float)) else float(low or 0.0)  # type: ignore[arg-type]
    return Interval(estimate, float(low or 0.0), None if high is None else float(high),  # type: ignore[arg-type]
                    str(data.get("method") or "order statistics"))


def _us(value: object) -> str:
    return format_ms(value / 1000.0) if isinstance(value, (int, float)) else "-"


def level_verdicts(document_levels: list[dict[str, object]], verdicts: list[Verdict | None]) -> None:
    """Add each open-loop level's own verdict (outcome, p99 and interval against the threshold) to its JSON
    object."""
    for level, verdict in zip(document_levels, verdicts, strict=False):
        if verdict is None:
            level["verdict"] = None
            continue
        level["verdict"] = {"pass": verdict.passed, "metric": "p99 from due time",
                            "value_ms": round(verdict.value_ms, 3), "threshold_ms": verdict.threshold_ms,
                            **uncertainty_json(verdict)}


latency_summary = summary_us
"""min/p50/p90/p99/p99_9/max/mean/stdev in µs (and the sample count), plus fio's percentile list."""


def fio_summary(stats: FioSyncStats) -> dict[str, object]:
    """fio's side of a side-by-side run, in the same units and keys as ours (and its raw figures)."""
    return stats.to_json()


def result_document(params: WalParams, target: Target, result: WalResult, threshold_ms: float,
                    fio: FioSyncStats | None = None, source: str | None = None,
                    sections: Sections | None = None, phase: str = "run") -> dict[str, object]:
    """The stable JSON result (docs/schemas/bench-wal.schema.json); `sections` the run's sections (None: a
    run saved before them), `phase` the part of the run they are keyed by ("alone", "under_compaction")."""
    listed = level_verdict_list(params, result, threshold_ms, source, sections, phase)  # judged once
    index = deciding_index(listed)
    if index is not None:  # the figures of the load the verdict cites (see judged_result)
        result = result.judged_at(result.levels[index])
    deciding = listed[index] if index is not None else \
        result_verdict(params, result, threshold_ms, source, sections, phase)  # a closed-loop run
    assert deciding is not None
    figures = result.to_json()
    levels = figures.get("levels") or []
    assert isinstance(levels, list)
    level_verdicts(levels, listed)
    document: dict[str, object] = {
        "workload": "wal",
        "profile": params.profile,
        "params": params.to_json(),
        "target": target.to_json(),
        "model": figures.get("model", "closed loop"),
        "load": figures.get("load"),
        "latency_from": figures.get("latency_from", "issue"),
        **{key: figures[key] for key in ("samples", "duration_s", "ops_per_s", "sync_latency_us",
                                         "write_latency_us")},
        "verdict": deciding.to_json(),
        "levels": levels,
        "layers": figures["layers"],
        "host": figures["host"],
        "fio_equivalent": fio_command(params, target.directory),
    }
    if fio is not None:
        document["fio"] = {**fio_summary(fio), "label": FIO_LABEL}
    document["histograms"] = figures["histograms"]
    return document


def summary_lines(document: dict[str, object], verdict: Verdict) -> list[str]:
    """The human summary: the verdict and its noise, then the details (the TUI and walkthroughs show it)."""
    return [*verdict_head(verdict), *detail_lines(document, verdict)]


def verdict_head(verdict: Verdict) -> list[str]:
    """The verdict's line: PASS, FAIL or INCONCLUSIVE with the figure and its interval."""
    return [f"{verdict_word(verdict):<5} {verdict.line()}"]


def uncertainty_lines(verdict: Verdict | None) -> list[str]:
    """What would settle an INCONCLUSIVE verdict, or why a verdict has no interval: the first details."""
    if verdict is None:
        return []
    shown = (("settle", verdict.settle), ("note", verdict.interval_note))
    return [f"{label:<9} {text}" for label, text in shown if text]


def detail_lines(document: dict[str, object], verdict: Verdict) -> list[str]:
    """Everything the summary says after its verdict (its caveats come first, from caveats.py): target,
    profile, percentiles, host load, fio beside ours (and a note when fio lands on the other side of the
    threshold), layers, fio command."""
    sync, write = document["sync_latency_us"], document["write_latency_us"]
    assert isinstance(sync, dict) and isinstance(write, dict)
    target = document["target"]
    assert isinstance(target, dict)
    label = verdict.metric.removeprefix("p99 ")
    device = str(target["device"]) if target.get("device") else None
    lines = [*uncertainty_lines(verdict),
             f"target    {target['dir']} ({filesystem_on(str(target['fstype']), device)})",
             f"profile   {_profile_title(document)}: {summary_params_text(document['params'])}",
             f"run       {document['samples']:,} writes in "
             f"{format_latency(float(document['duration_s']) * 1e9)}, "
             f"{document['ops_per_s'] or 0:,.0f} ops/s ({_model_text(document)})",
             f"{label:<9} {percentile_row(sync)}",
             f"{'write':<9} {percentile_row(write)}"]
    lines += level_lines(document, verdict.threshold_ms)
    lines += host_lines(document.get("host"))
    fio = document.get("fio")
    if isinstance(fio, dict):
        lines.append(f"{'fio':<9} {percentile_row(fio)}; {fio['samples']:,} samples, "
                     f"{fio['ops_per_s']:,.0f} ops/s ({fio['version']}; {FIO_LABEL})")
        fio_p99 = fio.get("p99")
        closed = document.get("model") != "open loop"  # fio's closed loop compares with a closed-loop verdict
        if closed and isinstance(fio_p99, (int, float)) and \
                (fio_p99 / 1000.0 < verdict.threshold_ms) != verdict.passed:
            side = "under" if verdict.passed else "at or over"
            lines.append(f"note      fio's p99 {format_ms(fio_p99 / 1000.0)} is on the other side of the "
                         f"{format_threshold(verdict.threshold_ms)} threshold (ours is {side} it): the "
                         "verdict is marginal here; run longer (--duration) or again")
    layers = document["layers"]
    assert isinstance(layers, list)
    lines += [layer_line(layer) for layer in layers]
    lines.append(f"fio cmd   {document['fio_equivalent']}")
    return lines


def _model_text(document: dict[str, object]) -> str:
    load = document.get("load")
    if document.get("model") == "open loop" and isinstance(load, dict):
        return f"open loop at {load.get('text')}, timed from when each write was due"
    return "closed loop: each write the moment the last sync returned"


def host_lines(host: object) -> list[str]:
    """The host's load during the run in figures (whether that made it busy is said by the verdict)."""
    if not isinstance(host, dict):
        return []
    return [f"{'load':<9} {HostLoad.from_json(host).line()}"]  # busy or quiet: caveats.py, by the verdict


def layer_line(layer: dict[str, object]) -> str:
    """One layer's totals: requests, bytes, average times and utilisation."""
    util = layer.get("util")
    util_text = f"{util:5.0%} busy" if isinstance(util, (int, float)) else "    - busy"
    return (f"{'layer':<9} {layer['kname']:<10} {layer['writes']:>8,} writes  "
            f"{_await(layer['write_await_ms'])} avg write   {_count(layer['flushes'])} flushes  "
            f"{_await(layer['flush_await_ms'])} avg flush  {util_text}")


def job_text(job_file: str) -> str:
    """A fio job file under the `fio job` label: one indented line per option, blank lines dropped."""
    return "\n          ".join(line for line in job_file.splitlines() if line.strip())


def summary_params_text(params: object) -> str:
    """A run's parameters as one phrase: "2,300-byte writes, 22 MiB, fdatasync, preallocated file"."""
    assert isinstance(params, dict)
    size = _binary_size(params["size"])
    amount = f"for {params['duration_s']:g} s over a {size} file" if params["duration_s"] else size
    layout = "preallocated file" if params["prealloc"] else "appending"
    if params.get("format") == "etcd":
        segment = int(params["segment_bytes"])  # type: ignore[call-overload]
        segment_text = f"{segment / 1e6:g} MB" if segment % 1_000_000 == 0 else _binary_size(segment)
        layout = f"etcd's WAL segments of {segment_text}{' (preallocated)' if params['prealloc'] else ''}"
        if params.get("commit_ms"):
            layout += f", plus a backend commit every {params['commit_ms']:g} ms"
    return f"{params['bs']:,}-byte writes, {amount}, {params['sync']}, {layout}"


def _binary_size(value: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if value >= scale:
            return f"{value / scale:.4g} {unit}"
    return f"{value} bytes"


WAL_COLUMNS = (("p50", "p50"), ("p90", "p90"), ("p99", "p99"), ("p99_9", "p99.9"), ("max", "max"))
"""The percentiles a WAL summary prints."""
CALL_COLUMNS = (("p50", "p50"), ("p99", "p99"), ("p99_9", "p99.9"), ("max", "max"), ("stdev", "stdev"))
"""The percentiles (and the spread) the other workloads print per call."""


def percentile_row(values: dict[str, object], columns: tuple[tuple[str, str], ...] = WAL_COLUMNS) -> str:
    """One call's latency figures (µs in a result document) as a summary row: "p50 412 µs  p99 3.10 ms"."""
    parts = []
    for key, name in columns:
        value = values.get(key)
        parts.append(f"{name} {format_ms(value / 1000.0) if isinstance(value, (int, float)) else '-'}")
    return "  ".join(parts)


def _await(value: object) -> str:
    return f"{value:7.2f} ms" if isinstance(value, (int, float)) else "      - ms"


def _count(value: object) -> str:
    return f"{value:>8,}" if isinstance(value, int) else "       -"


def run_verdict(record: FinishedRun) -> Verdict:
    """A finished `bench wal` run judged against its threshold (etcd's 10 ms when none was given)."""
    return result_verdict(record.params, record.result, record.threshold or ETCD_THRESHOLD_MS,
                          record.threshold_source, record.sections)


def run_document(record: FinishedRun) -> dict[str, object]:
    """A finished run's `bench wal --json` document, with its sections (the samples `runs compare` tests)."""
    document = result_document(record.params, record.target, record.result,
                               record.threshold or ETCD_THRESHOLD_MS, record.fio, record.threshold_source,
                               record.sections)
    return with_sections(document, record.sections, record.repeats)


def run_summary(record: FinishedRun) -> list[str]:
    """A finished run's summary."""
    return summary_lines(run_document(record), run_verdict(record))


def run_details(record: FinishedRun) -> list[str]:
    """A finished run's summary without its verdict line."""
    return detail_lines(run_document(record), run_verdict(record))


def _profile_title(document: dict[str, object]) -> str:
    """The document's profile as people read it ("etcd WAL (custom: 5 s)", not "custom")."""
    params = document.get("params")
    if not isinstance(params, dict):
        return str(document["profile"])
    return profile_title(WalParams.from_json(params))
