"""Verdicts that say what they cannot see, on real mounts: ext4 on loop devices mounted nobarrier and
barrier=0 (fdatasync sends no cache flush), a plain ext4 beside them, and xfs, which refuses nobarrier on
this kernel; every place a verdict shows (CLI, JSON, run file, runs list/show, report, advise --bench)."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import live_prerequisites
from diskdoctor.probes.mountinfo import parse_mountinfo
from diskdoctor.probes.wal_target import describe_target
from support.cli_runner import run_cli
from support.loop_stack import LoopStack, _attach, _mount, sh

pytestmark = pytest.mark.live
QUICK = ("--profile", "postgres-wal", "--rate", "2000", "--duration", "0.2s", "--no-capacity",
         "--threshold-ms", "5000")
"""400 writes due at 2,000/s on the loop device (enough for a settled p99), judged against a threshold no loop
device misses."""
NOT_DURABLE_LINE = ("durable   NOT DURABLE: mounted nobarrier: the filesystem sends no cache flushes: this "
                    "figure is not what a durable write costs")


@pytest.fixture(scope="module")
def flush_loops(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoopStack]:
    """ext4 mounted nobarrier, ext4 mounted barrier=0, and a plain ext4."""
    why = live_prerequisites()
    if why:
        pytest.skip(why)
    stack = LoopStack(tmp_path_factory.mktemp("caveat-loops"))
    try:
        for role, options in (("nobarrier", "nobarrier"), ("barrier0", "barrier=0"), ("plain", None)):
            device = _attach(stack, role, 64)
            sh("mkfs.ext4", "-q", "-F", device)
            _mount(stack, role, device, options)
        yield stack
    finally:
        stack.teardown()


def _mountinfo_options(mountpoint: Path) -> tuple[str, ...]:
    with open("/proc/self/mountinfo", encoding="utf-8") as handle:
        [mount] = [m for m in parse_mountinfo(handle.read()) if m.mountpoint == str(mountpoint)]
    return mount.options


def test_the_kernel_shows_both_spellings_as_nobarrier(flush_loops: LoopStack) -> None:
    for role in ("nobarrier", "barrier0"):  # ext4 reports barrier=0 as nobarrier in mountinfo
        assert "nobarrier" in _mountinfo_options(flush_loops.mountpoints[role])
    assert "nobarrier" not in _mountinfo_options(flush_loops.mountpoints["plain"])


def test_the_target_records_why_fdatasync_is_not_durable(flush_loops: LoopStack) -> None:
    for role in ("nobarrier", "barrier0"):
        target = describe_target(str(flush_loops.mountpoints[role]), 1 << 20)
        assert target.not_durable == ("mounted nobarrier: the filesystem sends no cache flushes",)
    assert describe_target(str(flush_loops.mountpoints["plain"]), 1 << 20).not_durable == ()


def test_xfs_refuses_nobarrier_on_this_kernel(tmp_path: Path) -> None:
    """xfs dropped the option (Linux 4.19): the mount fails, so no xfs run can be taken without barriers."""
    if live_prerequisites() or not os.path.exists("/usr/sbin/mkfs.xfs"):
        pytest.skip(live_prerequisites() or "mkfs.xfs is not installed")
    stack = LoopStack(tmp_path)
    try:
        device = _attach(stack, "xfs", 320)
        sh("mkfs.xfs", "-q", "-f", device)
        mountpoint = tmp_path / "mnt-xfs"
        mountpoint.mkdir()
        refused = subprocess.run(["mount", "-o", "nobarrier", device, str(mountpoint)], capture_output=True,
                                 check=False)
        if refused.returncode == 0:
            stack.mountpoints["xfs"] = mountpoint
            pytest.fail("this kernel mounted xfs nobarrier: record it as not durable and test it")
    finally:
        stack.teardown()


def test_a_pass_without_barriers_says_so_everywhere(flush_loops: LoopStack) -> None:
    directory = str(flush_loops.mountpoints["nobarrier"])
    text = run_cli("bench", "wal", "--dir", directory, *QUICK)
    assert text.code == 0, text.err
    lines = text.out.splitlines()
    assert lines[0].startswith("PASS  p99 fdatasync from due at 2,000/s steady ")
    assert "[not durable]" in lines[0]
    assert NOT_DURABLE_LINE in lines and any(line.startswith("WARN  BENCH-NOT-DURABLE  ") for line in lines)
    assert any(line.startswith("host load ") for line in lines)  # the contention, beside the verdict
    document = json.loads(run_cli("bench", "wal", "--dir", directory, *QUICK, "--json").out)
    assert document["target"]["not_durable"] == ["mounted nobarrier: the filesystem sends no cache flushes"]
    caveats = document["caveats"]
    assert caveats["durable"] is False and caveats["model"] == "open loop" and caveats["contention"]
    assert "BENCH-NOT-DURABLE" in {finding["id"] for finding in document["findings"]}
    listing = run_cli("runs", "list")
    assert listing.out.count("[not durable]") == 2  # both saved runs, in the RESULT column
    saved = json.loads(run_cli("runs", "list", "--json").out)["runs"]
    assert [run["caveats"]["durable"] for run in saved] == [False, False]
    shown = run_cli("runs", "show", "latest").out.splitlines()
    assert NOT_DURABLE_LINE in shown and shown[shown.index(NOT_DURABLE_LINE) - 1].startswith("verdict   PASS")
    advised = run_cli("advise", "--bench", "latest", "--json")
    assert "BENCH-NOT-DURABLE" in {finding["id"] for finding in json.loads(advised.out)["findings"]}
    report = Path(directory).parent / "caveats-report.md"
    assert run_cli("report", "-o", str(report)).code == 0
    assert "| durable | NOT DURABLE: mounted nobarrier" in report.read_text()
    report.unlink()
    assert os.listdir(directory) == ["lost+found"]  # nothing left in the target


def test_a_durable_target_has_no_durability_caveat(flush_loops: LoopStack) -> None:
    directory = str(flush_loops.mountpoints["plain"])
    result = run_cli("bench", "wal", "--dir", directory, *QUICK, "--json")
    assert result.code == 0, result.err
    document = json.loads(result.out)
    assert document["target"]["not_durable"] == [] and document["caveats"]["durable"] is True
    assert "BENCH-NOT-DURABLE" not in {finding["id"] for finding in document["findings"]}
    assert "[not durable]" not in run_cli("runs", "list").out
