"""Every list moves the same way, as less and k9s do: j/k, g or Home to the first row, G or End to the
last, on the Stack, TRIM, Advice, Runs and Monitor screens; the walkthroughs moved to Ctrl-G."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.guides.guide_menu import GuideMenu
from diskdoctor.app.tui.help_screen import HelpScreen
from test_runs_screen import three_runs
from test_tui_layout import open_advice, settle
from textual.widgets import DataTable, Tree

__all__ = ["three_runs"]

SCREENS = [("1", "#stack-tree"), ("2", "#trim-table"), ("4", "#advice-table"), ("5", "#runs-table"),
           ("6", "#monitor-table")]


def row_of(widget: DataTable | Tree) -> int:
    return widget.cursor_row if isinstance(widget, DataTable) else widget.cursor_line  # type: ignore[return-value]


def rows_of(widget: DataTable | Tree) -> int:
    return widget.row_count if isinstance(widget, DataTable) else widget.last_line + 1  # type: ignore[return-value]


@pytest.mark.parametrize(("key", "selector"), SCREENS, ids=[s for _, s in SCREENS])
async def test_g_goes_to_the_first_row_and_capital_g_to_the_last(three_runs: list[str], key: str,
                                                                 selector: str) -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        if key == "4":
            await open_advice(pilot)
        else:
            await settle(pilot)
            await pilot.press(key)
            await settle(pilot)
        widget = app.screen.query_one(selector)
        widget.focus()
        await pilot.pause()
        last = rows_of(widget) - 1
        assert last >= 2, selector
        for down, up in (("G", "g"), ("end", "home")):
            await pilot.press(down)
            await pilot.pause()
            assert row_of(widget) == last, (selector, down)
            await pilot.press("k")
            await pilot.pause()
            assert row_of(widget) == last - 1, (selector, "k")
            await pilot.press(up)
            await pilot.pause()
            assert row_of(widget) == 0, (selector, up)
            await pilot.press("j")
            await pilot.pause()
            assert row_of(widget) == 1, (selector, "j")
        assert not isinstance(app.screen, GuideMenu)  # g is a list key now, not the walkthroughs


async def test_ctrl_g_opens_the_walkthroughs_and_help_lists_the_list_keys() -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+g")
        await settle(pilot)
        assert isinstance(app.screen, GuideMenu)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        keys = dict(app.screen.keys)
        assert "g / G" in keys and "Home / End" in keys["g / G"] and "j / k" in keys
        assert keys.get("^g") is not None and "/" in keys  # the walkthroughs' key, and the Stack's filter
