"""The engine child for every workload: results on tmpfs and on real loop-device ext4, and cleanup in every
ending (cancel, ENOSPC, SIGKILL of the engine, death of its parent)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from diskdoctor.probes.engine.protocol import Event, Failed, Finished, Interval
from diskdoctor.probes.engine.runner import EngineRun
from diskdoctor.probes.engine.runtime import EngineConfig
from diskdoctor.probes.engine.workloads.compaction import CompactionParams, CompactionResult
from diskdoctor.probes.engine.workloads.interference import InterferenceParams, InterferenceResult
from diskdoctor.probes.engine.workloads.randwrite import RandwriteParams, RandwriteResult
from diskdoctor.probes.engine.workloads.wal import WalResult
from diskdoctor.probes.wal_params import WalParams
from diskdoctor.probes.wal_target import describe_target, leftover_scratch
from support.wal_support import fill, loop_ext4, tmpfs_dir

__all__ = ["tmpfs_dir"]
KIB, MIB = 1 << 10, 1 << 20


def params(**changes: object) -> WalParams:
    base = {"profile": "custom", "bs": 4096, "size": 256 * KIB, "sync": "fdatasync"}
    return WalParams(**{**base, **changes})  # type: ignore[arg-type]


def wal_config(directory: str, wal: WalParams, layers: list[str] | None = None,
               **options: object) -> EngineConfig:
    return EngineConfig("wal", directory, wal, layers or [], **options)  # type: ignore[arg-type]


def run_to_end(config: EngineConfig) -> tuple[list[Interval], object]:
    """Every interval of the run itself, and its result (or the Failed event)."""
    intervals: list[Interval] = []
    final = EngineRun(config).wait(
        lambda e: intervals.append(e) if isinstance(e, Interval) and not e.job else None)
    return intervals, final.result if isinstance(final, Finished) else final


@pytest.fixture(scope="module")
def ext4_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from loop_ext4(tmp_path_factory.mktemp("engine-ext4"), "engine", 96)


@pytest.mark.parametrize("sync", ["fdatasync", "fsync", "dsync", "direct-fdatasync"])
def test_engine_on_tmpfs(tmpfs_dir: str, sync: str) -> None:
    snapshots, result = run_to_end(wal_config(tmpfs_dir, params(sync=sync), interval_s=0.01))
    assert isinstance(result, WalResult), result
    assert result.samples == 64 == result.sync.count == result.write.count
    assert sum(s.stream("sync").count for s in snapshots) == 64 and snapshots[-1].progress == 1
    assert result.ops_per_s and result.ops_per_s > 100
    assert os.listdir(tmpfs_dir) == []


def test_engine_duration_run_wraps_inside_its_file(tmpfs_dir: str) -> None:
    _, result = run_to_end(wal_config(tmpfs_dir, params(size=64 * KIB, duration_s=0.3)))
    assert isinstance(result, WalResult) and 0.3 <= result.duration_s < 1
    assert result.samples > 16 and os.listdir(tmpfs_dir) == []


def test_latency_log_has_one_line_per_write(tmpfs_dir: str, tmp_path: Path) -> None:
    log = tmp_path / "lat.csv"
    _, result = run_to_end(wal_config(tmpfs_dir, params(), latency_log=str(log)))
    assert isinstance(result, WalResult)
    lines = log.read_text().splitlines()
    assert lines[0] == "load,time_ms,write_ns,sync_ns,latency_ns" and len(lines) == 65
    assert all(line.startswith("closed,") and len(line.split(",")) == 5 for line in lines[1:])
    _, again = run_to_end(wal_config(tmpfs_dir, params(), latency_log=str(log)))
    assert isinstance(again, Failed) and "already exists" in again.message


@pytest.mark.live
def test_engine_on_loop_ext4_sees_the_loop_layer(ext4_dir: str) -> None:
    target = describe_target(ext4_dir, 512 * KIB)
    assert target.fstype == "ext4" and target.device and target.device.startswith("loop")
    _, result = run_to_end(wal_config(ext4_dir, params(bs=2300, size=512 * KIB), list(target.layers)))
    assert isinstance(result, WalResult), result
    assert result.samples == 512 * KIB // 2300
    p50, p99 = result.sync.percentile(50), result.sync.percentile(99)
    assert p50 and p99 and 1_000 < p50 <= p99  # a real flush takes more than a microsecond
    loop = next(layer for layer in result.layers if layer.kname == target.device)
    assert loop.writes >= result.samples / 2 and (loop.flushes or 0) >= result.samples / 2
    assert leftover_scratch(ext4_dir) == []


def long_config(kind: str, directory: str, layers: list[str] | None = None) -> EngineConfig:
    """A run of `kind` that would go on for a long time, small enough for a 32 MiB filesystem."""
    small = CompactionParams(inputs=2, file_size=1 * MIB, read_bs=256 * KIB, write_bs=128 * KIB,
                             bytes_per_sync=128 * KIB, duration_s=60)
    chosen = {
        "wal": params(size=1 * MIB, duration_s=60, prealloc=False),
        "compaction": small,
        "compaction-2-jobs": CompactionParams(**{**small.to_json(), "jobs": 2}),  # type: ignore[arg-type]
        "randwrite": RandwriteParams(size=1 * MIB, duration_s=60),
        "interference": InterferenceParams(params(size=1 * MIB, duration_s=1.0, prealloc=False),
                                           CompactionParams(**{**small.to_json(), "duration_s": None,
                                                               "jobs": 2})),  # type: ignore[arg-type]
    }[kind]
    return EngineConfig(kind.split("-")[0], directory, chosen, layers or [], interval_s=0.05)


KINDS = ["wal", "compaction", "compaction-2-jobs", "randwrite", "interference"]


def measuring(event: Event, kind: str) -> bool:
    """Whether the run has reached the part worth interrupting (for interference: beside compaction)."""
    if kind == "interference":
        return isinstance(event, Interval) and event.phase == "under_compaction" and not event.job
    return isinstance(event, Interval) and not event.job


def wait_until_empty(directory: str, seconds: float = 10) -> list[str]:
    """What is left in `directory` once every engine process had time to clean up."""
    deadline = time.monotonic() + seconds
    while os.listdir(directory) and time.monotonic() < deadline:
        time.sleep(0.05)
    return os.listdir(directory)


def keep_full(directory: str, stop: threading.Event) -> None:
    """Take every block freed in `directory`'s filesystem until `stop` is set."""
    while not stop.wait(0.05):
        fill(directory)


@pytest.mark.live
@pytest.mark.parametrize("kind", ["wal", "compaction", "compaction-2-jobs", "interference"])
def test_enospc_mid_run_is_one_line_and_leaves_nothing(tmp_path: Path, kind: str) -> None:
    for mountpoint in loop_ext4(tmp_path, "tiny", 32):
        run = EngineRun(long_config(kind, mountpoint))
        events = run.events()
        assert any(measuring(event, kind) for event in events)
        fill(mountpoint)
        # keep it full: a compaction's preallocated outputs reuse the space its unlinked inputs free, so
        # only a filesystem that stays full (another writer taking what is freed) runs it out of space
        stop = threading.Event()
        keeper = threading.Thread(target=keep_full, args=(mountpoint, stop), daemon=True)
        keeper.start()
        try:
            final = list(events)[-1]
        finally:
            stop.set()
            keeper.join()
        assert isinstance(final, Failed) and final.message == "no space left on the device", final
        assert leftover_scratch(mountpoint) == []
        os.unlink(os.path.join(mountpoint, "filler"))


@pytest.mark.live
def test_randwrite_on_a_full_disk_is_refused_before_writing(tmp_path: Path) -> None:
    for mountpoint in loop_ext4(tmp_path, "tiny", 32):
        fill(mountpoint)
        _, final = run_to_end(long_config("randwrite", mountpoint))
        assert isinstance(final, Failed) and final.message.startswith("not enough free space")
        assert leftover_scratch(mountpoint) == []


@pytest.mark.parametrize("kind", KINDS)
def test_cancel_removes_scratch(tmpfs_dir: str, kind: str) -> None:
    run = EngineRun(long_config(kind, tmpfs_dir))
    events = run.events()
    assert any(measuring(event, kind) for event in events) and leftover_scratch(tmpfs_dir)
    run.cancel()
    final = list(events)[-1]
    assert isinstance(final, Failed) and final.cancelled and "SIGTERM" in final.message
    assert wait_until_empty(tmpfs_dir) == []


@pytest.mark.parametrize("kind", KINDS)
def test_killed_engine_is_cleaned_up_by_the_parent(tmpfs_dir: str, kind: str) -> None:
    run = EngineRun(long_config(kind, tmpfs_dir))
    events = run.events()
    assert any(measuring(event, kind) for event in events)
    os.kill(run.process.pid, signal.SIGKILL)
    final = list(events)[-1]
    assert isinstance(final, Failed) and "stopped unexpectedly" in final.message
    assert wait_until_empty(tmpfs_dir) == []


PARENT = """
import sys, time
from test_engine import long_config, measuring
from diskdoctor.probes.engine.runner import EngineRun
run = EngineRun(long_config(sys.argv[2], sys.argv[1]))
for event in run.events():
    if measuring(event, sys.argv[2]):
        print(run.process.pid, flush=True)
        time.sleep(600)
"""


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_engine_cleans_up_when_its_parent_dies(tmpfs_dir: str, how: signal.Signals, kind: str) -> None:
    env = {**os.environ, "PYTHONPATH": os.path.dirname(__file__)}
    parent = subprocess.Popen([sys.executable, "-c", PARENT, tmpfs_dir, kind], stdout=subprocess.PIPE,
                              text=True, env=env)
    assert parent.stdout is not None
    engine_pid = int(parent.stdout.readline())
    assert leftover_scratch(tmpfs_dir)
    parent.send_signal(how)
    parent.wait()
    deadline = time.monotonic() + 10
    while not _gone(engine_pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _gone(engine_pid)
    assert wait_until_empty(tmpfs_dir) == []


def test_compaction_on_tmpfs_reports_what_it_moved_and_that_tmpfs_cannot_evict(tmpfs_dir: str) -> None:
    compaction = CompactionParams(inputs=3, file_size=2 * MIB, read_bs=512 * KIB, write_bs=256 * KIB,
                                  bytes_per_sync=256 * KIB)
    intervals, result = run_to_end(EngineConfig("compaction", tmpfs_dir, compaction, interval_s=0.01))
    assert isinstance(result, CompactionResult), result
    assert result.bytes_read == result.bytes_written == 6 * MIB and result.files_written == 3
    assert result.streams["read"].count == 12 and result.streams["write"].count == 24
    assert result.streams["range_sync"].count == 24 and result.streams["file_sync"].count == 3
    assert sum(i.bytes_written for i in intervals) == 6 * MIB and intervals[-1].progress == 1
    assert not result.evicted and result.resident_after_evict == 1.0  # tmpfs pages are the files
    assert os.listdir(tmpfs_dir) == []


@pytest.mark.live
def test_compaction_on_loop_ext4_reads_from_the_device_after_eviction(ext4_dir: str) -> None:
    target = describe_target(ext4_dir, 16 * MIB)
    compaction = CompactionParams(inputs=2, file_size=4 * MIB, jobs=2)
    _, result = run_to_end(EngineConfig("compaction", ext4_dir, compaction, list(target.layers)))
    assert isinstance(result, CompactionResult), result
    assert result.evicted and result.resident_after_evict < 0.05 and result.jobs == 2
    assert result.bytes_read == result.bytes_written == 16 * MIB and result.files_written == 4
    loop = next(layer for layer in result.layers if layer.kname == target.device)
    assert loop.read_bytes >= 16 * MIB * 0.9  # the reads reached the device: the eviction worked
    assert loop.write_bytes >= 16 * MIB and (loop.flushes or 0) >= 4
    assert leftover_scratch(ext4_dir) == []


@pytest.mark.live
def test_randwrite_on_loop_ext4_uses_o_direct_and_counts_every_write(ext4_dir: str) -> None:
    target = describe_target(ext4_dir, 4 * MIB)
    randwrite = RandwriteParams(size=4 * MIB, duration_s=None, writes=300)
    _, result = run_to_end(EngineConfig("randwrite", ext4_dir, randwrite, list(target.layers)))
    assert isinstance(result, RandwriteResult), result
    assert result.direct and result.samples == 300 == result.write.count == result.sync.count
    assert (result.sync.stdev() or 0) > 0 and (result.sync.percentile(50) or 0) > 1_000
    loop = next(layer for layer in result.layers if layer.kname == target.device)
    assert loop.writes >= 300 and loop.write_bytes >= 300 * 4096


def test_randwrite_falls_back_when_the_filesystem_refuses_o_direct(tmp_path: Path) -> None:
    """A filesystem that refuses O_DIRECT (EINVAL at open): the run says so instead of failing."""
    if os.geteuid() != 0:
        pytest.skip("mounting needs root")
    where = tmp_path / "ramfs"
    where.mkdir()
    subprocess.run(["mount", "-t", "ramfs", "ramfs", str(where)], check=True)
    try:
        randwrite = RandwriteParams(size=1 * MIB, duration_s=None, writes=50, direct=True)
        _, result = run_to_end(EngineConfig("randwrite", str(where), randwrite))
        assert isinstance(result, RandwriteResult), result
        assert not result.direct and result.to_json()["note"].startswith("this filesystem refused O_DIRECT")
        assert os.listdir(where) == []
    finally:
        subprocess.run(["umount", str(where)], check=False)


def test_interference_result_has_both_wal_runs_and_the_compaction_beside(tmpfs_dir: str) -> None:
    config = long_config("interference", tmpfs_dir)
    config.params = InterferenceParams(params(size=512 * KIB), config.params.compaction)  # type: ignore[attr-defined]
    intervals, result = run_to_end(config)
    assert isinstance(result, InterferenceResult), result
    assert result.alone.samples == result.under_compaction.samples == 128
    assert result.compaction_jobs == 2 and result.p99_ratio is not None and result.p99_ratio > 0
    assert {i.phase for i in intervals} == {"alone", "under_compaction"}
    document = result.to_json()
    assert set(document) >= {"alone", "under_compaction", "p99_ratio", "compaction"}
    assert InterferenceResult.from_json(document) == result
    assert wait_until_empty(tmpfs_dir) == []


@pytest.mark.parametrize("kind", KINDS)
def test_results_round_trip_through_json(tmpfs_dir: str, kind: str) -> None:
    import json

    config = long_config(kind, tmpfs_dir)
    short = {"wal": params(), "randwrite": RandwriteParams(size=1 * MIB, duration_s=None, writes=100)}
    if kind.startswith("compaction"):
        config.params = CompactionParams(**{**config.params.to_json(), "duration_s": None})  # type: ignore[arg-type]
    elif kind == "interference":
        config.params = InterferenceParams(params(), config.params.compaction)  # type: ignore[attr-defined]
    else:
        config.params = short[kind]
    _, result = run_to_end(config)
    assert not isinstance(result, Failed), result
    assert type(result).from_json(json.loads(json.dumps(result.to_json()))) == result


def test_etcd_wal_runs_open_loop_with_its_segments_and_commits(tmpfs_dir: str, tmp_path: Path) -> None:
    log = tmp_path / "lat.csv"
    etcd = WalParams(profile="etcd", bs=2000, size=1 * MIB, rates=(200.0,), level_s=0.4, format="etcd",
                     commit_ms=20.0, segment_bytes=1 * MIB)
    intervals, result = run_to_end(wal_config(tmpfs_dir, etcd, interval_s=0.1, latency_log=str(log)))
    assert isinstance(result, WalResult), result
    open_level, capacity = result.levels
    assert open_level.rate == 200.0 and open_level.writes == 80
    # one fdatasync per write while it keeps up; a sync stalled by a busy host lets the next write join
    # the following batch, as etcd's group commit does (CI run 11 saw 79 batches for 80 writes)
    assert open_level.writes - 8 <= open_level.batches <= open_level.writes
    assert open_level.commit.count >= 2 and open_level.commit.count % 2 == 0  # two fdatasyncs per commit
    assert capacity.rate is None and capacity.writes == MIB // 2000  # the capacity run: size / bs writes
    # 1 MiB segments hold ~500 framed puts: the capacity run cut segments, each cut syncing twice more
    assert capacity.sync.count > capacity.writes
    assert result.headline == open_level and result.sync == open_level.latency  # the open loop is judged
    assert {tuple(sorted(i.load.items())) for i in intervals} == {
        (("arrival", "steady"), ("rate", 200.0)), (("arrival", "closed"), ("rate", None))}
    lines = log.read_text().splitlines()
    assert lines[0] == "load,time_ms,write_ns,sync_ns,latency_ns"
    assert sum(line.startswith("200/s,") for line in lines) == 80
    assert sum(line.startswith("closed,") for line in lines) == capacity.writes
    assert WalResult.from_json(result.to_json()) == result
    assert os.listdir(tmpfs_dir) == []
