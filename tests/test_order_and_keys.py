"""The keys every list shares work in the walkthrough menu and the help too, the help says how to close it
at every size, and a detail that is missing from a capture says so instead of a wrong reason."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.core.snapshot import read_snapshot
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.guides.catalog import guides
from diskdoctor.app.tui.guides.guide_menu import GuideMenu
from diskdoctor.app.tui.help_screen import HelpScreen
from diskdoctor.probes.layer_details import read_layer_details
from diskdoctor.widgets import StackTree
from diskdoctor.widgets.fitted_footer import FittedFooter
from support.guide_pilot import open_guide
from test_footer_and_fold_fit import footer_text, screen_lines
from test_runs_screen import three_runs
from test_tui_layout import settle
from textual.containers import ScrollableContainer
from textual.widgets import DataTable, OptionList

__all__ = ["three_runs"]


async def test_j_k_g_and_capital_g_move_in_the_walkthrough_menu() -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+g")
        await settle(pilot)
        assert isinstance(app.screen, GuideMenu)
        menu = app.screen.query_one(OptionList)
        assert menu.highlighted == 0 and menu.option_count >= 3
        await pilot.press("j", "j")
        assert menu.highlighted == 2
        await pilot.press("k")
        assert menu.highlighted == 1
        await pilot.press("G")
        assert menu.highlighted == menu.option_count - 1
        await pilot.press("g")
        assert menu.highlighted == 0
        await pilot.press("j", "enter")
        await settle(pilot)
        assert not isinstance(app.screen, GuideMenu)
        assert app.screen.guide.key == guides()[1].key  # type: ignore[attr-defined]


async def test_help_scrolls_with_j_k_g_capital_g_and_says_how_to_close_without_scrolling() -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        body = app.screen.query_one("#help-body", ScrollableContainer)
        assert body.max_scroll_y > 0  # the help is longer than 24 rows
        shown = "\n".join(screen_lines(app))
        assert "Esc, ? or F1 closes" in shown  # on the border, at scroll 0
        await pilot.press("j")
        await pilot.pause()
        assert body.scroll_y == 1
        await pilot.press("G")
        await pilot.pause()
        assert body.scroll_y == body.max_scroll_y
        await pilot.press("k")
        await pilot.pause()
        assert body.scroll_y == body.max_scroll_y - 1
        await pilot.press("g")
        await pilot.pause()
        assert body.scroll_y == 0
        await pilot.press("G", "g", "j", "j")  # typed in a row: each starts where the last left off
        await pilot.pause()
        assert body.scroll_y == 2
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)


def test_a_scsi_disk_without_a_vendor_file_says_it_is_not_in_the_capture() -> None:
    root = fixture_root("lab-ssd")
    sections = read_layer_details(root, read_snapshot(root).host, "sda")
    facts = {detail.label: detail.fact for section in sections for detail in section.details}
    assert facts["model"].value == "scsi_debug"
    assert facts["vendor"].value is None and facts["vendor"].why_unknown == "not in the capture"
    assert "SCSI disk" in (facts["transport"].why_unknown or "")
    assert "capture" in (facts["transport"].why_unknown or "")


async def trim_screen_order(pilot) -> list[str]:  # type: ignore[no-untyped-def]
    """The mountpoints as the TRIM screen lists them (worst first)."""
    await pilot.press("2")
    await settle(pilot)
    table = pilot.app.screen.query_one("#trim-table", DataTable)
    return [str(table.get_row_at(row)[0].plain if hasattr(table.get_row_at(row)[0], "plain")
                else table.get_row_at(row)[0]) for row in range(table.row_count)]


async def test_the_trim_walkthrough_offers_filesystems_in_the_trim_screens_order() -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        listed = await trim_screen_order(pilot)
        screen = await open_guide(pilot, "trim")
        assert screen.view is not None
        offered = [choice.value for choice in screen.view.choices]
        assert offered == [point for point in listed if point in offered] and len(offered) >= 3
        page_text = "\n".join(screen_lines(app))
        assert page_text.index("TRIM BLOCKED") < page_text.index("TRIM UNSCHEDULED")


async def test_the_stack_mounts_down_view_is_in_the_trim_screens_order() -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        listed = await trim_screen_order(pilot)
        await pilot.press("1")
        await settle(pilot)
        await pilot.press("v")
        await settle(pilot)
        tree = app.screen.query_one(StackTree)
        tops = [str(node.data.name) for node in tree.root.children]  # type: ignore[union-attr]
        assert tops == [point for point in listed if point in tops] and len(tops) >= 3
        assert tops.index("/lab/luks1") < tops.index("/lab/data")  # BLOCKED above UNSCHEDULED


@pytest.mark.parametrize(("size", "key"), [((200, 60), "1"), ((200, 60), "2"),
                                           ((200, 60), "4"), ((200, 60), "5"), ((200, 60), "6")],
                         ids=["200-stack", "200-trim", "200-advice", "200-runs", "200-monitor"])
async def test_a_one_line_footer_shows_the_screens_keys_first_then_the_same_everywhere_ones(
        three_runs: list[str], size: tuple[int, int], key: str) -> None:
    """newuser7: `F1 Help ^g Guides space Pick c Clear picks r Reload / Filter q Quit w Report  123456
    screens` mixed the Runs screen's keys into the app's. (Runs at 120 no longer takes one line: every
    top-level screen's footer takes two there, test_chrome_steady.py.)"""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press(key)
        await settle(pilot)
        footer = app.screen.query_one(FittedFooter)
        assert footer.lines == 1
        line = footer_text(app)
        own, _, app_wide = line.partition(" │ ")
        assert app_wide.startswith("F1 Help ^g Guides q Quit w Report  1-6 screens"), line
        assert "F1" not in own and "/ Filter" in own and "Quit" not in own, line


async def test_a_two_line_footer_keeps_the_screens_keys_above_the_app_keys() -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        own, app_wide = footer_text(app).splitlines()
        assert own.split() == ["Space/⏎", "Pick", "c", "Clear", "picks", "r", "Reload", "/", "Filter"]
        assert app_wide.startswith("F1 Help ^g Guides q Quit w Report  1-6 screens")
