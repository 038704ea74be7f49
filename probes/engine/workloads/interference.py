"""The WAL under compaction: the WAL workload alone, then again while a store compacts beside it.

The store is real RocksDB (the `rocksdb` workload: puts, flushes and compactions by RocksDB's own threads)
where rocksdict loads, else the compaction model's jobs (labelled as the model). Every part is its own
engine process; this coordinator only relays their events, tagged with the phase ("alone",
"under_compaction"), so the WAL's timing is exactly that of `bench wal` and the foreground p99 can be
compared with and without the store beside it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ...host_load import HostLoad
from ...wal_params import PROFILES, ParamError, WalParams
from ...wal_target import TargetError
from ..protocol import Failed, Finished, Interval, PhaseChanged
from ..runtime import EngineConfig, emit
from ..subjobs import SubJob, SubJobs, wait_ready
from .compaction import MIB, CompactionParams
from .parallel import IntervalMerger, start_compaction_jobs
from .rocksdb_store import StoreParams, StoreResult
from .wal import WalResult

if TYPE_CHECKING:
    from ..runtime import EngineContext

UNTIL_STOPPED_S = 86400.0
"""Compaction beside the WAL keeps going (pass after pass) until the WAL is done, then it is stopped."""
DEFAULT_COMPACTION = CompactionParams(inputs=4, file_size=32 * MIB, jobs=2)
PHASE_S = 20.0
"""Each WAL run (alone, under compaction) lasts 20 s over etcd's 22 MiB file: under a compaction burst a
slow disk may manage only tens of fdatasyncs a second, so a size-bound run could take minutes."""
INTERFERENCE_RATE = 500.0
"""The WAL's load beside the store unless a rate is given: the heavier of etcd's two calibrated loads
(sequential writes at 500/s), open loop, each write's latency from when it was due."""
MIN_PHASE_S = 0.1
"""The shortest phase a small --size makes."""
DEFAULT_WAL = replace(PROFILES["etcd"], rates=(INTERFERENCE_RATE,), capacity=False, level_s=PHASE_S,
                      duration_s=PHASE_S)
"""Two background jobs (RocksDB's default), 4 × 32 MiB inputs each: 512 MiB of scratch at the peak."""
AGGRESSORS = ("rocksdb", "model")
"""rocksdb: real RocksDB beside the WAL (calibrated against db_bench); model: the compaction model's jobs."""
STORE_STOP_S = 10.0
"""After the WAL: how long the store may take to send its result before it is stopped."""


@dataclass(frozen=True)
class InterferenceParams:
    """The foreground WAL run and the compaction beside it."""

    wal: WalParams = DEFAULT_WAL
    compaction: CompactionParams = DEFAULT_COMPACTION
    store: StoreParams = field(default_factory=StoreParams)
    aggressor: str = "model"
    """What runs beside the WAL (AGGRESSORS); the CLI and the TUI choose real RocksDB."""

    def __post_init__(self) -> None:
        """The WAL runs open loop at its rates, each level as long as a phase, with no capacity run (the
        question is the load beside a store, not the disk's ceiling); a run saved before the open loop
        came here has no rates and stays the closed loop over one plain file that made it."""
        if self.wal.rates:  # a size-bound phase lasts as long as its writes take at the highest rate
            writes = self.wal.size // self.wal.bs
            phase = self.wal.duration_s or max(MIN_PHASE_S, writes / max(self.wal.rates))
            if self.wal.capacity or self.wal.level_s != phase:
                object.__setattr__(self, "wal", replace(self.wal, capacity=False, level_s=phase))
        elif self.wal.format != "raw" or self.wal.commit_ms or not self.wal.capacity:
            object.__setattr__(self, "wal", replace(self.wal, capacity=True, format="raw", commit_ms=0.0))

    def to_json(self) -> dict[str, object]:
        """The `params` object: both parts."""
        return {"wal": self.wal.to_json(), "compaction": self.compaction.to_json(),
                "store": self.store.to_json(), "aggressor": self.aggressor}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> InterferenceParams:
        """Inverse of `to_json`; a run saved before the real store existed was made by the model."""
        store = data.get("store")
        return cls(WalParams.from_json(data["wal"]),  # type: ignore[arg-type]
                   CompactionParams.from_json(data["compaction"]),  # type: ignore[arg-type]
                   StoreParams.from_json(store) if isinstance(store, dict) else StoreParams(),
                   str(data.get("aggressor") or "model"))

    @property
    def scratch_bytes(self) -> int:
        """The WAL file plus the store's files (or the compaction jobs' inputs and outputs)."""
        if self.aggressor == "rocksdb":  # filled up to its first compaction, then put while the WAL runs
            beside = self.store.bytes_after(self.wal.duration_s or PHASE_S)
        else:
            beside = self.compaction.scratch_bytes
        return self.wal.scratch_bytes + beside

    def validate(self) -> None:
        """Every part must be usable."""
        if self.aggressor not in AGGRESSORS:
            raise ParamError(f"aggressor {self.aggressor!r} is not one of {', '.join(AGGRESSORS)}")
        self.wal.validate()
        self.compaction.validate()
        self.store.validate()


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
    aggressor: str = "model"
    rocksdb: StoreResult | None = None
    """What real RocksDB did over the run (its statistics, version and options), when it was the store."""

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
                               "write_mb_s": round(write, 2), "aggressor": self.aggressor,
                               "rocksdb": self.rocksdb.to_json() if self.rocksdb else None},
                "host": self.host.to_json() if self.host else None, "notes": self.notes}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> InterferenceResult:
        """Rebuild the typed result from `to_json`."""
        compaction = data["compaction"]
        assert isinstance(compaction, dict)
        host, store = data.get("host"), compaction.get("rocksdb")
        return cls(WalResult.from_json(data["alone"]), WalResult.from_json(data["under_compaction"]),  # type: ignore[arg-type]
                   int(compaction["jobs"]), int(compaction["bytes_read"]), int(compaction["bytes_written"]),
                   float(compaction["seconds"]), HostLoad.from_json(host) if isinstance(host, dict) else None,
                   list(data.get("notes") or []), str(compaction.get("aggressor") or "model"),  # type: ignore[call-overload]
                   StoreResult.from_json(store) if isinstance(store, dict) else None)


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
    """WAL alone; then the store (real RocksDB, or the model's compaction jobs) and the WAL beside it."""
    if params.aggressor == "rocksdb":
        return _run_beside_rocksdb(params, ctx)
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


def _run_beside_rocksdb(params: InterferenceParams, ctx: EngineContext) -> InterferenceResult:
    """WAL alone; real RocksDB fills up to its first compaction; the WAL again while it puts and compacts;
    then the store is asked for its statistics and stopped."""
    jobs = params.store.background_jobs
    with SubJobs() as group:
        ctx.phase("alone", "the WAL alone")
        alone = Relay(group, ctx, "alone", []).run(params.wal)
        ctx.phase("prepare", "real RocksDB filling up to its first compaction")
        store = group.start(EngineConfig("rocksdb", ctx.config.directory,
                                         replace(params.store, ready_barrier=True, duration_s=None), [],
                                         ctx.config.interval_s, job="compaction.rocksdb"), StoreResult)
        wait_ready(store, group)
        store.go()
        _wait_running(group, [store])
        ctx.phase("under_compaction", "the WAL beside real RocksDB")
        relay = Relay(group, ctx, "under_compaction", [store])
        under = relay.run(params.wal)
        seconds = time.monotonic() - relay.started
        relay._relay_compaction()  # what RocksDB did while the WAL ran, not after
        emit(PhaseChanged("cleanup", "stopping RocksDB"))
        store.go()  # a second line: finish and send the statistics
        result = _store_result(group, store)
    found = result.options.get("max_background_jobs") if result else jobs
    return InterferenceResult(alone, under, int(found) if isinstance(found, int) else (jobs or 2),
                              relay.bytes_read, relay.bytes_written, round(seconds, 4), aggressor="rocksdb",
                              rocksdb=result)


def _store_result(group: SubJobs, store: SubJob) -> StoreResult | None:
    """The store's final statistics (None if it does not answer within STORE_STOP_S)."""
    deadline = time.monotonic() + STORE_STOP_S
    while time.monotonic() < deadline:
        for _job, event in group.poll(0.5, [store]):
            if isinstance(event, Finished):
                return event.result  # type: ignore[no-any-return]
            if isinstance(event, Failed):
                return None
        if not store.open:
            return None
    return None


def _wait_running(group: SubJobs, jobs: list[SubJob]) -> None:
    """Block until every compaction job has left its barrier and is compacting."""
    while any(job.phase != "run" for job in jobs):
        for _job, event in group.poll(0.5, jobs):
            if isinstance(event, Failed):
                raise TargetError(event.message)
