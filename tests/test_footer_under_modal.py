"""The footer under the palette and a dialog keeps its keys (newuser13, issue 23): at 80 columns it dropped
`F1 Help` (help is off while a modal is up, and the footer beneath was fitted again for that)."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.widgets.fitted_footer import FittedFooter
from test_monitor_layout import open_monitor
from textual.widgets._footer import FooterKey


def _actions(footer: FittedFooter) -> list[str]:
    return [key.action for key in footer.query(FooterKey)]


@pytest.mark.parametrize("opener", ["ctrl+p", "w"], ids=["palette", "report dialog"])
async def test_the_footer_under_a_modal_keeps_f1_help(opener: str) -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_monitor(pilot)
        footer = screen.query_one(FittedFooter)
        before = _actions(footer)
        assert "help" in before
        await pilot.press(opener)
        await pilot.pause(0.3)
        assert app.screen is not screen  # the modal is up
        assert _actions(screen.query_one(FittedFooter)) == before
        await pilot.press("escape")
        await pilot.pause(0.3)
        assert app.screen is screen and _actions(screen.query_one(FittedFooter)) == before
