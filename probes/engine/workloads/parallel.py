"""Compaction with several jobs: one sibling process per job, their intervals merged into one stream."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING

from ...latency_histogram import LatencyHistogram
from ...wal_target import TargetError
from ..protocol import Failed, Finished, Interval
from ..runtime import EngineConfig
from ..subjobs import SubJob, SubJobs, wait_ready
from .compaction import MIB, CompactionParams, CompactionResult, merge_results
from .compaction import run as run_one_job

if TYPE_CHECKING:
    from ..runtime import EngineContext


class IntervalMerger:
    """Adds up the intervals several jobs streamed since the last emit: histograms, bytes, ops, progress."""

    def __init__(self) -> None:
        self.streams: dict[str, LatencyHistogram] = {}
        self.bytes_read = self.bytes_written = 0
        self.ops: dict[str, int] = {}
        self.progress: dict[str, float] = {}

    def add(self, interval: Interval) -> None:
        """Take one job's interval."""
        for name, histogram in interval.streams.items():
            self.streams.setdefault(name, LatencyHistogram()).merge(histogram)
        self.bytes_read += interval.bytes_read
        self.bytes_written += interval.bytes_written
        self.ops[interval.job] = interval.ops
        self.progress[interval.job] = interval.progress

    def take(self) -> tuple[dict[str, LatencyHistogram], int, int]:
        """The merged histograms and bytes since the last take (then forgotten)."""
        taken = self.streams, self.bytes_read, self.bytes_written
        self.streams, self.bytes_read, self.bytes_written = {}, 0, 0
        return taken


def start_compaction_jobs(group: SubJobs, params: CompactionParams, ctx: EngineContext,
                          prefix: str = "compaction") -> list[SubJob]:
    """Start `params.jobs` single-job compactions that wait at their "ready" barrier after preparing."""
    child = replace(params, jobs=1, ready_barrier=True)
    return [group.start(EngineConfig("compaction", ctx.config.directory, child, [], ctx.config.interval_s,
                                     job=f"{prefix}.{number + 1}"), CompactionResult)
            for number in range(params.jobs)]


def run_parallel(params: CompactionParams, ctx: EngineContext) -> CompactionResult:
    """Prepare in every job, start them together, stream their merged intervals, merge their results."""
    ctx.phase("prepare", f"{params.jobs} jobs writing {params.inputs} × {params.file_size // MIB} MiB "
                         "inputs each")
    with SubJobs() as group:
        jobs = start_compaction_jobs(group, params, ctx)
        wait_ready(jobs, group)
        ctx.phase("run", f"{params.jobs} compaction jobs in parallel")
        for job in jobs:
            job.go()
        merger, results = IntervalMerger(), {}
        period = ctx.config.interval_s
        start = last = time.monotonic()
        while len(results) < len(jobs):
            for job, event in group.poll(max(last + period - time.monotonic(), 0.0)):
                if isinstance(event, Interval):
                    merger.add(event)
                elif isinstance(event, Finished):
                    results[job.config.job] = event.result
                elif isinstance(event, Failed):
                    raise TargetError(event.message)
            now = time.monotonic()
            if now - last >= period or len(results) == len(jobs):
                streams, read, written = merger.take()
                progress = sum(merger.progress.values()) / len(jobs)
                ctx.interval(now - start, sum(merger.ops.values()), progress, streams, bytes_read=read,
                             bytes_written=written, seconds=now - last)
                last = now
    return merge_results(list(results.values()), ctx.disks.total())


def run_compaction(params: CompactionParams, ctx: EngineContext) -> CompactionResult:
    """`compaction`: one job in this process, or `params.jobs` single-job engines side by side."""
    return run_parallel(params, ctx) if params.jobs > 1 else run_one_job(params, ctx)
