"""SCHED says the same word for one device in `devices`, in a report and on the Stack screen."""

from __future__ import annotations

from pathlib import Path

from conftest import FIXTURES
from support.cli_runner import run_cli


def test_md0_has_no_scheduler_in_devices_and_in_a_report(tmp_path: Path) -> None:
    # md0 is bio-based: its queue/scheduler is empty, which says "no scheduler", not "unknown"
    root = str(FIXTURES / "etcd-raid0-lvm-luks")
    md0 = [line for line in run_cli("--sysroot", root, "devices").out.splitlines() if "md0" in line]
    assert md0 and all(line.split()[-3] == "none" for line in md0), md0
    report = tmp_path / "host.md"
    assert run_cli("--sysroot", root, "report", "-o", str(report)).code == 0
    rows = [line for line in report.read_text().splitlines() if "md0" in line and line.startswith("|")]
    assert rows and all("| none |" in row for row in rows), rows
