"""List layout defects a new user found in tmux (issue 23, third pass): the footer keeps quit, the report
and the palette's word at 80 columns; list titles never cut a figure; the `/` filter says what it keeps."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.widgets.fitted_footer import FittedFooter

LAB = "lab-ssd"


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def screen_lines(app: DiskDoctorApp) -> list[str]:
    """The screen as a new user reads it in `tmux capture-pane`: one string per row."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


@pytest.mark.parametrize("key", ["1", "2", "5", "6"], ids=["stack", "trim", "runs", "monitor"])
async def test_at_80_columns_the_footer_keeps_quit_report_and_the_palette_word(key: str) -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(key)
        await settle(pilot)
        await pilot.pause()
        footer = app.screen.query_one(FittedFooter)
        row = screen_lines(app)[footer.region.y]
        assert "q Quit" in row and "w Report" in row, row
        assert (" 1-6 " in row) if footer.short else ("123456 screens" in row), row
        assert row.rstrip().endswith("^p palette"), row
