"""Benchmark suggests the filesystem left under the cursor (newuser7, issue 23): TRIM showed /mnt/newuser7
under its cursor, yet Benchmark said `pick one`. A row only looked at still never becomes the selection
(Advice stays whole); Benchmark fills it in and says it is a suggestion."""

from __future__ import annotations

from pathlib import Path

import pytest
from diskdoctor.app.tui.advice_screen import AdviceScreen
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.bench.form import BenchForm
from diskdoctor.app.tui.selection import chosen
from diskdoctor.app.tui.trim_screen import TrimScreen
from diskdoctor.probes.root import live_root
from support.bench_fixed_run import fixture_mounts
from test_tui import settled

__all__ = ["fixture_mounts"]
SIZES = [(80, 24), (120, 40), (200, 60)]


def status(app: DiskDoctorApp) -> str:
    return str(app.screen.query_one("#bench-status").render())


async def visit(app: DiskDoctorApp, pilot, key: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.press(key)
    await settled(app, pilot)
    await pilot.pause(0.2)
    await settled(app, pilot)


@pytest.mark.parametrize("size", SIZES)
async def test_trims_cursor_row_is_suggested_not_chosen(fixture_mounts: None, size: tuple[int, int]) -> None:
    """1, 2, 3 without moving a cursor: Benchmark's target is TRIM's highlighted filesystem, which TRIM
    opened on as the filesystem under Stack's cursor (one current filesystem before any choice, newuser21
    #5), said to be a suggestion from Stack; nothing is selected, so Advice afterwards shows every row."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        await settled(app, pilot)
        await visit(app, pilot, "2")
        trim = app.screen
        assert isinstance(trim, TrimScreen) and trim.selected
        highlighted = trim.selected
        await visit(app, pilot, "3")
        form = app.screen.query_one(BenchForm)
        assert form.directory == highlighted
        assert status(app).startswith(f"{highlighted} (suggested from Stack's cursor): press s to start")
        assert "pick one" not in status(app).lower()
        assert chosen(app) is None
        await visit(app, pilot, "4")
        advice = app.screen
        assert isinstance(advice, AdviceScreen) and advice.subject is None


async def test_a_typed_directory_is_never_replaced_by_a_suggestion(fixture_mounts: None,
                                                                  tmp_path: Path) -> None:
    """A directory the user typed on Benchmark stays when they come back from looking at TRIM."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await visit(app, pilot, "3")
        form = app.screen.query_one(BenchForm)
        form.query_one("#bench-dir").value = str(tmp_path)  # as typed
        await settled(app, pilot)
        await visit(app, pilot, "2")
        await visit(app, pilot, "3")
        assert form.directory == str(tmp_path)
        assert "suggested" not in status(app)


async def test_a_later_look_replaces_an_untouched_suggestion(fixture_mounts: None) -> None:
    """The suggestion follows the row looked at last while the user has not changed it; a row moved to
    on TRIM is a choice, said as before."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await visit(app, pilot, "2")
        await visit(app, pilot, "3")
        first = app.screen.query_one(BenchForm).directory
        await visit(app, pilot, "2")
        await pilot.press("down")
        await settled(app, pilot)
        await pilot.pause(0.2)  # the highlight's message reaches the screen
        moved = app.screen.selected
        assert moved and moved != first
        await visit(app, pilot, "3")
        assert app.screen.query_one(BenchForm).directory == moved
        assert f"{moved} (chosen on TRIM): press s to start" in status(app)
