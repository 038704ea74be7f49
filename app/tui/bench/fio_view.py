"""fio side by side as the Benchmark screen shows it, for every workload: ours against fio's equivalent job,
figure by figure, with the ratio and what it means, and a warning when fio lands across the threshold."""

from __future__ import annotations

from diskdoctor.app.base.units import format_latency, format_threshold
from diskdoctor.probes.engine.workloads.compaction import CompactionResult
from diskdoctor.probes.engine.workloads.interference import InterferenceResult
from diskdoctor.probes.engine.workloads.randwrite import RandwriteParams, RandwriteResult
from diskdoctor.probes.fio_jobs import FioThroughput
from diskdoctor.probes.fio_json import FioSyncStats
from diskdoctor.probes.latency_histogram import LatencyHistogram, rank_of
from rich.text import Text

SAME_WITHIN = 0.05
"""Ratios within 5 % of 1.00 read as "about the same"."""
LATENCY, RATE = "latency", "rate"
Row = tuple[str, float | None, float | None, str, str]
"""(figure, ours, fio's, how to print a value, LATENCY or RATE)."""


def direction(ours: float | None, theirs: float | None, sense: str) -> str:
    """What ours/fio means for a figure: a higher latency is slower, a higher MB/s or ops/s is faster."""
    if not ours or not theirs:
        return ""
    ratio = ours / theirs
    if abs(ratio - 1) <= SAME_WITHIN:
        return "about the same"
    higher = ratio > 1
    return ("ours slower" if higher else "ours faster") if sense == LATENCY else \
        ("ours faster" if higher else "ours slower")


def _value(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "ns":
        return format_latency(value)
    if unit == "x":
        return f"{value:.1f}×"
    return f"{value:,.1f}" if unit == "MB/s" else f"{value:,.0f}"


def table(title: str, version: str, rows: list[Row]) -> Text:
    """The comparison: one row per figure, ours, fio's, ours/fio and what that ratio means."""
    text = Text(f"{title:<24} {'diskdoctor':>11} {version:>11} {'ours/fio':>9}  meaning\n", style="bold")
    for name, ours, theirs, unit, sense in rows:
        ratio = "-" if not ours or not theirs else f"{ours / theirs:.2f}"
        text.append(f"{name:<24} {_value(ours, unit):>11} {_value(theirs, unit):>11} {ratio:>9}  "
                    f"{direction(ours, theirs, sense)}\n")
    return text


def _merged(*histograms: LatencyHistogram | None) -> LatencyHistogram:
    total = LatencyHistogram()
    for histogram in histograms:
        if histogram is not None:
            total.merge(histogram)
    return total


SYNC_ROW = "sync p99 (range + file)"
"""Our range syncs and file syncs merged, against fio's writer's sync calls, which count both kinds."""


def compaction_rows(result: CompactionResult, fio: FioThroughput) -> list[Row]:
    """Read and write MB/s inside the calls (fio's reader and writer are separate jobs), and the p99 of the
    sync calls: our range syncs and file syncs merged, as fio counts its sync_file_range calls and each
    file's fsync as one figure; our file syncs' own p99 under it."""
    read_busy = result.bytes_read / result.read_busy_s / 1e6 if result.read_busy_s > 0 else None
    write_busy = result.bytes_written / result.write_busy_s / 1e6 if result.write_busy_s > 0 else None
    syncs = _merged(result.streams.get("range_sync"), result.streams.get("file_sync"))
    file_sync = result.streams.get("file_sync")
    file_p99 = file_sync.percentile(99.0) if file_sync else None
    return [("read MB/s (in calls)", read_busy, fio.read_mb_s, "MB/s", RATE),
            ("write MB/s (in calls)", write_busy, fio.write_mb_s, "MB/s", RATE),
            (SYNC_ROW, syncs.percentile(99.0), fio.sync_p99_ns, "ns", LATENCY),
            ("  file sync p99 (ours)", file_p99, None, "ns", LATENCY)]


def sync_note(result: CompactionResult) -> str:
    """What the sync row compares, with the counts behind our merged p99 (a few file syncs among many range
    syncs: the p99 rests on a handful of the slowest calls)."""
    ranges, files = (result.streams.get(name) for name in ("range_sync", "file_sync"))
    range_count, file_count = (ranges.count if ranges else 0), (files.count if files else 0)
    total = range_count + file_count
    tail = total - rank_of(99.0, total) + 1 if total else 0
    note = ("sync row: fio counts its sync_file_range calls and the fsync at each file's end as one figure; "
            f"ours merge the same two kinds, {range_count:,} range syncs and {file_count:,} file syncs.")
    if tail:
        note += (f" Its p99 is set by the slowest {tail:,} of those {total:,} calls (file syncs, where they "
                 "are the slow calls); the file syncs' own p99 is the row under it.")
    return note


def randwrite_rows(params: RandwriteParams, result: RandwriteResult, fio: FioSyncStats) -> list[Row]:
    """The judged call's p50, p99, p99.9 and standard deviation, and ops/s."""
    ours = result.sync if params.sync != "none" else result.write
    call = "fdatasync" if params.sync != "none" else "write"
    rows: list[Row] = [(f"{call} {name}", ours.percentile(percent), fio.percentiles_ns.get(percent), "ns",
                        LATENCY) for name, percent in (("p50", 50.0), ("p99", 99.0), ("p99.9", 99.9))]
    rows.append((f"{call} stdev", ours.stdev(), fio.stdev_ns, "ns", LATENCY))
    rows.append(("ops/s", result.ops_per_s, fio.ops_per_s, "ops", RATE))
    return rows


def interference_rows(result: InterferenceResult, alone: FioSyncStats, under: FioSyncStats) -> list[Row]:
    """The WAL's p99 alone and under compaction, and how many times worse it got, ours against fio's."""
    ours_alone, ours_under = result.alone.sync.percentile(99.0), result.under_compaction.sync.percentile(99.0)
    fio_alone, fio_under = alone.percentiles_ns.get(99.0), under.percentiles_ns.get(99.0)
    fio_ratio = fio_under / fio_alone if fio_alone and fio_under is not None else None
    return [("WAL p99 alone", ours_alone, fio_alone, "ns", LATENCY),
            ("WAL p99 under compaction", ours_under, fio_under, "ns", LATENCY),
            ("under / alone", result.p99_ratio, fio_ratio, "x", LATENCY)]


def across_threshold(ours_ns: float | None, theirs_ns: float | None, threshold_ms: float | None,
                     what: str) -> str | None:
    """A warning when our p99 and fio's land on opposite sides of the threshold (the verdict is marginal)."""
    if threshold_ms is None or ours_ns is None or theirs_ns is None:
        return None
    ours_pass, fio_pass = ours_ns / 1e6 < threshold_ms, theirs_ns / 1e6 < threshold_ms
    if ours_pass == fio_pass:
        return None
    limit, side = format_threshold(threshold_ms), "under" if ours_pass else "over"
    return (f"fio's {what} {format_latency(theirs_ns)} is {'under' if fio_pass else 'at or over'} the "
            f"{limit} threshold while ours ({format_latency(ours_ns)}) is {side}: the verdict is marginal; "
            "run longer")


def comparison(params: object, result: object, fio: object,
               threshold_ms: float | None) -> tuple[Text, str | None]:
    """The comparison block for a compaction, randwrite or interference run (told apart by their result
    types), and the threshold warning."""
    warning = None
    if isinstance(result, CompactionResult) and isinstance(fio, FioThroughput):
        text = table("compaction", fio.version, compaction_rows(result, fio))
        text.append(sync_note(result) + "\n", style="dim")
    elif isinstance(result, RandwriteResult) and isinstance(fio, FioSyncStats) \
            and isinstance(params, RandwriteParams):
        text = table("randwrite 4k, QD 1", fio.version, randwrite_rows(params, result, fio))
    elif isinstance(result, InterferenceResult) and isinstance(fio, tuple):
        alone, under = fio
        text = table("WAL beside compaction", alone.version, interference_rows(result, alone, under))
        warning = across_threshold(result.under_compaction.sync.percentile(99.0),
                                   under.percentiles_ns.get(99.0), threshold_ms, "p99 under compaction")
    else:
        return Text(""), None
    text.append("fio ran the equivalent job shown above, on the same directory.", style="dim")
    if warning:
        text.append("\n" + warning, style="bold yellow")
    return text, warning
