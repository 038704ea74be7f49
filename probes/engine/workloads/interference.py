"""The WAL under compaction: the WAL workload alone, then again while compaction jobs run beside it.

Every part is its own engine process (the WAL job, each compaction job); this coordinator only relays
their events, tagged with the phase ("alone", "under_compaction"), so the WAL's timing is exactly that
of `bench wal` and the foreground p99 can be compared with and without a compaction burst beside it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ...host_load import HostLoad
from ...wal_params import WalParams
from ...wal_target import TargetError
from ..protocol import Failed, Finished, Interval, PhaseChanged
from ..runtime import EngineConfig, emit
from ..subjobs import SubJob, SubJobs, wait_ready
from .compaction import MIB, CompactionParams
from .parallel import IntervalMerger, start_compaction_jobs
from .wal import WalResult

if TYPE_CHECKING:
    from ..runtime import EngineContext

UNTIL_STOPPED_S = 86400.0
"""Compaction beside the WAL keeps going (pass after pass) until the WAL is done, then it is stopped."""
DEFAULT_COMPACTION = CompactionParams(inputs=4, file_size=32 * MIB, jobs=2)
PHASE_S = 20.0
"""Each WAL run (alone, under compaction) lasts 20 s over etcd's 22 MiB file: under a compaction burst a
slow disk may manage only tens of fdatasyncs a second, so a size-bound run could take minutes."""
DEFAULT_WAL = WalParams(profile="etcd", duration_s=PHASE_S)
"""Two background jobs (RocksDB's default), 4 × 32 MiB inputs each: 512 MiB of scratch at the peak."""


@dataclass(frozen=True)
class InterferenceParams:
    """The foreground WAL run and the compaction beside it."""

    wal: WalParams = DEFAULT_WAL
    compaction: CompactionParams = DEFAULT_COMPACTION

    def __post_init__(self) -> None:
        """The WAL here stays the closed loop over one plain file (the figures this comparison was built
        on) until it is calibrated against a real store under compaction; the engine can run it open."""
        if self.wal.rates or self.wal.format != "raw" or self.wal.commit_ms:
            object.__setattr__(self, "wal", replace(self.wal, rates=(), capacity=True, format="raw",
                                                     commit_ms=0.0))

    def to_json(self) -> dict[str, object]:
        """The `params` object: both parts."""
        return {"wal": self.wal.to_json(), "compaction": self.compaction.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> InterferenceParams:
        """Inverse of `to_json`."""
        return cls(WalParams.from_json(data["wal"]),  # type: ignore[arg-type]
                   CompactionParams.from_json(data["compaction"]))  # type: ignore[arg-type]

    @property
    def scratch_bytes(self) -> int:
        """The WAL file plus the compaction jobs' inputs and outputs."""
        return self.wal.scratch_bytes + self.compaction.scratch_bytes

    def validate(self) -> None:
        """Both parts must be usable."""
        self.wal.validate()
        self.compaction.validate()


@dataclass
class InterferenceResult:
    """The WAL alone and under compaction (each a full WAL result), and what the compaction did meanwhile."""

    alone: WalResult
    under_compaction: WalResult
    compaction_jobs: int
    compaction_bytes_read: int
    compaction_bytes_written: int
    compaction_seconds: float
    host: HostLoad | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def p99_ratio(self) -> float | None:
        """p99 of the durable call under compaction / alone (None without samples)."""
        alone, under = self.alone.sync.percentile(99.0), self.under_compaction.sync.percentile(99.0)
        return under / alone if alone and under is not None else None

    def compaction_mb_s(self) -> tuple[float, float]:
        """(read, write) MB/s of the compaction while the WAL ran beside it."""
        seconds = self.compaction_seconds or 1e-9
        return self.compaction_bytes_read / seconds / 1e6, self.compaction_bytes_written / seconds / 1e6

    def to_json(self) -> dict[str, object]:
        """`alone`, `under_compaction` and `p99_ratio`, plus the compaction's own figures."""
        read, write = self.compaction_mb_s()
        ratio = self.p99_ratio
        return {"alone": self.alone.to_json(), "under_compaction": self.under_compaction.to_json(),
                "p99_ratio": None if ratio is None else round(ratio, 3),
                "compaction": {"jobs": self.compaction_jobs, "bytes_read": self.compaction_bytes_read,
                               "bytes_written": self.compaction_bytes_written,
                               "seconds": self.compaction_seconds, "read_mb_s": round(read, 2),
                               "write_mb_s": round(write, 2)},
                "host": self.host.to_json() if self.host else None, "notes": self.notes}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> InterferenceResult:
        """Rebuild the typed result from `to_json`."""
        compaction = data["compaction"]
        assert isinstance(compaction, dict)
        host = data.get("host")
        return cls(WalResult.from_json(data["alone"]), WalResult.from_json(data["under_compaction"]),  # type: ignore[arg-type]
                   int(compaction["jobs"]), int(compaction["bytes_read"]), int(compaction["bytes_written"]),
                   float(compaction["seconds"]), HostLoad.from_json(host) if isinstance(host, dict) else None,
                   list(data.get("notes") or []))  # type: ignore[call-overload]


class Relay:
    """Runs one WAL job to its end, re-emitting its intervals as this run's, with the compaction's beside."""

    def __init__(self, group: SubJobs, ctx: EngineContext, phase: str, compaction: list[SubJob]) -> None:
        self.group, self.ctx, self.phase, self.compaction = group, ctx, phase, compaction
        self.merger = IntervalMerger()
        self.bytes_read = self.bytes_written = 0
        self.last = self.started = time.monotonic()

    def run(self, params: WalParams) -> WalResult:
        """Start the WAL job and relay until it finishes; a failed job (WAL or compaction) raises."""
        config = EngineConfig("wal", self.ctx.config.directory, params, self.ctx.config.layers,
                              self.ctx.config.interval_s, job="wal")
        wal = self.group.start(config, WalResult)
        while True:
            for job, event in self.group.poll(1.0):
                if isinstance(event, Failed):
                    raise TargetError(event.message)
                if job is wal and isinstance(event, Finished):
                    return event.result  # type: ignore[no-any-return]
                if isinstance(event, Interval) and job is wal:
                    emit(replace(event, phase=self.phase, job=""))
                    self._relay_compaction()
                elif isinstance(event, Interval):
                    self.merger.add(event)
            self.ctx.watch.check()

    def _relay_compaction(self) -> None:
        if not self.compaction:
            return
        streams, read, written = self.merger.take()
        now = time.monotonic()
        self.bytes_read += read
        self.bytes_written += written
        emit(Interval(self.phase, now - self.started, sum(self.merger.ops.values()), 0.0, streams, read,
                      written, now - self.last, [], "compaction"))
        self.last = now


def run(params: InterferenceParams, ctx: EngineContext) -> InterferenceResult:
    """WAL alone; lay out the compaction inputs; start compaction; WAL again beside it; stop compaction."""
    compaction = replace(params.compaction, duration_s=UNTIL_STOPPED_S)
    with SubJobs() as group:
        ctx.phase("alone", "the WAL alone")
        alone = Relay(group, ctx, "alone", []).run(params.wal)
        one = compaction.jobs == 1
        counted = f"{compaction.jobs} compaction job{'' if one else 's'}"
        ctx.phase("prepare", f"{counted} writing {'its' if one else 'their'} inputs")
        jobs = start_compaction_jobs(group, compaction, ctx)
        wait_ready(jobs, group)
        for job in jobs:
            job.go()
        _wait_running(group, jobs)
        ctx.phase("under_compaction", f"the WAL beside {counted}")
        relay = Relay(group, ctx, "under_compaction", jobs)
        under = relay.run(params.wal)
        seconds = time.monotonic() - relay.started
        relay._relay_compaction()
        emit(PhaseChanged("cleanup", "stopping the compaction jobs"))
    return InterferenceResult(alone, under, compaction.jobs, relay.bytes_read, relay.bytes_written,
                              round(seconds, 4))


def _wait_running(group: SubJobs, jobs: list[SubJob]) -> None:
    """Block until every compaction job has left its barrier and is compacting."""
    while any(job.phase != "run" for job in jobs):
        for _job, event in group.poll(0.5, jobs):
            if isinstance(event, Failed):
                raise TargetError(event.message)
