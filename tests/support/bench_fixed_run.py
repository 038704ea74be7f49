"""A fixed WAL run (no timing involved) for Pilot and snapshot tests of the Benchmark screen."""

from __future__ import annotations

from dataclasses import replace

import pytest
from conftest import fixture_host, fixture_root
from diskdoctor.app.tui.bench.screen import BenchScreen
from diskdoctor.probes import host, trim_facts
from diskdoctor.probes.diskstats import DiskDelta
from diskdoctor.probes.engine.protocol import Interval
from diskdoctor.probes.engine.workloads.wal import WalResult
from diskdoctor.probes.latency_histogram import LatencyHistogram
from diskdoctor.probes.wal_params import PROFILES
from diskdoctor.probes.wal_target import Target

PARAMS = PROFILES["etcd"]
TARGET = Target("/var/lib/etcd", "/var/lib/etcd", "ext4", "dm-2", ("dm-2", "dm-1", "md0", "nvme0n1p1"))
INTERVALS = 4
PER_INTERVAL = 2500


def _histogram(samples: list[int]) -> LatencyHistogram:
    histogram = LatencyHistogram()
    for value in samples:
        histogram.record(value)
    return histogram


def _sync_samples(interval: int) -> list[int]:
    """Mostly 0.3-0.9 ms, a slow tail that grows in the third interval."""
    slow = 40 if interval == 2 else 8
    fast = [300_000 + (i * 7919) % 600_000 for i in range(PER_INTERVAL - slow)]
    return fast + [2_000_000 + i * 150_000 * (interval + 1) for i in range(slow)]


def _layer(kname: str, writes: int, flushes: int, write_ms: float, flush_ms: float,
           written: int, seconds: float = 0.5) -> DiskDelta:
    """A layer's delta over `seconds` (half a second: one interval) with these average times."""
    return DiskDelta(kname, seconds, 0, writes, 0, written, 0, round(writes * write_ms), round(seconds * 800),
                     1,
                     flushes=flushes, flush_ms=round(flushes * flush_ms))


def fixed_snapshots() -> list[Interval]:
    """Four half-second intervals of 2,500 writes each, with per-layer deltas."""
    snapshots = []
    for interval in range(INTERVALS):
        layers = [_layer("dm-2", 2510, 2500, 0.05, 0.48 + interval * 0.1, 5_800_000),
                  _layer("dm-1", 2510, 2500, 0.05, 0.46 + interval * 0.1, 5_800_000),
                  _layer("md0", 2510, 2500, 0.04, 0.44 + interval * 0.1, 5_800_000),
                  _layer("nvme0n1p1", 1260, 1250, 0.03, 0.41 + interval * 0.1, 2_900_000)]
        snapshots.append(Interval(
            "run", t=0.5 * (interval + 1), ops=PER_INTERVAL * (interval + 1),
            progress=PER_INTERVAL * (interval + 1) / 10_029,
            streams={"sync": _histogram(_sync_samples(interval)),
                     "write": _histogram([4_000 + i % 3_000 for i in range(PER_INTERVAL)])},
            seconds=0.5, layers=layers))
    return snapshots


def fixed_result() -> WalResult:
    """The whole run: the intervals merged, plus 29 writes of a last short interval."""
    sync, write = LatencyHistogram(), LatencyHistogram()
    for snapshot in fixed_snapshots():
        sync.merge(snapshot.stream("sync"))
        write.merge(snapshot.stream("write"))
    sync.merge(_histogram([400_000] * 29))
    write.merge(_histogram([5_000] * 29))
    return WalResult(samples=10_029, duration_s=2.03, ops_per_s=4940.39, sync=sync, write=write,
                     layers=whole_run_layers())


def whole_run_layers() -> list[DiskDelta]:
    """The run's per-layer totals, as the engine reports them at the end (not the last interval's)."""
    return [_layer("dm-2", 10_060, 10_030, 0.05, 0.63, 23_300_000, 2.03),
            _layer("dm-1", 10_060, 10_030, 0.05, 0.61, 23_300_000, 2.03),
            _layer("md0", 10_060, 10_030, 0.04, 0.59, 23_300_000, 2.03),
            _layer("nvme0n1p1", 5_040, 5_015, 0.03, 0.56, 11_650_000, 2.03)]


@pytest.fixture
def long_name_mounts(monkeypatch: pytest.MonkeyPatch) -> str:
    """Like fixture_mounts, on the long-names host; gives its longest mountpoint."""
    fixture = "long-names"
    monkeypatch.setattr(host, "read_host", lambda root, **_: fixture_host(fixture))
    real_facts = trim_facts.read_trim_facts
    monkeypatch.setattr(trim_facts, "read_trim_facts",
                        lambda root, read: real_facts(fixture_root(fixture), read))
    return max((m.mount.mountpoint for m in fixture_host(fixture).mounts), key=len)


@pytest.fixture
def fixture_mounts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The app's snapshot (and so the filesystem list) comes from a fixture host, so nothing of this
    machine shows, while the root stays live so the benchmark form is enabled."""
    fixture = "etcd-raid0-lvm-luks"
    monkeypatch.setattr(host, "read_host", lambda root, **_: fixture_host(fixture))
    real_facts = trim_facts.read_trim_facts
    monkeypatch.setattr(trim_facts, "read_trim_facts",
                        lambda root, read: real_facts(fixture_root(fixture), read))


def feed_fixed_run(screen: BenchScreen, directory: str | None = None) -> None:
    """Post what a run streams, without a run: the screen draws only what it is given."""
    target = TARGET if directory is None else replace(TARGET, directory=directory, mountpoint=directory)
    screen.live.reset(screen.kind, PARAMS)  # as Start does: the chart and figures name the run alike
    screen.post_message(BenchScreen.RunStarted(target, PARAMS))
    for snapshot in fixed_snapshots():
        screen.post_message(BenchScreen.IntervalReady(snapshot))
    screen.post_message(BenchScreen.RunEnded(fixed_result()))
