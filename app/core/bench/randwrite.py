"""A 4 KiB random-write run as the `bench randwrite` document, verdict and plain-text summary."""

from __future__ import annotations

from typing import TYPE_CHECKING

from diskdoctor.app.base.units import format_latency
from diskdoctor.probes.engine.workloads.randwrite import RandwriteParams, RandwriteResult
from diskdoctor.probes.fio_jobs import randwrite_argv, shell_text
from diskdoctor.probes.fio_json import FioSyncStats

from .outcome import with_sections
from .uncertainty import PASS, histogram_interval, outcome_of, settle_text
from .wal import (
    CALL_COLUMNS,
    NO_INTERVAL_FEW,
    NO_INTERVAL_OLD,
    Verdict,
    host_lines,
    layer_line,
    percentile_row,
    threshold_source,
    uncertainty_lines,
    verdict_head,
)

if TYPE_CHECKING:
    from .finished import FinishedRun as BenchRecord


def judged_metric(params: RandwriteParams) -> str:
    """The call whose p99 is judged: fdatasync when each write is synced, else the write itself."""
    return "fdatasync" if params.sync != "none" else "write"


def verdict(record: BenchRecord) -> Verdict | None:
    """Judge the p99 of the judged call when a threshold was given."""
    if record.threshold is None:
        return None
    result: RandwriteResult = record.result
    stream = "sync" if record.params.sync != "none" else "write"
    histogram = result.sync if stream == "sync" else result.write
    p99_ms = (histogram.percentile(99.0) or 0.0) / 1e6
    sections = record.sections
    found = None if sections is None else histogram_interval(histogram, sections.get(f"run/{stream}") or None)
    interval = None if found is None else found.scaled(1e-6)
    outcome = outcome_of(p99_ms, record.threshold, interval)
    busy = result.host.busy_reason if result.host is not None else None
    note = None if interval is not None else (NO_INTERVAL_FEW if sections is not None else NO_INTERVAL_OLD)
    return Verdict(outcome == PASS, f"p99 {judged_metric(record.params)}", p99_ms, record.threshold,
                   record.threshold_source or threshold_source(record.threshold), histogram.count,
                   outcome if sections is not None else "", interval,
                   settle_text(interval, record.threshold, histogram.count, result.duration_s, busy), note)


def document(record: BenchRecord) -> dict[str, object]:
    """The stable JSON result: workload, params, target, figures with stdev, verdict, fio."""
    figures = record.result.to_json()
    histograms = figures.pop("histograms")
    found = verdict(record)
    data: dict[str, object] = {"workload": "randwrite", "params": record.params.to_json(),
                               "target": record.target.to_json(), **figures,
                               "verdict": found.to_json() if found else None,
                               "fio_equivalent": shell_text(randwrite_argv(record.params,
                                                                           record.target.directory))}
    if isinstance(record.fio, FioSyncStats):
        data["fio"] = record.fio.to_json()
    data["histograms"] = histograms
    return with_sections(data, record.sections, record.repeats)


def summary_lines(record: BenchRecord) -> list[str]:
    """The human summary printed on stdout."""
    data, result, params, target = document(record), record.result, record.params, record.target
    found = verdict(record)
    lines = [*verdict_head(found), *uncertainty_lines(found)] if found else []
    lines.append(f"randwrite {result.samples:,} writes of {params.bs:,} bytes "
                 f"in {format_latency(result.duration_s * 1e9)}, "
                 f"{result.ops_per_s or 0:,.0f} ops/s, queue depth 1, "
                 f"{'O_DIRECT' if result.direct else 'buffered'}"
                 f"{' + fdatasync' if params.sync != 'none' else ''}")
    notes = [data.get("note")]
    lines += [f"note      {note}" for note in notes if note]
    lines.append(f"target    {target.directory} ({target.fstype} on {target.device or 'no block device'})")
    if params.sync != "none":
        lines.append(f"{'fdatasync':<9} {percentile_row(data['sync_latency_us'], CALL_COLUMNS)}")  # type: ignore[arg-type]
    lines.append(f"{'write':<9} {percentile_row(data['write_latency_us'], CALL_COLUMNS)}")  # type: ignore[arg-type]
    lines += host_lines(data.get("host"))
    if isinstance(record.fio, FioSyncStats):
        fio = record.fio.to_json()
        ratio = (result.ops_per_s or 0) / record.fio.ops_per_s if record.fio.ops_per_s else 0
        lines.append(f"{'fio':<9} {percentile_row(fio, CALL_COLUMNS)}; {fio['samples']:,} samples of "
                     f"{fio['metric']}, "
                     f"{record.fio.ops_per_s:,.0f} ops/s (ops/s ours/fio {ratio:.2f}: above 1 we did more; "
                     f"{record.fio.version})")
    lines += [layer_line(layer) for layer in data["layers"]]  # type: ignore[attr-defined]
    lines.append(f"fio cmd   {data['fio_equivalent']}")
    return lines
