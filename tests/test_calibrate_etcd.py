"""bench/calibrate_etcd.py, the check of `bench wal` against a real etcd: it runs at CI size, reads perf's
trace as etcd writes it, and refuses what it cannot use in one line, leaving nothing behind."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "bench" / "calibrate_etcd.py"
sys.path.insert(0, str(SCRIPT.parent))

from calibrate_etcd import parse_perf, parse_strace, rounds_needed  # noqa: E402

TOOLS = ("etcd", "etcdctl", "perf")
"""Debian etcd-server, etcd-client and linux-perf (tests/run.sh installs them)."""


def calibrate(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600,
                          env=env)


@pytest.mark.live
def test_small_calibration_prints_every_ratio_and_cleans_up(tmp_path: Path) -> None:
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing or os.geteuid() != 0:
        pytest.skip(f"needs root and {', '.join(missing) or 'nothing'} (apt-get install etcd-server "
                    "etcd-client linux-perf)")
    figures = tmp_path / "figures.json"
    target = tmp_path / "target"
    target.mkdir()
    result = calibrate("--dir", str(target), "--small", "--seconds", "1", "--json", str(figures))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"calibrating on {target}: etcd 3.") and "tracer perf" in lines[0]
    for load in ("b2b", "50", "500"):
        assert any(line.startswith(f"round 1 etcd {load:>4}: fdatasync p50 ") for line in lines), load
        assert any(line.startswith(f"round 1 ours {load:>4}: fdatasync p50 ") for line in lines), load
    summary = lines[lines.index("") + 1:]
    assert summary[0].startswith("median over 1 round(s), ours/etcd WAL fdatasync")
    assert [line.split()[0] for line in summary[1:4]] == ["back", "50/s", "500/s"]
    assert all(" p50 x" in line and " p99 x" in line and "rounds needed" in line for line in summary[1:4])
    document = json.loads(figures.read_text())
    assert set(document["summary"]) >= {"b2b", "50", "500"}
    etcd_50 = document["rounds"][0]["etcd"]["50"]
    assert etcd_50["count"] == 50 and etcd_50["p50"] > 0  # every put's WAL fdatasync was traced
    assert os.listdir(target) == []  # etcd's data directory and our scratch are gone


def test_missing_tools_and_bad_input_are_one_line(tmp_path: Path) -> None:
    no_tools = {**os.environ, "PATH": str(tmp_path)}  # no etcd, no perf on this PATH
    result = calibrate("--dir", str(tmp_path), "--small", env=no_tools)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip() == ("calibrate_etcd: missing etcd, etcdctl, perf (install: apt-get install "
                                     "etcd-server etcd-client linux-perf)")
    for args, needle in [(("--dir", str(tmp_path / "nope")), "is not a directory"),
                         (("--dir", str(tmp_path), "--rounds", "0"), "--rounds must be 1 to 50"),
                         (("--dir", str(tmp_path), "--loads", "b2b,fast"), "unknown load fast"),
                         (("--dir", str(tmp_path), "--loads", "0"), "more than 0"),
                         (("--dir", "/proc"), "pseudo-filesystem")]:
        result = calibrate(*args)
        assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert needle in result.stderr and "Traceback" not in result.stderr
    assert os.listdir(tmp_path) == []


PERF_TRACE = """\
     0.000 ( 0.567 ms): etcd/101 fdatasync(fd: 11)                                                     = 0
     1.637 ( 0.321 ms): etcd/102 fdatasync(fd: 9)                                                      = 0
    40.419 (         ): etcd/103 fdatasync(fd: 11)                                                  ...
    40.404 ( 0.628 ms): etcd/104 fdatasync(fd: 9)                                                      = 0
    40.419 ( 1.212 ms): etcd/103  ... [continued]: fdatasync())                                        = 0
    41.000 ( 9.000 ms): python3/999 fdatasync(fd: 11)                                                  = 0
"""


def test_perf_trace_lines_are_read_per_thread_and_file(tmp_path: Path) -> None:
    trace = tmp_path / "trace.txt"
    trace.write_text(PERF_TRACE)
    found = parse_perf(str(trace), {"101", "102", "103", "104"}, {"11": "wal", "9": "db"})
    assert found == {"wal": [567.0, 1212.0], "db": [321.0, 628.0]}  # the split call joined, others' dropped
    assert parse_perf(str(trace), {"999"}, None, {"999": "wal"}) == {"wal": [9000.0]}


def test_strace_lines_are_read_the_same_way(tmp_path: Path) -> None:
    trace = tmp_path / "strace.txt"
    trace.write_text("101 14:00:00.000001 fdatasync(11) = 0 <0.000500>\n"
                     "102 14:00:00.000002 fdatasync(9 <unfinished ...>\n"
                     "102 14:00:00.001000 <... fdatasync resumed>) = 0 <0.001000>\n")
    assert parse_strace(str(trace), {"101", "102"}, {"11": "wal", "9": "db"}) == {"wal": [500.0],
                                                                                   "db": [1000.0]}


def test_rounds_needed_grow_with_the_spread() -> None:
    assert rounds_needed([100.0], 0.15) is None
    steady, noisy = rounds_needed([100.0, 102.0, 98.0], 0.15), rounds_needed([60.0, 140.0, 100.0], 0.29)
    assert steady == 1 and noisy is not None and noisy > 3
