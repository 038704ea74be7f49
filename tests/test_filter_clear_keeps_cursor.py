"""Clearing a `/` filter keeps the cursor on the row the user moved to, as k9s and less do (newuser11 #2: Esc
on Stack put the cursor back on sda, on TRIM and Advice on another row of the same line number); the
filter's own jump, not moved from, is undone (tests/test_filter_jump_not_chosen.py)."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.widgets import StackTree
from test_tui import settled
from textual.widgets import DataTable


def _row_under_cursor(app: DiskDoctorApp) -> object:
    """What the user sees selected: the tree row's key, the finding of an Advice row, a table row's key."""
    screen = app.screen
    if screen.query(StackTree):
        return screen.query_one(StackTree).cursor_key()
    table = screen.focused
    assert isinstance(table, DataTable) and table.row_count
    if table.id == "advice-table":
        row = screen.rows[table.cursor_row]  # type: ignore[attr-defined]
        return (row.finding.id, row.subjects)
    return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value


@pytest.mark.parametrize(("key", "text"),
                         [("1", "pool_ignore-t"), ("2", "thin"), ("4", "thin"), ("6", "thin")])
async def test_esc_on_a_filter_keeps_the_row_the_cursor_was_on(key: str, text: str) -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press(key)
        await settled(app, pilot)
        await pilot.pause(0.3)  # a Monitor tick fills its rows
        await settled(app, pilot)
        await pilot.press("slash", *text, "enter")
        await settled(app, pilot)
        await pilot.pause(0.1)
        await pilot.press("j")  # the user's own row (a filter's jump alone is undone by Esc: newuser24 #12)
        await settled(app, pilot)
        before = _row_under_cursor(app)
        await pilot.press("escape")
        await settled(app, pilot)
        await pilot.pause(0.2)
        assert _row_under_cursor(app) == before
        if key == "1":
            assert app.screen.query_one(StackTree).cursor_line > 0  # not back on the first disk
