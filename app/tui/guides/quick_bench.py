"""Short benchmarks for a first verdict inside a walkthrough: the same engine, runner, record and saved
runs as `diskdoctor bench`, with smaller sizes that say so."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from diskdoctor.app.core.bench.kinds import kind_of_params
from diskdoctor.app.core.bench.record import BenchRecord
from diskdoctor.app.core.runs.record import SavedRun
from diskdoctor.app.core.runs.store import save_run
from diskdoctor.probes.engine.protocol import Failed, Finished, Interval, PhaseChanged
from diskdoctor.probes.engine.runner import EngineRun
from diskdoctor.probes.engine.runtime import EngineConfig
from diskdoctor.probes.engine.workloads.compaction import CompactionParams
from diskdoctor.probes.engine.workloads.interference import (
    DEFAULT_COMPACTION,
    INTERFERENCE_RATE,
    InterferenceParams,
)
from diskdoctor.probes.engine.workloads.rocksdb_store import StoreParams, rocksdb_available
from diskdoctor.probes.wal_params import PROFILES, WalParams
from diskdoctor.probes.wal_target import TargetError, describe_target

MIB = 1 << 20


@dataclass(frozen=True)
class QuickSizes:
    """How much the walkthroughs' benchmarks write: enough for a first verdict, not a final one."""

    wal_bytes: int = 8 * MIB
    """etcd's own check writes 22 MiB; 8 MiB is ~3,600 fdatasyncs, enough for a stable p99."""
    phase_s: float = 8.0
    """Each phase of the WAL-under-compaction run (the full benchmark runs 20 s each)."""
    compaction_file: int = 16 * MIB
    compaction_jobs: int = 2
    monitor_ticks: int = 5
    """One-second readings the slow-node walkthrough takes before it names the busiest device."""

    def wal(self) -> WalParams:
        """The etcd WAL profile, shortened: each load (50 and 500 writes/s) runs `phase_s` seconds."""
        return replace(PROFILES["etcd"], size=self.wal_bytes, level_s=self.phase_s,
                       segment_bytes=max(self.wal_bytes, 1 << 20))  # fits a small filesystem

    store_memtable: int = 2 * MIB
    store_level_base: int = 8 * MIB
    """Real RocksDB with small memtables and levels, so it flushes and compacts within seconds and fits a
    small filesystem (the full benchmark runs RocksDB's defaults)."""

    def interference(self) -> InterferenceParams:
        """The etcd WAL at 500 writes/s alone, then beside real RocksDB putting, flushing and compacting
        (the compaction model where RocksDB cannot load), each phase `phase_s` seconds."""
        wal = replace(PROFILES["etcd"], size=self.wal_bytes, duration_s=self.phase_s,
                      rates=(INTERFERENCE_RATE,), segment_bytes=max(self.wal_bytes, 1 << 20))
        store = StoreParams(background_jobs=self.compaction_jobs, write_buffer_size=self.store_memtable,
                            target_file_size_base=self.store_memtable,
                            max_bytes_for_level_base=self.store_level_base)
        return InterferenceParams(wal, replace(DEFAULT_COMPACTION, file_size=self.compaction_file,
                                               jobs=self.compaction_jobs), store,
                                  "rocksdb" if rocksdb_available() else "model")

    def compaction(self) -> CompactionParams:
        """One compaction pass over small inputs."""
        return CompactionParams(file_size=self.compaction_file, jobs=1)

    def wal_note(self) -> str:
        """What the short WAL run is, in words."""
        return (f"a short run: {self.phase_s:g} s at 50 and at 500 writes/s into etcd's WAL, then "
                f"{size_text(self.wal_bytes)} back to back as the disk's capacity (the full benchmark runs "
                "20 s per load and etcd's own fio check writes 22 MiB; run it from screen 3 for a final "
                "verdict)")

    def interference_note(self) -> str:
        """What the short interference run is, in words."""
        beside = (f"real RocksDB with small memtables ({size_text(self.store_memtable)}) flushing and "
                  "compacting with" if rocksdb_available() else "the compaction model's")
        return (f"a short run: {self.phase_s:g} s of etcd WAL writes at {INTERFERENCE_RATE:,.0f}/s alone, "
                f"then {self.phase_s:g} s beside {beside} {self.compaction_jobs} background jobs (the full "
                "benchmark runs 20 s each with RocksDB's default sizes)")


def size_text(count: int) -> str:
    """e.g. "8 MiB", "256 KiB"."""
    return f"{count / MIB:g} MiB" if count >= MIB else f"{count / 1024:g} KiB"


@dataclass(frozen=True)
class QuickResult:
    """A finished short run: its record (verdict, JSON) and where it was saved."""

    record: BenchRecord
    saved: SavedRun | None
    saved_note: str


def run_quick(params: object, directory: str, say: Callable[[str], None],
              threshold_ms: float | None = None) -> QuickResult:
    """Run one benchmark in the engine child, reporting progress through `say`; TargetError when the
    directory cannot be benchmarked or the run failed (the message is one line)."""
    kind = kind_of_params(params).name
    target = describe_target(directory, params.scratch_bytes)  # type: ignore[attr-defined]
    run = EngineRun(EngineConfig(kind, target.directory, params, list(target.layers)))

    def forward(event: object) -> None:
        if isinstance(event, Interval) and not event.job:
            phase = f"{event.phase.replace('_', ' ')} " if event.phase else ""
            say(f"{kind}: {phase}{event.progress:.0%}")
        elif isinstance(event, PhaseChanged) and not event.job and event.detail:
            say(f"{kind}: {event.detail}…")

    final = run.wait(forward)
    if isinstance(final, Failed) or not isinstance(final, Finished):
        raise TargetError(getattr(final, "message", "the benchmark ended without a result"))
    record = BenchRecord.of_run(kind, params, target, final.result, threshold_ms, sections=final.sections)
    saved, message = save_run(record)
    return QuickResult(record, saved, message)
