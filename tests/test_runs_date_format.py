"""The Runs list's save time has one format per width, whatever the list holds, and its result heading names
the workload plainly (newuser19 #8: `11-26 21:58` unfiltered, `2026-11-26 21:58` filtered to `/tmpfs`, at
the same 120 columns; a heading `wal result` read as a column called "wal result")."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pytest
from conftest import fixture_root
from diskdoctor.app.core.runs.store import RunStore
from diskdoctor.app.tui.app import DiskDoctorApp
from test_runs_screen import FIXTURE, INCONCLUSIVE_RUN, open_runs
from test_text_fit import screen_lines
from textual.widgets import DataTable

LONG = "/var/lib/kubelet/pods/0f3c1a2b-9d8e-4f5a-b6c7-d8e9f0a1b2c3/volumes/kubernetes.io~csi/pvc-data/mount"
"""A target long enough to be cut at 120 columns (a short one is not)."""


def _runs(folder: Path) -> None:
    """Four WAL runs saved this year: two on a long target, two on a short one (`/tmpfs-x`)."""
    document = json.loads(INCONCLUSIVE_RUN.read_text())
    year = dt.datetime.now(dt.timezone.utc).year
    folder.mkdir(parents=True, exist_ok=True)
    for minute, target in ((9, LONG), (12, LONG), (15, "/tmpfs-x"), (18, "/tmpfs-x")):
        run_id = f"{year}1126-16{minute:02d}28-wal-b{minute:03d}"
        stack = json.loads(json.dumps(document["stack"]))
        stack["target"].update(dir=target, mountpoint=target)
        saved = f"{year}-11-26T16:{minute:02d}:28+00:00"
        copy = {**document, "id": run_id, "saved_at": saved, "stack": stack}
        (folder / f"{run_id}.json").write_text(json.dumps(copy))


def _saved_cells(app: DiskDoctorApp) -> list[str]:
    """The save times the list shows, as drawn (not the details' under it)."""
    table = app.screen.query_one(DataTable).region
    return [found.group(0) for line in screen_lines(app)[table.y:table.bottom]
            for found in [re.search(r"(?:\d{4}-)?\d\d-\d\d \d\d:\d\d", line)] if found]


@pytest.mark.parametrize("size", [(120, 40), (200, 60)], ids=["120x40", "200x60"])
async def test_the_save_time_keeps_its_format_when_a_filter_changes_the_list(
        private_state_dir: Path, size: tuple[int, int]) -> None:
    _runs(RunStore().directory)
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=size) as pilot:
        await open_runs(pilot)
        before = _saved_cells(app)
        assert len(before) >= 4, screen_lines(app)
        await pilot.press("slash", *"tmpfs", "enter")
        await pilot.pause()
        await pilot.pause()
        after = _saved_cells(app)
        assert 2 <= len(after) < len(before), screen_lines(app)
        with_year = {len(cell) > len("11-26 16:09") for cell in before + after}
        assert len(with_year) == 1, (before, after)  # one format at this width
        assert with_year == {size[0] >= 160}, (before, after)  # the year where there is room for it


async def test_the_result_heading_names_the_workload_plainly(private_state_dir: Path) -> None:
    _runs(RunStore().directory)
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(120, 40)) as pilot:
        await open_runs(pilot)
        header = next(line for line in screen_lines(app) if "saved (UTC)" in line)
        assert "WAL result" in header and "wal result" not in header, header
