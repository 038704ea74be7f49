"""The WAL engine child: results on tmpfs and on a real loop-device ext4, and cleanup in every ending."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from diskdoctor.probes.wal_engine import EngineConfig
from diskdoctor.probes.wal_params import WalParams
from diskdoctor.probes.wal_run import IntervalSnapshot, RunFailed, WalResult, WalRun
from diskdoctor.probes.wal_target import describe_target, leftover_scratch
from wal_support import fill, loop_ext4, tmpfs_dir

__all__ = ["tmpfs_dir"]
KIB = 1 << 10


def params(**changes: object) -> WalParams:
    base = {"profile": "custom", "bs": 4096, "size": 256 * KIB, "sync": "fdatasync"}
    return WalParams(**{**base, **changes})  # type: ignore[arg-type]


def run_to_end(config: EngineConfig) -> tuple[list[IntervalSnapshot], WalResult | RunFailed]:
    run = WalRun(config)
    events = list(run.events())
    return events[:-1], events[-1]  # type: ignore[return-value]


@pytest.fixture(scope="module")
def ext4_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from loop_ext4(tmp_path_factory.mktemp("wal-ext4"), "wal", 48)


@pytest.mark.parametrize("sync", ["fdatasync", "fsync", "dsync", "direct-fdatasync"])
def test_engine_on_tmpfs(tmpfs_dir: str, sync: str) -> None:
    snapshots, result = run_to_end(EngineConfig(tmpfs_dir, params(sync=sync), interval_s=0.01))
    assert isinstance(result, WalResult), result
    assert result.samples == 64 == result.sync.count == result.write.count
    assert sum(s.sync.count for s in snapshots) == 64 and snapshots[-1].progress == 1
    assert result.ops_per_s and result.ops_per_s > 100
    assert os.listdir(tmpfs_dir) == []


def test_engine_duration_run_wraps_inside_its_file(tmpfs_dir: str) -> None:
    _, result = run_to_end(EngineConfig(tmpfs_dir, params(size=64 * KIB, duration_s=0.3)))
    assert isinstance(result, WalResult) and 0.3 <= result.duration_s < 1
    assert result.samples > 16 and os.listdir(tmpfs_dir) == []


def test_latency_log_has_one_line_per_write(tmpfs_dir: str, tmp_path: Path) -> None:
    log = tmp_path / "lat.csv"
    _, result = run_to_end(EngineConfig(tmpfs_dir, params(), latency_log=str(log)))
    assert isinstance(result, WalResult)
    lines = log.read_text().splitlines()
    assert lines[0] == "time_ms,write_ns,sync_ns" and len(lines) == 65
    _, again = run_to_end(EngineConfig(tmpfs_dir, params(), latency_log=str(log)))
    assert isinstance(again, RunFailed) and "already exists" in again.message


@pytest.mark.live
def test_engine_on_loop_ext4_sees_the_loop_layer(ext4_dir: str) -> None:
    target = describe_target(ext4_dir, 512 * KIB)
    assert target.fstype == "ext4" and target.device and target.device.startswith("loop")
    _, result = run_to_end(EngineConfig(ext4_dir, params(bs=2300, size=512 * KIB), list(target.layers)))
    assert isinstance(result, WalResult), result
    assert result.samples == 512 * KIB // 2300
    p50, p99 = result.sync.percentile(50), result.sync.percentile(99)
    assert p50 and p99 and 1_000 < p50 <= p99  # a real flush takes more than a microsecond
    loop = next(layer for layer in result.layers if layer.kname == target.device)
    assert loop.writes >= result.samples / 2 and (loop.flushes or 0) >= result.samples / 2
    assert leftover_scratch(ext4_dir) == []


@pytest.mark.live
def test_enospc_mid_run_is_one_line_and_leaves_nothing(tmp_path: Path) -> None:
    for mountpoint in loop_ext4(tmp_path, "tiny", 16):
        appending = params(size=8 << 20, duration_s=30, prealloc=False)
        config = EngineConfig(mountpoint, appending, interval_s=0.01)
        run = WalRun(config)
        events = run.events()
        assert isinstance(next(events), IntervalSnapshot)
        fill(mountpoint)
        final = [e for e in events if not isinstance(e, IntervalSnapshot)][-1]
        assert isinstance(final, RunFailed) and final.message == "no space left on the device"
        assert leftover_scratch(mountpoint) == []


def test_cancel_removes_scratch(tmpfs_dir: str) -> None:
    run = WalRun(EngineConfig(tmpfs_dir, params(duration_s=30), interval_s=0.05))
    events = run.events()
    assert isinstance(next(events), IntervalSnapshot) and leftover_scratch(tmpfs_dir)
    run.cancel()
    final = [e for e in events if not isinstance(e, IntervalSnapshot)][-1]
    assert isinstance(final, RunFailed) and final.cancelled and "SIGTERM" in final.message
    assert os.listdir(tmpfs_dir) == []


def test_killed_engine_is_cleaned_up_by_the_parent(tmpfs_dir: str) -> None:
    run = WalRun(EngineConfig(tmpfs_dir, params(duration_s=30), interval_s=0.05))
    events = run.events()
    next(events)
    os.kill(run.process.pid, signal.SIGKILL)
    final = list(events)[-1]
    assert isinstance(final, RunFailed) and "stopped unexpectedly" in final.message
    assert os.listdir(tmpfs_dir) == []


PARENT = """
import sys, time
from diskdoctor.probes.wal_engine import EngineConfig
from diskdoctor.probes.wal_params import WalParams
from diskdoctor.probes.wal_run import WalRun
run = WalRun(EngineConfig(sys.argv[1], WalParams(profile="custom", bs=4096, size=1 << 20, duration_s=60)))
for event in run.events():
    print(run.process.pid, flush=True)
    time.sleep(600)
"""


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_engine_cleans_up_when_its_parent_dies(tmpfs_dir: str, how: signal.Signals) -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT, tmpfs_dir], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    engine_pid = int(parent.stdout.readline())
    assert leftover_scratch(tmpfs_dir)
    parent.send_signal(how)
    parent.wait()
    deadline = time.monotonic() + 10
    while not _gone(engine_pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _gone(engine_pid)
    assert os.listdir(tmpfs_dir) == []
