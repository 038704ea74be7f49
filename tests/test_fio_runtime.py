"""A sub-second duration gives fio a runtime fio accepts, so fio runs that long, not the whole size."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from diskdoctor.probes.engine.workloads.randwrite import RandwriteParams
from diskdoctor.probes.fio_jobs import randwrite_argv
from diskdoctor.probes.fio_run import fio_available
from diskdoctor.probes.wal_params import WalParams, fio_argv, fio_command

pytestmark = pytest.mark.skipif(not fio_available(), reason="fio is not installed")


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
