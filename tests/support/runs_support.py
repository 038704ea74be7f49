"""Saved runs with chosen latencies, for comparison, store and report tests (no timing involved)."""

from __future__ import annotations

import datetime as dt

from diskdoctor.app.core.bench.record import BenchRecord
from diskdoctor.app.core.runs.host_fingerprint import HostFingerprint
from diskdoctor.app.core.runs.record import SavedRun, new_run_id
from diskdoctor.app.core.runs.stack_fingerprint import StackFingerprint, StackLayer
from diskdoctor.probes.engine.workloads.wal import WalResult
from diskdoctor.probes.latency_histogram import LatencyHistogram
from diskdoctor.probes.wal_params import PROFILES, WalParams
from diskdoctor.probes.wal_target import Target

HOST = HostFingerprint("etcd-2", "6.1.0-26-amd64", "Debian GNU/Linux 12 (bookworm)", "0.1.0", "live")
TARGET = Target("/var/lib/etcd", "/var/lib/etcd", "ext4", "dm-2", ("dm-2", "md0", "nvme0n1p1"))
STACK = StackFingerprint(TARGET, ("rw", "relatime"), (
    StackLayer("dm-2", "luks-etcd", "crypt", None, False, "none"),
    StackLayer("md0", "md0", "raid0", None, False, None),
    StackLayer("nvme0n1p1", "nvme0n1p1", "part", "SAMSUNG MZQL21T9HCJR-00A07", False, "none")))


def histogram(fast_ns: int, slow_ns: int, samples: int = 1000, slow_every: int = 50) -> LatencyHistogram:
    """`samples` values at `fast_ns`, every `slow_every`-th one at `slow_ns` instead (2% tail by default)."""
    result = LatencyHistogram()
    for index in range(samples):
        result.record(slow_ns if index % slow_every == slow_every - 1 else fast_ns)
    return result


def sectioned(whole: LatencyHistogram, parts: int = 10) -> list[list[LatencyHistogram]]:
    """One run's sections: `whole` cut into `parts` equal parts (every part holds the same values)."""
    counts = {index: count // parts for index, count in whole.counts.items() if count >= parts}
    section = LatencyHistogram(counts,
                               whole.count // parts, whole.minimum, whole.maximum, whole.total / parts,
                               whole.total_squares / parts)
    return [[section for _ in range(parts)]]


def wal_result(fast_ms: float = 0.4, slow_ms: float = 2.0, ops_per_s: float = 2000.0) -> WalResult:
    """A run whose p50 is `fast_ms` and whose p99 is `slow_ms` (the slowest 2%)."""
    sync = histogram(int(fast_ms * 1e6), int(slow_ms * 1e6))
    write = histogram(5_000, 20_000)
    return WalResult(1000, 1000 / ops_per_s, ops_per_s, sync, write, [])


def saved_run(day: int = 20, *, fast_ms: float = 0.4, slow_ms: float = 2.0, ops_per_s: float = 2000.0,
              params: WalParams = PROFILES["etcd"], stack: StackFingerprint = STACK,
              host: HostFingerprint = HOST, result: WalResult | None = None, old: bool = False) -> SavedRun:
    """A WAL run saved on 2026-11-`day` at 14:30 UTC, judged against etcd's 10 ms; with its sections (each
    the same as the whole run), or, `old`, as saved before runs kept sections."""
    saved_at = dt.datetime(2026, 11, day, 14, 30, tzinfo=dt.timezone.utc)
    result = result or wal_result(fast_ms, slow_ms, ops_per_s)
    sections = None if old or result.levels else {"run/sync": sectioned(result.sync)}
    record = BenchRecord("wal", params, stack.target, result, 10.0, sections=sections)
    return SavedRun(new_run_id("wal", saved_at), "wal", saved_at, host, stack, record)


def kind_run(kind: str, params: object, day: int = 20, *, slow_ms: float = 2.0,
             write_mb_s: float = 200.0, threshold: float | None = None) -> SavedRun:
    """A saved randwrite, compaction or interference run with chosen figures (no engine involved)."""
    from diskdoctor.probes.engine.workloads.compaction import CompactionResult
    from diskdoctor.probes.engine.workloads.interference import InterferenceResult
    from diskdoctor.probes.engine.workloads.randwrite import RandwriteResult

    sync, write = histogram(400_000, int(slow_ms * 1e6)), histogram(5_000, int(slow_ms * 1e6))
    if kind == "randwrite":
        result: object = RandwriteResult(1000, 1.0, 1000.0, write, sync, True)
    elif kind == "compaction":
        seconds = 1.0
        result = CompactionResult(seconds, int(write_mb_s * 1e6), int(write_mb_s * 1e6), 4, 0.5, 0.5, 0.0,
                                  {"read": write, "write": write, "file_sync": sync})
    else:
        result = InterferenceResult(wal_result(0.4, 1.0), wal_result(0.4, slow_ms), 1, 1 << 20, 1 << 20, 1.0)
    saved_at = dt.datetime(2026, 11, day, 14, 30, tzinfo=dt.timezone.utc)
    key = {"randwrite": "run/sync", "interference": "under_compaction/sync"}.get(kind)
    record = BenchRecord(kind, params, STACK.target, result, threshold,
                         sections={key: sectioned(sync)} if key else None)
    return SavedRun(new_run_id(kind, saved_at), kind, saved_at, HOST, STACK, record)
