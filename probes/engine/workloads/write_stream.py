"""What the results of the timed-write workloads (WAL, randwrite) share, as JSON and back: counts, the sync
and write() latency summaries and histograms, the per-layer totals and the host's load during the run."""

from __future__ import annotations

from dataclasses import dataclass

from ...diskstats import DiskDelta
from ...host_load import HostLoad
from ...latency_histogram import LatencyHistogram, summary_us


@dataclass
class WriteStreamFields:
    """The shared fields of a timed-write result, as rebuilt from its JSON."""

    samples: int
    duration_s: float
    ops_per_s: float | None
    sync: LatencyHistogram
    write: LatencyHistogram
    layers: list[DiskDelta]
    host: HostLoad | None


def write_stream_json(fields: WriteStreamFields, extra: dict[str, object] | None = None) -> dict[str, object]:
    """The result document: counts, then `extra` (a workload's own facts), summaries, layers, histograms."""
    return {"samples": fields.samples, "duration_s": fields.duration_s, "ops_per_s": fields.ops_per_s,
            **(extra or {}),
            "sync_latency_us": summary_us(fields.sync), "write_latency_us": summary_us(fields.write),
            "layers": [layer.to_json() for layer in fields.layers],
            "host": fields.host.to_json() if fields.host else None,
            "histograms": {"sync": fields.sync.to_json(), "write": fields.write.to_json()}}


def write_stream_fields(data: dict[str, object]) -> WriteStreamFields:
    """The shared fields of a document `write_stream_json` made (or a saved `bench --json` result)."""
    histograms = data["histograms"]
    assert isinstance(histograms, dict)
    host = data.get("host")
    return WriteStreamFields(
        int(data["samples"]), float(data["duration_s"]),  # type: ignore[arg-type]
        None if data.get("ops_per_s") is None else float(data["ops_per_s"]),  # type: ignore[arg-type]
        LatencyHistogram.from_json(histograms["sync"]), LatencyHistogram.from_json(histograms["write"]),
        [DiskDelta.from_json(d) for d in data.get("layers") or []],  # type: ignore[union-attr]
        HostLoad.from_json(host) if isinstance(host, dict) else None)
