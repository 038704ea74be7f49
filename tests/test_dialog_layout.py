"""Dialogs and walkthrough lists sized from the window and their content (issue 23, a new user in tmux):
the guides menu and the report dialog grow with the window, a wrapped description keeps its indent, the
report's path shows whole where it fits, a step's list shows every choice, and the "Report written" notice
breaks its path at a "/"."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui import report_dialog
from diskdoctor.app.tui.app import DiskDoctorApp
from support.guide_pilot import open_guide, settle
from test_layout_defects import SIZE_IDS, SIZES, screen_lines
from textual.widgets import Input, OptionList

REPORTS = "/root/.local/state/diskdoctor/reports"
"""The folder a new user's report went to (its path was cut at its start at 200 columns)."""
ABOUT = "data dir, stack, TRIM, WAL benchmark alone and under compaction, verdict and fixes"


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_guides_menu_grows_with_the_window_and_keeps_the_indent(size: tuple[int, int]) -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+g")
        await settle(pilot)
        menu = app.screen.query_one(OptionList)
        lines = [line[menu.content_region.x:menu.content_region.right] for line in screen_lines(app)
                 [menu.content_region.y:menu.content_region.bottom]]
        about = [line for line in lines if line.strip() and not line.startswith(("Is ", "Why "))]
        assert len(about) >= 4 and all(line.startswith("  ") for line in about), lines  # the hanging indent
        if size[0] >= 120:  # room for every description on one line
            assert any(line.strip() == ABOUT for line in lines), lines
        assert app.screen.query_one(".dialog").region.width == min(140, size[0] * 9 // 10)


@pytest.mark.parametrize("size", SIZES[1:], ids=SIZE_IDS[1:])
async def test_report_field_shows_the_whole_path_where_it_fits(size: tuple[int, int],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(report_dialog, "default_report_dir", lambda: REPORTS)
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        field = app.screen.query_one("#report-path", Input)
        assert field.value.startswith(REPORTS + "/diskdoctor-")
        row = screen_lines(app)[field.content_region.y]
        assert field.value in row, row


async def test_a_step_list_shows_every_filesystem_when_there_is_room() -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await open_guide(pilot, "trim")
        choices = screen.query_one("#guide-choices", OptionList)
        assert choices.option_count >= 10  # the capture's filesystems, each on two lines
        assert choices.max_scroll_y == 0 and choices.region.height == choices.option_count * 2 + 2


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_the_report_written_notice_breaks_the_path_only_after_a_slash(
        size: tuple[int, int], monkeypatch: pytest.MonkeyPatch, private_state_dir) -> None:  # type: ignore[no-untyped-def]
    from test_report_dialog import open_dialog, write_to
    folder = private_state_dir / "diskdoctor" / "reports"
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=size) as pilot:
        dialog = await open_dialog(app, pilot)
        path = dialog.query_one("#report-path", Input).value
        assert (await write_to(app, pilot, path)).startswith("Wrote ")
        notices = [n.message for n in app._notifications if n.title.startswith("Report written: ")]
        assert len(notices) == 1
        lines = notices[0].split("\n")
        text_width = size[0] - 4  # the notice: as wide as the screen at most (app.tcss)
        if len(lines) == 1:  # the whole path fits on one line
            assert lines[0] == path and len(path) <= text_width, lines
            return
        assert lines[-1] == path.rsplit("/", 1)[1], lines  # the file name whole, on its own line
        assert all(line.endswith("/") and len(line) <= text_width for line in lines[:-1]), lines
        assert "".join(lines[:-1]) == f"{folder}/", lines


THUMBS = "▁▂▃▄▅▆▇"
"""A scrollbar thumb's glyphs (the help and the dialogs' borders use █, ▀ and ▄; a capture's Monitor no
sparkline)."""


async def test_no_scrollbar_of_the_screen_shows_beside_a_dialog() -> None:
    """newuser12 #9: at 80x24 the screen's scrollbar thumbs showed beside the guides menu (`▎  █  ▇▇`): a
    screen under a dialog is drawn without its scrollbars."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        await pilot.pause(0.3)
        assert any(line[-2:] in (2 * thumb for thumb in THUMBS) for line in screen_lines(app))  # there before
        await pilot.press("ctrl+g")
        await settle(pilot)
        dialog = app.screen.query_one(".dialog").region
        beside = [line[dialog.right:] for line in screen_lines(app)[dialog.y:dialog.bottom]]
        assert not any(glyph in part for part in beside for glyph in THUMBS), beside
        await pilot.press("escape")
        await settle(pilot)
        assert any(line[-2:] in (2 * thumb for thumb in THUMBS) for line in screen_lines(app))  # and after


async def test_the_help_leaves_a_cell_before_its_scrollbar() -> None:
    """newuser12 #9: F1 on Monitor at 80x24 ran its text into the scrollbar (`noisy neighbour on a▂▂ █`):
    a blank cell stays between every line and the thumb, and the text wraps (never cut with …)."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)
        lines = screen_lines(app)[1:-1]
        thumbs = [line for line in lines if line[-4:-2] in (2 * thumb for thumb in THUMBS) or
                  line[-4:-2] == "██"]
        assert thumbs and all(line[-5] == " " for line in thumbs), thumbs
        assert not any("…" in line for line in lines), lines
