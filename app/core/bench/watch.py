"""A watch of a running database as a run: its document (docs/schemas/watch.schema.json), the verdict the
benchmarks give (the WAL's p99 durable call against etcd's 10 ms), its summary, metrics and curves."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from diskdoctor.probes.db_files import OTHER
from diskdoctor.probes.engine.workloads import Workload
from diskdoctor.probes.host_text import visible
from diskdoctor.probes.latency_histogram import LatencyHistogram, summary_us
from diskdoctor.probes.sync_trace import SYNC_CALLS, Tally
from diskdoctor.probes.wal_params import ParamError
from diskdoctor.probes.watch_session import WatchParams, WatchResult

from .kind import LatencyCurve, Metric
from .wal import CALL_COLUMNS, ETCD_THRESHOLD_MS, Verdict, percentile_row, threshold_source

if TYPE_CHECKING:
    from .finished import FinishedRun

JUDGED_CLASS = "wal"
OTHER_CLASS = OTHER[0]
MAX_FIGURE_ROWS = 6
"""The sync rows (call and file class) a saved watch's figures list, the busiest first."""
METRIC_PERCENTILES = (("p50", 50.0), ("p90", 90.0), ("p99", 99.0), ("p99.9", 99.9))
JUDGED_DEFAULT = {"etcd": ETCD_THRESHOLD_MS}
"""The processes judged without --threshold-ms, and against what (etcd's docs: WAL fdatasync p99 < 10 ms)."""


def _not_an_engine_run(_params: object, _emit: object) -> object:
    raise ParamError("a watch traces a running process (diskdoctor watch); the engine does not run it")


ENGINE = Workload("watch", WatchParams, WatchResult, _not_an_engine_run)
"""The kinds table's engine slot: typed parameters and result for saved runs; never run by the engine."""


def default_threshold(process: str) -> float | None:
    """The threshold a watch of `process` is judged against when none is given (etcd: 10 ms)."""
    return JUDGED_DEFAULT.get(process)


def wal_sync(tally: Tally) -> tuple[str, LatencyHistogram] | None:
    """(call, histogram) of the WAL's durable call: the sync call the WAL files saw most of."""
    found: dict[str, LatencyHistogram] = {}
    for calls in tally.files.values():
        if calls.file_class == JUDGED_CLASS and calls.call in SYNC_CALLS:
            found.setdefault(calls.call, LatencyHistogram()).merge(calls.histogram)
    if not found:
        return None
    call = max(found, key=lambda name: found[name].count)
    return call, found[call]


def wal_label(tally: Tally) -> str:
    """How the WAL is called on this process ("etcd WAL", "PostgreSQL WAL"...)."""
    return next((calls.label for calls in tally.files.values() if calls.file_class == JUDGED_CLASS), "WAL")


def tally_verdict(tally: Tally, threshold_ms: float | None, source: str | None = None) -> Verdict | None:
    """The WAL's p99 durable call against the threshold; None without a threshold or WAL calls."""
    found = wal_sync(tally)
    if threshold_ms is None or found is None or not found[1].count:
        return None
    call, histogram = found
    p99_ms = (histogram.percentile(99.0) or 0.0) / 1e6
    return Verdict(p99_ms < threshold_ms, f"p99 {call} of the {wal_label(tally)}", p99_ms, threshold_ms,
                   source or threshold_source(threshold_ms), histogram.count)


def verdict(record: FinishedRun) -> Verdict | None:
    """The run's verdict against the threshold it was watched with."""
    return tally_verdict(record.result.tally, record.threshold, record.threshold_source)


def class_rows(tally: Tally, histograms: bool = False) -> list[dict[str, Any]]:
    """Per call and file class (WAL first), the call count and its p50/p99/p99.9 in µs (and the histogram,
    in ns, for a reader that adds intervals up: the TUI, a script)."""
    merged: dict[tuple[str, str, str, str], LatencyHistogram] = {}
    paths: dict[tuple[str, str, str, str], set[str]] = {}
    for calls in tally.files.values():
        # unclassified files are not one role: each keeps a row of its own
        own = calls.path if calls.file_class == OTHER_CLASS else ""
        key = (calls.call, calls.file_class, calls.label, own)
        merged.setdefault(key, LatencyHistogram()).merge(calls.histogram)
        paths.setdefault(key, set()).add(calls.path)
    order = sorted(merged, key=lambda key: (key[1] != JUDGED_CLASS, key[0] not in SYNC_CALLS,
                                            -merged[key].count, key[3]))
    return [{"call": key[0], "class": key[1], "label": key[2], "files": sorted(paths[key]),
             "latency_us": summary_us(merged[key]),
             **({"histogram": merged[key].to_json()} if histograms else {})}
            for key in order]


def files_text(files: list[str]) -> str:
    """Where a row's calls went, safe for a terminal: the one path, or the directory and how many files."""
    if len(files) == 1:
        return visible(files[0])
    absolute = [path for path in files if path.startswith("/")]
    if not absolute:
        return f"{len(files)} files"
    common = os.path.commonpath(absolute)
    return visible(f"{common.rstrip('/')}/ ({len(files)} files)")


def document(record: FinishedRun) -> dict[str, object]:
    """The stable JSON document of a watch (saved runs keep it; `watch --json-lines` ends with it)."""
    result: WatchResult = record.result
    found = verdict(record)
    return {"workload": "watch", "params": record.params.to_json(), "target": record.target.to_json(),
            **result.to_json(), "by_class": class_rows(result.tally),
            "verdict": found.to_json() if found else None}


def device_lines(result: WatchResult) -> list[str]:
    """One line per device: requests, flushes, and the time they spent in the device."""
    lines = []
    for times in sorted(result.tally.devices.values(), key=lambda t: -t.histogram.count):
        name = result.device_names.get(times.dev, times.dev)
        lines.append(f"device {name} ({times.dev}): {times.histogram.count:,} requests "
                     f"({times.flushes:,} flushes), time in device "
                     + percentile_row(summary_us(times.histogram), CALL_COLUMNS[:3]))
    return lines


def tally_lines(tally: Tally, seconds: float) -> list[str]:
    """Per call and file class: calls, calls/s and the percentiles (the live lines and the summary)."""
    lines = []
    for row in class_rows(tally):
        count = row["latency_us"]["samples"]
        rate = f"{count / seconds:,.0f}/s" if seconds > 0 else "-"
        lines.append(f"{row['call']:<16} {row['label']:<26} {count:>9,} calls {rate:>8}  "
                     + percentile_row(row["latency_us"], CALL_COLUMNS[:4]) + f"  {files_text(row['files'])}")
    return lines or ["no sync calls seen yet"]


def summary_lines(record: FinishedRun) -> list[str]:
    """The human summary: what was watched, each call per file class, each device, losses, the verdict."""
    params: WatchParams = record.params
    result: WatchResult = record.result
    pids = ", ".join(str(pid) for pid in params.pids[:8]) + (" ..." if len(params.pids) > 8 else "")
    lines = [f"watched {params.process} (pid {pids}) for {result.seconds:.1f} s; "
             f"data {params.data_dir or '-'} on {record.target.device or '-'} ({record.target.fstype})"]
    lines += tally_lines(result.tally, result.seconds)
    lines += device_lines(result)
    for row in class_rows(result.tally):
        if row["class"] == JUDGED_CLASS:
            lines.append(f"{row['label']} files: {', '.join(row['files'][:4])}")
            break
    if result.lost_events:
        lines.append(f"lost events: {result.lost_events:,} (the kernel's buffer overran; figures undercount)")
    found = verdict(record)
    if found is not None:
        lines.append(f"{'PASS' if found.passed else 'FAIL'} {found.line()}")
    return lines


def _row_name(row: dict[str, Any]) -> str:
    """A row's file role as metric labels say it: "etcd backend (bbolt db)", "other file w.log"."""
    if row["class"] == OTHER_CLASS and len(row["files"]) == 1:
        return f"{row['label']} {visible(os.path.basename(row['files'][0]))}"
    return str(row["label"])


def _key(text: str) -> str:
    return "".join(char if char.isalnum() else "_" for char in text.lower()).strip("_")


def metrics(record: FinishedRun) -> list[Metric]:
    """The WAL's durable call (judged) and its calls per second; then per sync call and file class (the
    busiest first, judged by its p99 when there is no WAL) its calls and p50/p99/p99.9."""
    tally = record.result.tally
    seconds = record.result.seconds or 1e-9
    found = wal_sync(tally)
    figures: list[Metric] = []
    if found is not None:
        call, histogram = found
        values = [(name, histogram.percentile(percent)) for name, percent in METRIC_PERCENTILES]
        values.append(("max", histogram.maximum))
        figures += [Metric(f"wal_sync_{name}", f"{name} {call} (WAL)", "ms",
                           None if value is None else value / 1e6, judged=name == "p99")
                    for name, value in values]
        figures.append(Metric("wal_syncs_per_s", f"{call}/s (WAL)", "ops/s", histogram.count / seconds,
                              lower_is_better=False))
    rows = [row for row in class_rows(tally, histograms=True) if row["call"] in SYNC_CALLS]
    for index, row in enumerate(rows[:MAX_FIGURE_ROWS]):
        if found is not None and row["class"] == JUDGED_CLASS and row["call"] == found[0]:
            continue  # the WAL's durable call has its figures above
        histogram = LatencyHistogram.from_json(row["histogram"])
        name = f"{row['call']} ({_row_name(row)})"
        key = _key(f"{row['call']} {row['class']} {_row_name(row)}")
        figures.append(Metric(f"{key}_calls", f"calls {name}", "calls", float(histogram.count),
                              lower_is_better=False))
        for label, percent in METRIC_PERCENTILES[:1] + METRIC_PERCENTILES[2:]:
            value = histogram.percentile(percent)
            figures.append(Metric(f"{key}_{_key(label)}", f"{label} {name}", "ms",
                                  None if value is None else value / 1e6,
                                  judged=found is None and index == 0 and label == "p99"))
    return figures


def curves(record: FinishedRun) -> list[LatencyCurve]:
    """One curve per sync call and file class, the WAL first."""
    merged: dict[str, LatencyHistogram] = {}
    for row_calls in record.result.tally.files.values():
        if row_calls.call in SYNC_CALLS:
            key = f"{row_calls.call} {row_calls.label}"
            merged.setdefault(key, LatencyHistogram()).merge(row_calls.histogram)
    order = sorted(merged, key=lambda key: "WAL" not in key)
    return [LatencyCurve(key, merged[key]) for key in order]


def params_text(record: FinishedRun) -> str:
    """The watch as one line: process, pids, data directory, duration."""
    params: WatchParams = record.params
    seconds = f"{params.seconds:g} s" if params.seconds else "until stopped"
    return (f"process {params.process}, {len(params.pids)} pid(s), data {params.data_dir or '-'}, "
            f"{seconds}{', writes too' if params.writes else ''}")

