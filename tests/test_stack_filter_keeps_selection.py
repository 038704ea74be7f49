"""A kept Stack filter that hides the selection leaves it alone (newuser20 #1): visiting Stack only looks, so
TRIM and Advice go on showing the filesystem chosen elsewhere, and Stack's status line says it is hidden."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.selection import chosen
from diskdoctor.app.tui.stack_screen import StackScreen
from diskdoctor.app.tui.trim_screen import TrimScreen
from test_tui import settled

SIZES = [(80, 24), (120, 40), (200, 60)]


@pytest.mark.parametrize("size", SIZES)
async def test_a_filter_hiding_the_selection_chooses_nothing(size: tuple[int, int]) -> None:
    """`/raid0` Enter on Stack, another filesystem chosen on TRIM, then 1 and 2: TRIM still shows it."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=size) as pilot:
        await settled(app, pilot)
        await pilot.press("slash", *"raid0", "enter")
        await settled(app, pilot)
        await pilot.pause(0.1)
        await pilot.press("2")
        await settled(app, pilot)
        trim = app.screen
        assert isinstance(trim, TrimScreen) and trim.selected == "/lab/raid0"
        while trim.selected in (None, "/lab/raid0"):
            await pilot.press("down")
            await settled(app, pilot)
        wanted = trim.selected
        await pilot.press("1")
        await settled(app, pilot)
        await pilot.pause(0.1)
        stack = app.screen
        assert isinstance(stack, StackScreen) and stack.filter_text == "raid0"
        status = str(stack.query_one("#status").render())
        assert "hidden by the filter" in status, status
        await pilot.press("2")
        await settled(app, pilot)
        selection = chosen(app)
        assert selection is not None and selection.mountpoint == wanted
        assert isinstance(app.screen, TrimScreen) and app.screen.selected == wanted
