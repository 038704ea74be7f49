"""A comparison says first when its runs are not like for like, names the judged metric, and the Runs
screen keeps that comparison in view (a list sized from its rows, PgDn scrolls the comparison)."""

from __future__ import annotations

from pathlib import Path

from conftest import fixture_root
from diskdoctor.app.core.runs.compare import compare_runs
from diskdoctor.app.text.runs import compare_lines
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.runs_screen import RunsScreen
from diskdoctor.probes.wal_target import Target
from support.runs_support import STACK, saved_run
from test_runs_screen import FIXTURE, open_runs, text_of, three_runs
from textual.containers import VerticalScroll
from textual.widgets import DataTable

__all__ = ["three_runs"]

TMPFS = STACK.__class__(Target("/dev/shm/x", "/dev/shm", "tmpfs", None, ()), ("rw",), ())


def test_a_tmpfs_run_against_an_ext4_run_says_so_before_any_figure() -> None:
    lines = compare_lines(compare_runs(saved_run(20, stack=TMPFS), saved_run(21, slow_ms=1.9)))
    assert lines[0] == ("not like for like: tmpfs (not durable) against ext4 on dm-2; the figures below are "
                        "not a regression test"), lines[:2]
    assert compare_runs(saved_run(20, stack=TMPFS), saved_run(21)).to_json()["not_like_for_like"]


def test_like_for_like_runs_open_with_the_table_and_name_the_judged_metric() -> None:
    comparison = compare_runs(saved_run(20), saved_run(21, slow_ms=2.1))
    lines = compare_lines(comparison)
    assert lines[0].lstrip().startswith("metric") and comparison.to_json()["not_like_for_like"] is None
    assert ("p99 fdatasync and ops/s, the judged metrics, changed by less than 20% (on the same filesystem)"
            in lines), lines


async def test_the_list_is_sized_from_its_rows_and_pgdn_scrolls_the_comparison(
        three_runs: list[str], private_state_dir: Path) -> None:
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(120, 24)) as pilot:
        await open_runs(pilot)
        assert isinstance(app.screen, RunsScreen)
        table = app.screen.query_one(DataTable)
        assert table.size.height <= 3 + 3, table.size  # 3 runs, a header, no blank rows below them
        await pilot.press("space", "down", "space")
        await pilot.pause()
        status = text_of(app, "#runs-status")
        assert "Space picks two" not in status, status
        assert "comparing 0001 with 0002 (c clears)" in status, status
        pane = app.screen.query_one("#runs-detail-pane", VerticalScroll)
        assert pane.max_scroll_y > 0 and pane.scroll_y == 0
        await pilot.press("pagedown")
        await pilot.pause()
        assert pane.scroll_y > 0 and table.cursor_row == 1  # the comparison scrolled, not the list
