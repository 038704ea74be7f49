"""The Runs list's target column says the same parts on every row (newuser17 #5), the host only where the
runs come from more than one host."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from conftest import fixture_root
from diskdoctor.app.core.runs.record import SavedRun
from diskdoctor.app.core.runs.store import RunStore
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.runs_targets import target_cells
from diskdoctor.probes.wal_target import Target
from support.runs_support import HOST, STACK, saved_run
from test_runs_screen import FIXTURE, open_runs
from test_text_fit import screen_lines

TARGETS = (Target("/var/tmp", "/", "ext4", "vda", ("vda",)),
           Target("/tmp/newuser17-ext4", "/tmp/newuser17-ext4", "ext4", "loop0", ("loop0",)),
           Target("/tmp/newuser17-tmpfs", "/tmp/newuser17-tmpfs", "tmpfs", None, ()))
"""newuser17's three runs: /var/tmp on the root disk, an ext4 loop and a tmpfs."""


def runs_on(hosts: tuple[str, ...]) -> list[SavedRun]:
    """A WAL run on each of TARGETS, the n-th saved on the n-th of `hosts` (cycled)."""
    runs = []
    for index, target in enumerate(TARGETS):
        run = saved_run(20 + index, slow_ms=2.0 + index)
        stack = dataclasses.replace(STACK, target=target)
        host = dataclasses.replace(HOST, hostname=hosts[index % len(hosts)])
        runs.append(dataclasses.replace(run, stack=stack, host=host,
                                        record=dataclasses.replace(run.record, target=target)))
    return runs


def forms(cells: list[str]) -> set[tuple[bool, bool]]:
    """Which parts each cell says: (its device or "in memory", a host)."""
    return {(" on vda" in cell or " on loop0" in cell or "in memory" in cell, cell.count(" on ") > (
        " on vda" in cell or " on loop0" in cell)) for cell in cells}


@pytest.mark.parametrize("width", range(20, 60))
def test_every_row_says_the_same_parts_at_any_width(width: int) -> None:
    """At 120 the first row read `/var/tmp (ext4 on vda) on vm` and the others `/tmp/x-ext4 (ext4)`: one
    form on every row, whatever the width."""
    for hosts in (("vm",), ("vm", "etcd-2")):
        cells = target_cells(runs_on(hosts), width)
        assert len(forms(cells)) == 1, cells


def test_the_host_is_said_only_where_the_runs_come_from_several() -> None:
    assert target_cells(runs_on(("vm",)), 80) == [
        "/var/tmp (ext4 on vda)", "/tmp/newuser17-ext4 (ext4 on loop0)",
        "/tmp/newuser17-tmpfs (tmpfs: in memory)"]
    assert target_cells(runs_on(("vm", "etcd-2")), 80) == [
        "/var/tmp (ext4 on vda) on vm", "/tmp/newuser17-ext4 (ext4 on loop0) on etcd-2",
        "/tmp/newuser17-tmpfs (tmpfs: in memory) on vm"]


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)])
async def test_runs_list_targets_share_one_form_on_screen(private_state_dir: Path,
                                                          size: tuple[int, int]) -> None:
    """On the screen at each size: one form on every row (at 120 these results' tags take the room the
    devices would), no `on etcd-2` from one host, and at 200 the result no longer starts past column 95 (the
    long tmpfs words pushed it there)."""
    store = RunStore()
    for run in runs_on(("etcd-2",)):
        store.save(run)
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=size) as pilot:
        await open_runs(pilot)
        lines = screen_lines(app)
        rows = [line for line in lines if "/newuser17-" in line or "/var/tmp " in line][:3]
        screen = "\n".join(lines)
        assert len(rows) == 3 and not any("etcd-2" in row for row in rows), screen
        cells = [row[row.index("/"):row.index(")") + 1] for row in rows]
        assert len(forms(cells)) == 1, screen
        if size[0] >= 200:  # room for every part but the host, and the result close beside
            assert all("on vda" in row or "on loop0" in row or "in memory" in row for row in rows), screen
            assert max(row.index("p99") for row in rows) < 80, screen
