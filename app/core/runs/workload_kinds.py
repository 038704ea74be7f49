"""Each engine workload as a saved-run kind: which figures are compared and charted, and its params line."""

from __future__ import annotations

from diskdoctor.probes.latency_histogram import LatencyHistogram
from diskdoctor.probes.wal_params import SYNC_LABELS

from ..bench.compaction import STREAM_LABELS
from ..bench.record import BenchRecord
from ..bench.wal import summary_params_text
from .kinds import LatencyCurve, Metric
from .param_text import params_line

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


def _plain_params(record: BenchRecord) -> str:
    return params_line(record.params.to_json())


class WalKind:
    """etcd-style write + sync latency runs (`bench wal`)."""

    name = "wal"
    title = "WAL write + sync latency"

    def metrics(self, record: BenchRecord) -> list[Metric]:
        result, label = record.result, SYNC_LABELS[record.params.sync]
        return [*latency_metrics("sync", label, result.sync),
                Metric("ops_per_s", "ops/s", "ops/s", result.ops_per_s, lower_is_better=False, judged=True),
                Metric("write_p99", "p99 write()", "ms", _ms(result.write.percentile(99.0)))]

    def curves(self, record: BenchRecord) -> list[LatencyCurve]:
        return [LatencyCurve(SYNC_LABELS[record.params.sync], record.result.sync),
                LatencyCurve("write()", record.result.write)]

    def params_text(self, record: BenchRecord) -> str:
        return f"{record.params.profile}: {summary_params_text(record.params.to_json())}"


class RandwriteKind:
    """Random writes (`bench randwrite`): the judged call's latency and ops/s."""

    name = "randwrite"
    title = "random write latency"

    def _judged(self, record: BenchRecord) -> tuple[str, LatencyHistogram]:
        if record.params.sync != "none":
            return record.params.sync, record.result.sync
        return "write()", record.result.write

    def metrics(self, record: BenchRecord) -> list[Metric]:
        label, histogram = self._judged(record)
        stream = "write" if histogram is record.result.write else "sync"  # runs compare matches by key
        return [*latency_metrics(stream, label, histogram),
                Metric("ops_per_s", "ops/s", "ops/s", record.result.ops_per_s, lower_is_better=False,
                       judged=True)]

    def curves(self, record: BenchRecord) -> list[LatencyCurve]:
        label, histogram = self._judged(record)
        curves = [LatencyCurve(label, histogram)]
        if histogram is not record.result.write:
            curves.append(LatencyCurve("write()", record.result.write))
        return curves

    def params_text(self, record: BenchRecord) -> str:
        return _plain_params(record)


class CompactionKind:
    """Compaction-style streaming (`bench compaction`): MB/s read and written."""

    name = "compaction"
    title = "compaction throughput"

    def metrics(self, record: BenchRecord) -> list[Metric]:
        result = record.result
        calls = [metric for name, label, histogram in self._streams(record)
                 for metric in latency_metrics(name, label, histogram, judged=False)
                 if metric.key.endswith(("_p50", "_p99", "_max"))]
        return [Metric("write_mb_s", "write MB/s", "MB/s", result.write_mb_s, lower_is_better=False,
                       judged=True),
                Metric("read_mb_s", "read MB/s", "MB/s", result.read_mb_s, lower_is_better=False,
                       judged=True), *calls]

    def _streams(self, record: BenchRecord) -> list[tuple[str, str, LatencyHistogram]]:
        """The per-call latencies `bench compaction` printed: file sync first (the call a WAL waits on)."""
        streams = record.result.streams
        return [(name, f"{STREAM_LABELS[name]}", streams[name])
                for name in ("file_sync", "range_sync", "write", "read") if streams.get(name)
                and streams[name].count]

    def curves(self, record: BenchRecord) -> list[LatencyCurve]:
        return [LatencyCurve(label, histogram) for _, label, histogram in self._streams(record)]

    def params_text(self, record: BenchRecord) -> str:
        return _plain_params(record)


class InterferenceKind:
    """WAL alone, then under compaction (`bench interference`): how far the p99 collapses."""

    name = "interference"
    title = "WAL latency under compaction"

    def metrics(self, record: BenchRecord) -> list[Metric]:
        result, label = record.result, SYNC_LABELS[record.params.wal.sync]
        return [*latency_metrics("under", f"{label} under compaction", result.under_compaction.sync),
                *latency_metrics("alone", f"{label} alone", result.alone.sync, judged=False)]

    def curves(self, record: BenchRecord) -> list[LatencyCurve]:
        result, label = record.result, SYNC_LABELS[record.params.wal.sync]
        return [LatencyCurve(f"{label} under compaction", result.under_compaction.sync),
                LatencyCurve(f"{label} alone", result.alone.sync)]

    def params_text(self, record: BenchRecord) -> str:
        wal = record.params.wal
        return (f"WAL {wal.profile}: {summary_params_text(wal.to_json())}; compaction "
                + params_line(record.params.compaction.to_json()))
