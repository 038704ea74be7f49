"""One finished benchmark as shown, printed and saved: what ran where, its typed result, the threshold, fio's
side; `to_json` is the `bench KIND --json` document and `from_json` rebuilds the same typed record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from diskdoctor.probes.engine.workloads import workload
from diskdoctor.probes.fio_jobs import FioThroughput
from diskdoctor.probes.fio_json import FioSyncStats
from diskdoctor.probes.wal_target import Target

from . import compaction_report, interference_report, randwrite_report, wal_report


@dataclass
class BenchRecord:
    """A finished run of `workload` with `params` on `target`; `threshold` is in ms (MB/s for compaction),
    None when the run is not judged."""

    workload: str
    params: Any
    target: Target
    result: Any
    threshold: float | None = None
    threshold_source: str | None = None
    fio: Any = None
    """FioSyncStats (wal, randwrite), FioThroughput (compaction), or a pair of FioSyncStats (interference)."""

    def verdict(self) -> Any:
        """The pass/fail judgement (None without a threshold); it has `passed`, `line()` and `to_json()`."""
        if self.workload == "wal":
            return wal_report.result_verdict(self.params, self.result, self.threshold or
                                             wal_report.ETCD_THRESHOLD_MS, self.threshold_source)
        return _module(self.workload).verdict(self)

    def to_json(self) -> dict[str, object]:
        """The documented JSON result (README: `bench KIND --json`)."""
        if self.workload == "wal":
            return wal_report.result_document(self.params, self.target, self.result, self.threshold or
                                              wal_report.ETCD_THRESHOLD_MS, self.fio, self.threshold_source)
        return _module(self.workload).document(self)

    def summary_lines(self) -> list[str]:
        """The human summary printed on stdout."""
        if self.workload == "wal":
            return wal_report.summary_lines(self.to_json(), self.verdict())
        return _module(self.workload).summary_lines(self)

    def detail_lines(self) -> list[str]:
        """The summary without its PASS/FAIL line, where the CLI puts the run's findings (wal, interference);
        compaction and randwrite, which no rule judges, keep their whole summary."""
        if self.workload == "wal":
            return wal_report.detail_lines(self.to_json(), self.verdict())
        if self.workload == "interference":
            return interference_report.detail_lines(self)
        return self.summary_lines()

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BenchRecord:
        """Rebuild a record from its `to_json` document (a saved run)."""
        kind = workload(str(data.get("workload") or "wal"))
        verdict = data.get("verdict") or {}
        if not isinstance(verdict, dict):
            verdict = {}
        threshold = verdict.get("threshold_ms", verdict.get("threshold"))
        source = verdict.get("source")
        if threshold is not None and source == wal_report.threshold_source(threshold):
            source = None  # the default source for that threshold, as the CLI leaves it
        return cls(kind.name, kind.params_type.from_json(data["params"]), Target.from_json(data["target"]),
                   kind.result_type.from_json(data), threshold, source,
                   _fio_from_json(kind.name, data.get("fio")))


def _module(name: str) -> Any:
    return {"compaction": compaction_report, "randwrite": randwrite_report,
            "interference": interference_report}[name]


def _fio_from_json(kind: str, data: Any) -> Any:
    if not isinstance(data, dict):
        return None
    if kind == "compaction":
        return FioThroughput.from_json(data)
    if kind == "interference":
        return FioSyncStats.from_json(data["alone"]), FioSyncStats.from_json(data["under_compaction"])
    return FioSyncStats.from_json(data)
