"""Read fio's JSON output (3.x): the fdatasync latency percentiles, their sample count, and ops/s."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass


class FioOutputError(ValueError):
    """fio's output holds no usable job result; the message is one line."""


@dataclass(frozen=True)
class FioSyncStats:
    """fio's figures for the durable call: percentiles (ns) by percent, N, min/max/mean/stdev, ops/s."""

    version: str
    metric: str
    percentiles_ns: dict[float, int]
    samples: int
    min_ns: float
    max_ns: float
    mean_ns: float
    stdev_ns: float
    ops_per_s: float
    writes: int

    def to_json(self) -> dict[str, object]:
        """The `fio` object of a result: fio's figures in µs under our keys, and raw ones to rebuild it."""
        def us(value: float | None) -> float | None:
            return None if value is None else round(value / 1000.0, 3)

        summary: dict[str, object] = {"version": self.version, "metric": self.metric, "samples": self.samples,
                                      "ops_per_s": round(self.ops_per_s, 2), "min": us(self.min_ns)}
        summary.update({key: us(self.percentiles_ns.get(p)) for key, p in
                        (("p50", 50.0), ("p90", 90.0), ("p99", 99.0), ("p99_9", 99.9))})
        summary.update({"max": us(self.max_ns), "mean": us(self.mean_ns), "stdev": us(self.stdev_ns)})
        raw = asdict(self)
        raw["percentiles_ns"] = {f"{k:g}": v for k, v in self.percentiles_ns.items()}
        summary["raw"] = raw
        return summary

    @classmethod
    def from_json(cls, data: dict[str, object]) -> FioSyncStats:
        """Rebuild from `to_json`."""
        raw = dict(data["raw"])  # type: ignore[call-overload]
        raw["percentiles_ns"] = {float(k): int(v) for k, v in raw["percentiles_ns"].items()}
        return cls(**raw)

    def percentile_us(self, percent: float) -> float | None:
        """A percentile in microseconds, if fio reported it."""
        value = self.percentiles_ns.get(percent)
        return None if value is None else value / 1000.0


def _objects(text: str) -> list[dict[str, object]]:
    """Every JSON object in the text: fio may print warnings first, and --status-interval concatenates."""
    decoder, found, index = json.JSONDecoder(), [], text.find("{")
    while index != -1:
        try:
            obj, end = decoder.raw_decode(text, index)
        except ValueError:
            index = text.find("{", index + 1)
            continue
        if isinstance(obj, dict):
            found.append(obj)
        index = text.find("{", end)
    return found


def parse_fio_json(text: str) -> FioSyncStats:
    """The last report's first job; sync stats from `sync.lat_ns` (N, not total_ios, which fio leaves 0)."""
    reports = [o for o in _objects(text) if isinstance(o.get("jobs"), list) and o["jobs"]]
    if not reports:
        raise FioOutputError("fio printed no job results")
    report = reports[-1]
    job = report["jobs"][0]  # type: ignore[index]
    try:
        sync_lat = job["sync"]["lat_ns"]
        write = job["write"]
        if int(sync_lat.get("N", 0)):
            latency, metric = sync_lat, "sync"
        else:
            latency, metric = write["clat_ns"], "write (O_DSYNC)"
        percentiles = {float(k): int(v) for k, v in (latency.get("percentile") or {}).items()}
        return FioSyncStats(
            version=str(report.get("fio version", "fio")), metric=metric, percentiles_ns=percentiles,
            samples=int(latency.get("N", 0)), min_ns=float(latency["min"]), max_ns=float(latency["max"]),
            mean_ns=float(latency["mean"]), stdev_ns=float(latency["stddev"]),
            ops_per_s=float(write["iops"]), writes=int(write["total_ios"]))
    except (KeyError, TypeError, ValueError) as err:
        raise FioOutputError(f"fio's JSON lacks the expected fields ({err})") from err
