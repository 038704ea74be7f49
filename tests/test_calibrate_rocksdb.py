"""bench/calibrate_rocksdb.py at its CI size: real db_bench beside our WAL, then `bench interference`'s store
(RocksDB through rocksdict), on one directory.

Live: it needs Debian's db_bench (rocksdb-tools, installed by tests/run.sh); under CI=true a missing db_bench
is a failure, not a skip."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).parent.parent / "bench" / "calibrate_rocksdb.py"
RATIO = re.compile(r"median ours/db_bench over 1 round: interference ratio (\S+) .* compaction write (\S+)"
                   r"  read (\S+) MB/s")


@pytest.mark.live
def test_small_calibration_prints_ratios_and_leaves_nothing(tmp_path: Path) -> None:
    if shutil.which("db_bench") is None:
        pytest.skip("db_bench missing (apt-get install rocksdb-tools)")
    target = tmp_path / "target"
    target.mkdir()
    done = subprocess.run([sys.executable, str(BENCH), "--dir", str(target), "--small"], capture_output=True,
                          text=True, timeout=600, cwd=BENCH.parent, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith("# db_bench ") and "OPTIONS given to RocksDB (rocksdict)" in lines[0]
    assert sum(line.startswith("round 1 ours ") for line in lines) == 1
    assert sum(line.startswith("round 1 db_bench ") for line in lines) == 1
    found = RATIO.search(done.stdout)
    assert found, done.stdout
    interference, write, read = (float(value) for value in found.groups())
    assert interference > 0 and write > 0 and read > 0  # both stores compacted while the WAL ran
    assert os.listdir(target) == []


def test_without_db_bench_it_says_what_to_install(tmp_path: Path) -> None:
    env = {**os.environ, "PATH": str(tmp_path)}
    done = subprocess.run([sys.executable, str(BENCH), "--dir", str(tmp_path), "--small"],
                          capture_output=True, text=True, timeout=60, cwd=BENCH.parent, env=env, check=False)
    assert done.returncode == 2 and "apt-get install rocksdb-tools" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
