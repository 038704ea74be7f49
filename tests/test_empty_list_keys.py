"""Arrow keys over a list that holds nothing (every row filtered out) change nothing and keep the app up, on
every screen with a `/` filter."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from test_runs_screen import three_runs
from textual.widgets import DataTable

__all__ = ["three_runs"]

SIZE = (150, 40)


@pytest.mark.parametrize(("screen_key", "table_id"), [("2", "#trim-table"), ("4", "#advice-table"),
                                                     ("5", "#runs-table"), ("6", "#monitor-table")])
async def test_arrow_keys_on_an_empty_filtered_list(three_runs: list[str], screen_key: str,
                                                    table_id: str) -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press(screen_key)
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("slash", *"no such thing", "enter")
        await pilot.pause()
        table = app.screen.query_one(table_id, DataTable)
        assert table.row_count == 0
        table.focus()
        await pilot.press("down", "up", "j", "k", "G", "g", "end", "home", "space")
        await pilot.pause()
        assert app.is_running and app._exception is None
        assert table.row_count == 0
