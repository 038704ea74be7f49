"""The Runs screen as newuser21 read it (#12, #4): the comparison pane as tall as its content, the list the
rest; and the compare pick told apart from the cursor."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from conftest import fixture_root
from diskdoctor.app.core.runs.store import RunStore
from diskdoctor.app.tui.app import DiskDoctorApp
from support.runs_support import saved_run
from test_runs_screen import FIXTURE, _wal_run_at_loads, open_runs
from test_text_fit import screen_lines

RUNS = 25


def save_many(count: int = RUNS) -> None:
    """`count` like-for-like runs a day apart (ids 0000, 0001, …), the newest the slowest."""
    store = RunStore()
    for number in range(count):  # count <= 28: one November day each
        run = saved_run(number + 1, slow_ms=2.0 + number / 10)
        store.save(dataclasses.replace(run, id=f"202611{number + 1:02}-143000-wal-{number:04}"))


async def test_the_comparison_pane_is_as_tall_as_its_content_at_200x60(private_state_dir: Path) -> None:
    """newuser21 #12: at 200x60 the list shrank to `12 of 25 rows fit` while 4 blank rows stayed under the
    comparison; the pane is sized from its content and the list gets the rest."""
    save_many()
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(200, 60)) as pilot:
        await open_runs(pilot)
        await pilot.press("space", "down", "space")
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        pane, detail = screen.query_one("#runs-detail-pane"), screen.query_one("#runs-detail")
        table = screen.query_one("#runs-table")
        text = "\n".join(screen_lines(app))
        blank = pane.size.height - detail.outer_size.height
        hidden = RUNS - (table.size.height - 1)
        assert blank <= 0 or hidden <= 0, (blank, hidden, text)  # no blank rows while runs are hidden
        assert pane.max_scroll_y == 0, text  # the comparison still whole


async def test_the_compare_pick_is_told_apart_from_the_cursor(private_state_dir: Path) -> None:
    """newuser21 #4: the `●` pick stayed on one run while the cursor (the selection other screens follow)
    was on another, and nothing said which marker meant what; the status line says what `●` is, and the
    details of the run under the cursor name the picked run."""
    save_many(3)
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_runs(pilot)
        await pilot.press("space", "down")  # 0002 picked (the newest), the cursor on 0001
        await pilot.pause()
        screen = app.screen
        status = str(screen.query_one("#runs-status").render())
        detail = str(screen.query_one("#runs-detail").render())
        assert "● 0002 picked to compare" in status, status
        assert "● marks run 0002, picked to compare: Space on this run compares the two" in \
            " ".join(detail.split()), detail
        await pilot.press("up")  # the cursor on the picked run itself
        await pilot.pause()
        detail = " ".join(str(screen.query_one("#runs-detail").render()).split())
        assert "● marks this run, picked to compare: Space on another run compares the two" in detail, detail
        await pilot.press("down", "space")  # two picked: the status line still says what ● is
        await pilot.pause()
        status = str(screen.query_one("#runs-status").render())
        assert "● comparing 0001 with 0002 (c clears)" in status, status


async def test_the_list_fits_the_comparison_again_when_the_filter_bar_opens(private_state_dir: Path) -> None:
    """The filter bar takes a row of the body: the list gives it back, the comparison stays whole."""
    save_many()
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(200, 40)) as pilot:
        await open_runs(pilot)
        await pilot.press("space", "down", "space")
        await pilot.pause()
        pane = app.screen.query_one("#runs-detail-pane")
        assert pane.max_scroll_y == 0 and fold_rows(app), "\n".join(screen_lines(app))
        await pilot.press("slash")
        await pilot.pause()
        await pilot.pause()
        assert app.screen.query_one("#runs-filter").has_class("-open")
        assert pane.max_scroll_y == 0, "\n".join(screen_lines(app))  # the params line still in view
        await pilot.press("escape")
        await pilot.pause()
        await pilot.pause()
        detail = app.screen.query_one("#runs-detail")
        assert pane.max_scroll_y == 0 and pane.size.height == detail.outer_size.height  # no blank row


def fold_rows(app: DiskDoctorApp) -> bool:
    """Whether the list hides some runs (the comparison is tall enough to matter at this size)."""
    table = app.screen.query_one("#runs-table")
    return table.size.height - 1 < RUNS


async def test_no_blank_row_ends_a_wal_loads_comparison_at_200x50(private_state_dir: Path) -> None:
    """Two WAL runs at two loads among 25 at 200x50: the comparison ended in a blank row (its text's last
    newline) while the status said `17 of 25 rows fit`; the list takes that row too."""
    save_many(RUNS - 2)
    store = RunStore()
    store.save(_wal_run_at_loads(20, 50.0, {50.0: 3.43, 500.0: 9.0}, "20261130-143000-wal-7000"))
    store.save(_wal_run_at_loads(21, 50.0, {50.0: 0.0323, 500.0: 46.0}, "20261130-153000-wal-7001"))
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(200, 50)) as pilot:
        await open_runs(pilot)
        runs = [run.id for run in app.screen.runs]
        await pilot.press(*["down"] * runs.index("20261130-143000-wal-7000"), "space")
        await pilot.press(*["up"] * 5, *["down"] * runs.index("20261130-153000-wal-7001"), "space")
        await pilot.pause()
        await pilot.pause()
        lines = screen_lines(app)
        status = next(n for n, line in enumerate(lines) if "comparing" in line and "c clears" in line)
        assert "rows fit" in lines[status] and lines[status - 1].strip(), "\n".join(lines)
        assert app.screen.query_one("#runs-detail-pane").max_scroll_y == 0, "\n".join(lines)
