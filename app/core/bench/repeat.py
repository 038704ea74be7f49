"""`bench KIND --repeat N`: N runs of the same parameters merged into one record, samples and all, so its
intervals come from every sample taken and from how much the runs differed."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from diskdoctor.probes.diskstats import DiskDelta
from diskdoctor.probes.engine.workloads.interference import InterferenceResult
from diskdoctor.probes.engine.workloads.randwrite import RandwriteResult
from diskdoctor.probes.engine.workloads.wal import WalLevel, WalResult
from diskdoctor.probes.host_load import HostLoad
from diskdoctor.probes.latency_histogram import LatencyHistogram

from .record import BenchRecord

REPEATABLE = ("wal", "randwrite", "interference")
"""The kinds whose verdicts rest on percentiles; compaction is judged on MB/s and has no repeats."""
MAX_REPEATS = 20


def merged_histogram(parts: list[LatencyHistogram]) -> LatencyHistogram:
    """Every sample of `parts` in one histogram."""
    merged = LatencyHistogram()
    for part in parts:
        merged.merge(part)
    return merged


def _layers(runs: list[list[DiskDelta]]) -> list[DiskDelta]:
    """Per-layer totals summed over the runs (devices matched by name)."""
    summed: dict[str, DiskDelta] = {}
    numeric = ("seconds", "reads", "writes", "read_bytes", "write_bytes", "read_ms", "write_ms",
               "io_ticks_ms",
               "discards", "discard_bytes", "discard_ms", "flushes", "flush_ms")
    for layers in runs:
        for layer in layers:
            have = summed.get(layer.kname)
            if have is None:
                summed[layer.kname] = layer
                continue
            summed[layer.kname] = replace(have, **{
                name: (None if getattr(have, name) is None or getattr(layer, name) is None
                       else getattr(have, name) + getattr(layer, name)) for name in numeric})
    return list(summed.values())


def _host(hosts: list[HostLoad | None]) -> HostLoad | None:
    """The busiest host reading of the runs (a verdict must not hide that one run was disturbed)."""
    known = [host for host in hosts if host is not None]
    busy = [host for host in known if host.busy_reason]
    return (busy or known or [None])[0]


def _level(levels: list[WalLevel]) -> WalLevel:
    first = levels[0]
    scheduled = [level.scheduled_s for level in levels]
    return WalLevel(first.rate, first.arrival, sum(level.writes for level in levels),
                    sum(level.batches for level in levels),
                    round(sum(level.duration_s for level in levels), 4),
                    merged_histogram([level.latency for level in levels]),
                    merged_histogram([level.issue for level in levels]),
                    merged_histogram([level.sync for level in levels]),
                    merged_histogram([level.write for level in levels]),
                    merged_histogram([level.commit for level in levels]),
                    max(level.max_backlog for level in levels), max(level.end_backlog for level in levels),
                    None if None in scheduled else sum(scheduled),  # type: ignore[arg-type]
                    _layers([level.layers for level in levels]))


def merge_wal(results: list[WalResult]) -> WalResult:
    """The WAL runs' levels merged load by load (the same parameters run the same loads in order)."""
    counts = {len(result.levels) for result in results}
    if counts == {0} or len(counts) != 1:
        first = results[0]
        return replace(first, sync=merged_histogram([r.sync for r in results]),
                       write=merged_histogram([r.write for r in results]),
                       samples=sum(r.samples for r in results), host=_host([r.host for r in results]))
    levels = [_level([result.levels[index] for result in results]) for index in range(counts.pop())]
    return replace(WalResult.of_levels(levels), host=_host([result.host for result in results]))


def merge_results(kind: str, results: list[Any]) -> Any:
    """The runs of one kind merged into one result (ValueError for a kind that has no repeats)."""
    if len(results) == 1:
        return results[0]
    if kind == "wal":
        return merge_wal(results)
    if kind == "interference":
        first: InterferenceResult = results[0]
        return replace(first, alone=merge_wal([r.alone for r in results]),
                       under_compaction=merge_wal([r.under_compaction for r in results]),
                       compaction_bytes_read=sum(r.compaction_bytes_read for r in results),
                       compaction_bytes_written=sum(r.compaction_bytes_written for r in results),
                       compaction_seconds=sum(r.compaction_seconds for r in results),
                       host=_host([r.host for r in results]),
                       notes=list(dict.fromkeys(note for r in results for note in r.notes)))
    if kind == "randwrite":
        runs: list[RandwriteResult] = results
        samples, duration = sum(r.samples for r in runs), sum(r.duration_s for r in runs)
        return replace(runs[0], samples=samples, duration_s=round(duration, 4),
                       ops_per_s=round(samples / duration, 2) if duration > 0 else None,
                       write=merged_histogram([r.write for r in runs]),
                       sync=merged_histogram([r.sync for r in runs]),
                       layers=_layers([r.layers for r in runs]), host=_host([r.host for r in runs]))
    raise ValueError(f"bench {kind} has no --repeat (its verdict is not a percentile)")


def merge_records(records: list[BenchRecord]) -> BenchRecord:
    """One record of N runs: results merged, each run's sections kept apart (the between-run spread)."""
    first = records[0]
    result = merge_results(first.workload, [record.result for record in records])
    sections: dict[str, list[list[LatencyHistogram]]] | None = None
    if all(record.sections is not None for record in records):
        sections = {}
        for record in records:
            for key, runs in (record.sections or {}).items():
                sections.setdefault(key, []).extend(runs)
    return replace(first, result=result, sections=sections,
                   repeats=sum(record.repeats for record in records))
