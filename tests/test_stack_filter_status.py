"""The Stack with a kept `/` filter says it once, with the right counts, and its status line keeps the
hidden columns' note beside a long verdict (newuser11 #6: `filter: pool_ignore-t (37 of 37)` on the filter
line beside `filter 'pool_ignore-t': 1 match` on the status line, and `+2 hidden` dropped)."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.widgets import StackTree, StatusLine
from test_list_layout import screen_lines
from test_tui import settled


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)])
@pytest.mark.parametrize("text", ["slow", "pool_ignore-t"])
async def test_a_kept_filter_is_said_once_and_the_hidden_note_stays(text: str, size: tuple[int, int]) -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=size) as pilot:
        await settled(app, pilot)
        await pilot.press("slash", *text, "enter")
        await settled(app, pilot)
        await pilot.pause(0.2)
        screen = "\n".join(screen_lines(app))
        assert screen.count(f"filter '{text}'") == 1, screen
        assert f"filter: {text}" not in screen
        bar = app.screen.query_one("#stack-filter")
        line = screen_lines(app)[bar.region.y]
        said = "2 matches" if text == "slow" else "1 match"  # newuser23 #13a: `2 match · 2 of 18 devices`
        assert f"filter '{text}': {said}" in line and "37 of 37" not in screen, line
        assert line.rstrip().endswith(("Esc clears", said)), line  # never cut mid-word
        title = str(app.screen.query_one("#stack-title").render())
        assert f"· {said} ·" in title, title
        status = app.screen.query_one(StatusLine).plain
        hidden = app.screen.query_one(StackTree).hidden_extra()
        if hidden:
            assert f"+{len(hidden)} hidden" in status, status
