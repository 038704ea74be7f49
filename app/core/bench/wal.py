"""Turn a WAL run into a verdict with provenance, its JSON document (docs/schemas/bench-wal.schema.json) and a
plain-text summary."""

from __future__ import annotations

from dataclasses import dataclass

from diskdoctor.app.base.units import compared, format_latency, format_latency_ms, format_threshold
from diskdoctor.probes.engine.workloads.wal import WalResult
from diskdoctor.probes.fio_json import FioSyncStats
from diskdoctor.probes.host_load import HostLoad
from diskdoctor.probes.latency_histogram import LatencyHistogram, summary_us
from diskdoctor.probes.wal_params import SYNC_LABELS, WalParams, fio_command, rate_text
from diskdoctor.probes.wal_target import Target

from .finished import FinishedRun

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
    """Pass/fail of the p99 durable-call latency against a threshold, and where the threshold comes from."""

    passed: bool
    metric: str
    value_ms: float
    threshold_ms: float
    source: str
    samples: int

    def line(self) -> str:
        """e.g. "p99 fdatasync 3.1 ms < 10 ms: etcd docs threshold; 10,029 samples"."""
        sign = "<" if self.passed else ">="
        value = compared(self.value_ms, self.threshold_ms, below=self.passed)  # never "10 ms >= 10 ms"
        return (f"{self.metric} {value} {sign} {format_threshold(self.threshold_ms)}: {self.source}; "
                f"{self.samples:,} samples")

    def to_json(self) -> dict[str, object]:
        """The `verdict` object of the JSON result."""
        return {"pass": self.passed, "metric": self.metric, "value_ms": round(self.value_ms, 3),
                "threshold_ms": self.threshold_ms, "source": self.source}


def format_ms(value_ms: float) -> str:
    """A latency given in ms, in the unit that suits it with three significant digits: 412 µs, 3.10 ms."""
    return format_latency_ms(value_ms)


def verdict_for(params: WalParams, sync: LatencyHistogram, threshold_ms: float,
                source: str | None = None, load: str | None = None) -> Verdict:
    """Judge the p99 of the durable call (fdatasync, fsync or the O_DSYNC write); `source` names the
    threshold's origin when the user picked it (a custom 10 ms is still custom); `load` the open-loop
    load the latencies were measured at (timed from when each write was due)."""
    p99_ms = (sync.percentile(99.0) or 0.0) / 1e6
    metric = f"p99 {SYNC_LABELS[params.sync]}"
    if load:
        metric += f" from due at {load}"
    return Verdict(p99_ms < threshold_ms, metric, p99_ms, threshold_ms,
                   source or threshold_source(threshold_ms), sync.count)


def result_verdict(params: WalParams, result: WalResult, threshold_ms: float,
                   source: str | None = None) -> Verdict:
    """The run's verdict: its headline level (the open-loop load with the worst p99), never the closed
    loop's capacity figure unless the run had no rate (saved before the open loop existed)."""
    head = result.headline
    load = short_load(head.rate, head.arrival) if head is not None and head.rate is not None else None
    return verdict_for(params, result.sync, threshold_ms, source, load)


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
                         f"sync p50 {_us(call.get('p50'))}  p99 {_us(call.get('p99'))}  "
                         f"p99.9 {_us(call.get('p99_9'))} (not the verdict)")
            continue
        p99 = due.get("p99")
        under = isinstance(p99, (int, float)) and p99 / 1000.0 < threshold_ms
        judged = "p99 under" if under else "p99 at or over"
        lines.append(f"{'load':<9} {level['text']}: from due p50 {_us(due.get('p50'))}  p99 "
                     f"{_us(p99)}  p99.9 {_us(due.get('p99_9'))}; sync call p50 {_us(call.get('p50'))}  "
                     f"p99 {_us(call.get('p99'))}; {judged} {format_threshold(threshold_ms)}")
        if level.get("reached") and int(level.get("max_backlog") or 1) > 1:  # type: ignore[call-overload]
            lines.append(f"{'note':<9} at {level['text']} the writer fell behind: up to "
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


def _us(value: object) -> str:
    return format_ms(value / 1000.0) if isinstance(value, (int, float)) else "-"


def level_verdicts(document_levels: list[dict[str, object]], threshold_ms: float) -> None:
    """Add each open-loop level's own verdict (pass and p99 against the threshold) to its JSON object."""
    for level in document_levels:
        due = level.get("latency_us")
        p99 = due.get("p99") if isinstance(due, dict) else None
        if level.get("rate") is None or not isinstance(p99, (int, float)):
            level["verdict"] = None
            continue
        level["verdict"] = {"pass": p99 / 1000.0 < threshold_ms, "metric": "p99 from due time",
                            "value_ms": round(p99 / 1000.0, 3), "threshold_ms": threshold_ms}


latency_summary = summary_us
"""min/p50/p90/p99/p99_9/max/mean/stdev in µs (and the sample count), plus fio's percentile list."""


def fio_summary(stats: FioSyncStats) -> dict[str, object]:
    """fio's side of a side-by-side run, in the same units and keys as ours (and its raw figures)."""
    return stats.to_json()


def result_document(params: WalParams, target: Target, result: WalResult, threshold_ms: float,
                    fio: FioSyncStats | None = None, source: str | None = None) -> dict[str, object]:
    """The stable JSON result (docs/schemas/bench-wal.schema.json)."""
    figures = result.to_json()
    levels = figures.get("levels") or []
    assert isinstance(levels, list)
    level_verdicts(levels, threshold_ms)
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
        "verdict": result_verdict(params, result, threshold_ms, source).to_json(),
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
    """The human summary: the PASS/FAIL verdict line, then the details (the TUI and walkthroughs show it)."""
    return [("PASS  " if verdict.passed else "FAIL  ") + verdict.line(), *detail_lines(document, verdict)]


def detail_lines(document: dict[str, object], verdict: Verdict) -> list[str]:
    """Everything the summary says after its verdict: the tmpfs note, target, profile, percentiles, host,
    fio beside ours (and a note when fio lands on the other side of the threshold), layers, fio command."""
    sync, write = document["sync_latency_us"], document["write_latency_us"]
    assert isinstance(sync, dict) and isinstance(write, dict)
    target = document["target"]
    assert isinstance(target, dict)
    label = verdict.metric.removeprefix("p99 ")
    lines = [*[f"note      {note}" for note in [ram_note(str(target["fstype"]))] if note],
             f"target    {target['dir']} ({target['fstype']} on {target['device'] or 'no block device'})",
             f"profile   {document['profile']}: {summary_params_text(document['params'])}",
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
    """The host's state during the run, and a warning when other processes kept it busy."""
    if not isinstance(host, dict):
        return []
    load = HostLoad.from_json(host)
    lines = [f"{'host':<9} {load.line()}"]
    if load.busy_reason:
        lines.append(f"{'note':<9} the host was busy during the run ({load.busy_reason}): "
                     "the figures include its interference")
    return lines


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
        layout = (f"etcd's WAL segments of {int(params['segment_bytes']) / 1e6:g} MB"  # type: ignore[call-overload]
                  f"{' (preallocated)' if params['prealloc'] else ''}")
        if params.get("commit_ms"):
            layout += f", backend commit every {params['commit_ms']:g} ms beside"
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
                          record.threshold_source)


def run_document(record: FinishedRun) -> dict[str, object]:
    """A finished run's `bench wal --json` document."""
    return result_document(record.params, record.target, record.result,
                           record.threshold or ETCD_THRESHOLD_MS, record.fio, record.threshold_source)


def run_summary(record: FinishedRun) -> list[str]:
    """A finished run's summary."""
    return summary_lines(run_document(record), run_verdict(record))


def run_details(record: FinishedRun) -> list[str]:
    """A finished run's summary without its verdict line."""
    return detail_lines(run_document(record), run_verdict(record))
