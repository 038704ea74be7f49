"""A `/` filter's jump to its first match is not a choice, and Esc puts back the row held before `/`
(newuser24 #12: Monitor `/newuser24` moved the one selection from xfs to ext4, Stack `/xfs` to loop1, and
Esc left it there, so every other screen showed the first match). Enter keeps the filter and chooses its
match (newuser11 #1); Esc on that match, the cursor not moved since, puts the earlier selection back."""

from __future__ import annotations

from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.monitor_screen import MonitorScreen
from diskdoctor.app.tui.selection import Selection, chosen
from diskdoctor.app.tui.stack_screen import StackScreen
from diskdoctor.widgets import StackTree
from test_tui import settled
from textual.pilot import Pilot

LAB = "lab-ssd"
SIZE = (120, 40)


async def _go(app: DiskDoctorApp, pilot: Pilot[object], *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await settled(app, pilot)
        await pilot.pause(0.1)
        await settled(app, pilot)


def _stack_key(app: DiskDoctorApp) -> str | None:
    assert isinstance(app.screen, StackScreen)
    return app.screen.query_one(StackTree).cursor_key()


def _subject(selection: Selection | None) -> tuple[str | None, str | None]:
    assert selection is not None
    return selection.kname, selection.mountpoint


async def test_stack_esc_after_typing_puts_the_row_back() -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=SIZE) as pilot:
        await settled(app, pilot)
        await _go(app, pilot, "down", "down", "2", "1")  # a row chosen on Stack
        held, mine = _subject(chosen(app)), _stack_key(app)
        await _go(app, pilot, "slash", *"thin")
        assert _stack_key(app) != mine  # the cursor on the first match while typing
        await _go(app, pilot, "escape")
        assert _stack_key(app) == mine
        await _go(app, pilot, "2")
        assert _subject(chosen(app)) == held


async def test_stack_enter_chooses_the_match_and_esc_puts_the_selection_back() -> None:
    """Enter keeps the filter and chooses its match (newuser11 #1); Esc on it, the user not having moved,
    puts back the row and the selection held before `/`."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=SIZE) as pilot:
        await settled(app, pilot)
        await _go(app, pilot, "down", "down", "2", "1")
        held, mine = _subject(chosen(app)), _stack_key(app)
        await _go(app, pilot, "slash", *"thin", "enter", "2")
        assert _subject(chosen(app)) != held
        await _go(app, pilot, "1", "escape")
        assert _stack_key(app) == mine and _subject(chosen(app)) == held
        await _go(app, pilot, "2")
        assert _subject(chosen(app)) == held


async def _monitor_with_a_choice(app: DiskDoctorApp, pilot: Pilot[object]) -> MonitorScreen:
    await settled(app, pilot)
    await _go(app, pilot, "6")
    await pilot.pause(0.3)  # a tick fills the rows
    await _go(app, pilot, "down", "down", "down", "2", "6")  # a row chosen on Monitor
    assert isinstance(app.screen, MonitorScreen)
    return app.screen


async def test_monitor_esc_after_typing_puts_the_row_back() -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=SIZE) as pilot:
        screen = await _monitor_with_a_choice(app, pilot)
        held, mine = _subject(chosen(app)), screen._selected_key()
        await _go(app, pilot, "slash", *"raid0")
        assert screen._selected_key() != mine
        await _go(app, pilot, "escape")
        assert screen._selected_key() == mine
        await _go(app, pilot, "2")
        assert _subject(chosen(app)) == held


async def test_monitor_enter_chooses_the_match_and_esc_puts_the_selection_back() -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=SIZE) as pilot:
        screen = await _monitor_with_a_choice(app, pilot)
        held, mine = _subject(chosen(app)), screen._selected_key()
        await _go(app, pilot, "slash", *"raid0", "enter", "2")
        assert _subject(chosen(app)) != held
        await _go(app, pilot, "6", "escape")
        assert screen._selected_key() == mine and _subject(chosen(app)) == held
        await _go(app, pilot, "2")
        assert _subject(chosen(app)) == held
