"""A compaction run as the `bench compaction` document, verdict and plain-text summary."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from diskdoctor.app.base.filesystem_words import filesystem_on
from diskdoctor.app.base.formatting import binary_size
from diskdoctor.app.base.units import AT_LEAST, format_latency
from diskdoctor.probes.engine.workloads.compaction import (
    STREAM_LABELS,
    STREAMS,
    CompactionParams,
    CompactionResult,
)
from diskdoctor.probes.fio_jobs import FioThroughput, compaction_job_file

from .wal import CALL_COLUMNS, RAM_FILESYSTEMS, host_lines, job_text, percentile_row

if TYPE_CHECKING:
    from .finished import FinishedRun as BenchRecord

CACHED_NOTE = ("the inputs stayed in the page cache after eviction ({share:.0%} resident{why}): the reads "
               "measured memory, not the device")


@dataclass(frozen=True)
class ThroughputVerdict:
    """Pass/fail of the write throughput against the user's minimum."""

    passed: bool
    value_mb_s: float
    threshold_mb_s: float

    def line(self) -> str:
        """e.g. "write 182 MB/s ≥ 100 MB/s: custom threshold"."""
        sign = AT_LEAST if self.passed else "<"
        return f"write {self.value_mb_s:,.0f} MB/s {sign} {self.threshold_mb_s:g} MB/s: custom threshold"

    def to_json(self) -> dict[str, object]:
        """The `verdict` object."""
        return {"pass": self.passed, "metric": "write MB/s", "value": round(self.value_mb_s, 2),
                "threshold": self.threshold_mb_s, "source": "custom threshold"}



def verdict(record: BenchRecord) -> ThroughputVerdict | None:
    """Judge the write MB/s when a minimum was given."""
    if record.threshold is None:
        return None
    result: CompactionResult = record.result
    return ThroughputVerdict(result.write_mb_s >= record.threshold, result.write_mb_s, record.threshold)


def cached_note(result: CompactionResult, fstype: str) -> str | None:
    """Why the read figures are not the device's, when the eviction did not work."""
    if result.evicted:
        return None
    why = f"; {fstype} keeps files in memory" if fstype in RAM_FILESYSTEMS else ""
    return CACHED_NOTE.format(share=result.resident_after_evict, why=why)


def document(record: BenchRecord) -> dict[str, object]:
    """The stable JSON result: workload, params, target, the result's figures, verdict, fio."""
    params: CompactionParams = record.params
    figures = record.result.to_json()
    histograms = figures.pop("histograms")
    found = verdict(record)
    data: dict[str, object] = {"workload": "compaction", "params": params.to_json(),
                               "target": record.target.to_json(), **figures,
                               "note": cached_note(record.result, record.target.fstype),
                               "verdict": found.to_json() if found else None,
                               "fio_equivalent": compaction_job_file(params, record.target.directory)}
    if isinstance(record.fio, FioThroughput):
        data["fio"] = record.fio.to_json()
    data["histograms"] = histograms
    return data


def _ratio(ours: object, theirs: float) -> str:
    return f"{ours / theirs:.2f}" if isinstance(ours, (int, float)) and theirs else "-"


def summary_lines(record: BenchRecord) -> list[str]:
    """The human summary printed on stdout."""
    data, result, params = document(record), record.result, record.params
    found = verdict(record)
    target = record.target
    lines = [("PASS  " if found.passed else "FAIL  ") + found.line()] if found else []
    lines += [f"compaction read {result.read_mb_s:,.1f} MB/s, write {result.write_mb_s:,.1f} MB/s "
             f"in {format_latency(result.duration_s * 1e9)} ({result.files_written} files written, "
             f"{result.jobs} job{'s' if result.jobs > 1 else ''})"]
    if data["note"]:
        lines.append(f"note      {data['note']}")
    lines += [f"target    {target.directory} ({filesystem_on(target.fstype, target.device)})",
              f"params    {params.jobs} × {params.inputs} inputs of {binary_size(params.file_size)}, "
              f"{binary_size(params.read_bs)} reads"
              f"{' (advised RANDOM: no kernel readahead)' if params.advise_random else ''}, "
              f"{binary_size(params.write_bs)} writes, sync_file_range every "
              f"{binary_size(params.bytes_per_sync)}, fdatasync per file",
              f"in calls  read {data['read_busy_mb_s'] or 0:,.1f} MB/s, "
              f"write {data['write_busy_mb_s'] or 0:,.1f} "
              "MB/s (bytes / time inside the read or write calls)"]
    for name in STREAMS:
        lines.append(f"{STREAM_LABELS[name]:<11}{percentile_row(data[f'{name}_latency_us'], CALL_COLUMNS)}")  # type: ignore[arg-type]
    lines += host_lines(data.get("host"))
    if isinstance(record.fio, FioThroughput):
        lines.append(f"fio       reader {record.fio.read_mb_s:,.1f} MB/s, "
                     f"writer {record.fio.write_mb_s:,.1f} MB/s "
                     f"({record.fio.version}); ratios ours/fio: read "
                     f"{_ratio(data['read_busy_mb_s'], record.fio.read_mb_s)}, write "
                     f"{_ratio(data['write_busy_mb_s'], record.fio.write_mb_s)} in calls (not call for call: "
                     "ours reads while its writeback runs, fio's jobs read, then write; "
                     "see docs/bench/fidelity.md)")
    for layer in data["layers"]:  # type: ignore[attr-defined]
        util = layer.get("util")
        lines.append(f"layer     {layer['kname']:<10} read {layer['read_bytes'] / 1e6:>9,.1f} MB  write "
                     f"{layer['write_bytes'] / 1e6:>9,.1f} MB  {layer['flushes'] or 0:>6,} flushes  "
                     + (f"{util:4.0%} busy" if isinstance(util, (int, float)) else ""))
    lines.append("fio job   " + job_text(str(data["fio_equivalent"])))
    return lines
