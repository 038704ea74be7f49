"""Each workload as saved runs see it: which figures are compared and charted, and its params line."""

from __future__ import annotations

from diskdoctor.probes.latency_histogram import LatencyHistogram
from diskdoctor.probes.wal_params import SYNC_LABELS

from .compaction import STREAM_LABELS
from .finished import FinishedRun as BenchRecord
from .kind import LatencyCurve, Metric
from .param_text import params_line
from .wal import summary_params_text

PERCENTILES = (("p50", 50.0, False), ("p90", 90.0, False), ("p99", 99.0, True), ("p99.9", 99.9, False))


def _ms(value: float | None) -> float | None:
    return None if value is None else value / 1e6


def latency_metrics(prefix: str, label: str, histogram: LatencyHistogram, *,
                    judged: bool = True) -> list[Metric]:
    """p50/p90/p99/p99.9/max of one call's latency in ms; the p99 is judged."""
    metrics = [Metric(f"{prefix}_{name}", f"{name} {label}", "ms", _ms(histogram.percentile(percent)),
                      judged=judged and is_judged) for name, percent, is_judged in PERCENTILES]
    metrics.append(Metric(f"{prefix}_max", f"max {label}", "ms", _ms(histogram.maximum)))
    return metrics


def wal_metrics(record: BenchRecord) -> list[Metric]:
    """`bench wal`: the durable call's percentiles, ops/s and the write p99."""
    result, label = record.result, SYNC_LABELS[record.params.sync]
    return [*latency_metrics("sync", label, result.sync),
            Metric("ops_per_s", "ops/s", "ops/s", result.ops_per_s, lower_is_better=False, judged=True),
            Metric("write_p99", "p99 write()", "ms", _ms(result.write.percentile(99.0)))]


def wal_curves(record: BenchRecord) -> list[LatencyCurve]:
    """The durable call, then write()."""
    return [LatencyCurve(SYNC_LABELS[record.params.sync], record.result.sync),
            LatencyCurve("write()", record.result.write)]


def wal_params_text(record: BenchRecord) -> str:
    """The profile and its parameters."""
    return f"{record.params.profile}: {summary_params_text(record.params.to_json())}"


def _randwrite_judged(record: BenchRecord) -> tuple[str, LatencyHistogram]:
    if record.params.sync != "none":
        return record.params.sync, record.result.sync
    return "write()", record.result.write


def randwrite_metrics(record: BenchRecord) -> list[Metric]:
    """`bench randwrite`: the judged call's latency and ops/s."""
    label, histogram = _randwrite_judged(record)
    stream = "write" if histogram is record.result.write else "sync"  # runs compare matches by key
    return [*latency_metrics(stream, label, histogram),
            Metric("ops_per_s", "ops/s", "ops/s", record.result.ops_per_s, lower_is_better=False,
                   judged=True)]


def randwrite_curves(record: BenchRecord) -> list[LatencyCurve]:
    """The judged call, then write() when the judged call is the sync."""
    label, histogram = _randwrite_judged(record)
    curves = [LatencyCurve(label, histogram)]
    if histogram is not record.result.write:
        curves.append(LatencyCurve("write()", record.result.write))
    return curves


def plain_params_text(record: BenchRecord) -> str:
    """Every parameter of the run as one line."""
    return params_line(record.params.to_json())


def compaction_metrics(record: BenchRecord) -> list[Metric]:
    """`bench compaction`: MB/s read and written (judged), then each call's p50/p99/max."""
    result = record.result
    calls = [metric for name, label, histogram in _compaction_streams(record)
             for metric in latency_metrics(name, label, histogram, judged=False)
             if metric.key.endswith(("_p50", "_p99", "_max"))]
    return [Metric("write_mb_s", "write MB/s", "MB/s", result.write_mb_s, lower_is_better=False,
                   judged=True),
            Metric("read_mb_s", "read MB/s", "MB/s", result.read_mb_s, lower_is_better=False,
                   judged=True), *calls]


def _compaction_streams(record: BenchRecord) -> list[tuple[str, str, LatencyHistogram]]:
    """The per-call latencies `bench compaction` printed: file sync first (the call a WAL waits on)."""
    streams = record.result.streams
    return [(name, f"{STREAM_LABELS[name]}", streams[name])
            for name in ("file_sync", "range_sync", "write", "read") if streams.get(name)
            and streams[name].count]


def compaction_curves(record: BenchRecord) -> list[LatencyCurve]:
    """Every call's latency, file sync first."""
    return [LatencyCurve(label, histogram) for _, label, histogram in _compaction_streams(record)]


def interference_metrics(record: BenchRecord) -> list[Metric]:
    """`bench interference`: the WAL's durable call under compaction (judged), then alone."""
    result, label = record.result, SYNC_LABELS[record.params.wal.sync]
    return [*latency_metrics("under", f"{label} under compaction", result.under_compaction.sync),
            *latency_metrics("alone", f"{label} alone", result.alone.sync, judged=False)]


def interference_curves(record: BenchRecord) -> list[LatencyCurve]:
    """Under compaction, then alone."""
    result, label = record.result, SYNC_LABELS[record.params.wal.sync]
    return [LatencyCurve(f"{label} under compaction", result.under_compaction.sync),
            LatencyCurve(f"{label} alone", result.alone.sync)]


def interference_params_text(record: BenchRecord) -> str:
    """The WAL profile and parameters, then the compaction's."""
    wal = record.params.wal
    return (f"WAL {wal.profile}: {summary_params_text(wal.to_json())}; compaction "
            + params_line(record.params.compaction.to_json()))
