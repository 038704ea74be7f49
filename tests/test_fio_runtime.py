"""A sub-second duration gives fio a runtime fio accepts, so fio runs that long, not the whole size."""

from __future__ import annotations

import json
import os
import subprocess
import time
from dataclasses import replace
from pathlib import Path

import pytest
from diskdoctor.probes.engine.workloads.compaction import CompactionParams
from diskdoctor.probes.engine.workloads.randwrite import RandwriteParams
from diskdoctor.probes.fio_jobs import compaction_job_file, parse_throughput, randwrite_argv, run_fio_job
from diskdoctor.probes.fio_run import fio_available
from diskdoctor.probes.wal_params import WalParams, fio_argv, fio_command
from support.wal_support import tmpfs_dir

__all__ = ["tmpfs_dir"]
pytestmark = pytest.mark.skipif(not fio_available(), reason="fio is not installed")
SMALL_COMPACTION = CompactionParams(inputs=2, file_size=4 << 20, read_bs=512 << 10, write_bs=256 << 10,
                                    bytes_per_sync=256 << 10)


def _fio_runtime_ms(argv: list[str], cwd: Path) -> int:
    done = subprocess.run(argv, capture_output=True, text=True, cwd=cwd, timeout=120, check=True)
    assert "requires a runtime" not in done.stderr, done.stderr
    report = json.loads(done.stdout[done.stdout.index("{"):])
    return int(report["jobs"][0]["job_runtime"])


def test_wal_fio_equivalent_runs_for_half_a_second(tmp_path: Path) -> None:
    params = WalParams(profile="custom", size=64 << 20, duration_s=0.5)
    assert "--runtime=500ms" in fio_command(params, str(tmp_path))
    assert 400 <= _fio_runtime_ms(fio_argv(params, str(tmp_path), json_output=True), tmp_path) <= 1500


def test_randwrite_fio_equivalent_runs_for_half_a_second(tmp_path: Path) -> None:
    params = RandwriteParams(size=64 << 20, duration_s=0.5, direct=False)
    assert 400 <= _fio_runtime_ms(randwrite_argv(params, str(tmp_path), json_output=True), tmp_path) <= 1500


def test_whole_seconds_stay_seconds() -> None:
    assert "--runtime=30s" in fio_command(WalParams(profile="custom", duration_s=30.0), "/data")
    assert "--runtime=1500ms" in fio_command(WalParams(profile="custom", duration_s=1.5), "/data")


def test_compaction_fio_stops_with_our_duration(tmpfs_dir: str) -> None:
    """Ours compacts for 1.5 s; fio's reader and writer run side by side for 1.5 s each, not the sizes."""
    params = replace(SMALL_COMPACTION, duration_s=1.5)
    job = compaction_job_file(params, tmpfs_dir)
    assert "time_based" in job and "runtime=1500ms" in job and "stonewall" not in job
    begun = time.monotonic()
    out = run_fio_job(tmpfs_dir, job_file=job)
    wall = time.monotonic() - begun
    report = json.loads(out[out.index("{"):])
    runtimes = {j["jobname"]: int(j["job_runtime"]) for j in report["jobs"]}
    assert set(runtimes) == {"reader", "writer"}
    assert all(1400 <= ms <= 2000 for ms in runtimes.values()), runtimes  # 4 MiB files take far less
    assert wall < 1.5 + 3.0  # side by side, not one after the other
    figures = parse_throughput(out)
    assert figures.read_mb_s > 0 and figures.write_mb_s > 0
    assert os.listdir(tmpfs_dir) == []


def test_compaction_fio_without_duration_reads_then_writes_the_sizes(tmpfs_dir: str) -> None:
    job = compaction_job_file(SMALL_COMPACTION, tmpfs_dir)
    assert "stonewall" in job and "runtime" not in job and "time_based" not in job
    report = json.loads((out := run_fio_job(tmpfs_dir, job_file=job))[out.index("{"):])
    written = {j["jobname"]: j["write"]["io_bytes"] for j in report["jobs"]}
    assert written["writer"] == 2 * (4 << 20)  # the job did its sizes once, whatever the time
