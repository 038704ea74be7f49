"""TRIM's table after the terminal shrinks: every column on screen, as in a fresh launch (newuser21 #1:
long-names at 200x60 then 120x40 left only `Mountpoint` and a horizontal scrollbar)."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from test_tui import settled
from textual.widgets import DataTable


@pytest.mark.parametrize("sizes", [((200, 60), (120, 40)), ((200, 60), (80, 24)), ((120, 40), (80, 24))],
                         ids=lambda sizes: f"{sizes[0][0]}to{sizes[1][0]}")
async def test_every_column_fits_after_the_terminal_shrinks(sizes: tuple[tuple[int, int], ...]) -> None:
    first, then = sizes
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=first) as pilot:
        await settled(app, pilot)
        await pilot.press("2")
        await settled(app, pilot)
        await pilot.resize_terminal(*then)
        await settled(app, pilot)
        await pilot.pause(0.2)
        table = app.screen.query_one("#trim-table", DataTable)
        assert table.virtual_size.width <= table.size.width, (table.virtual_size, table.size)
        assert table.scroll_x == 0
        fresh = DiskDoctorApp(fixture_root("long-names"))
        async with fresh.run_test(size=then) as again:
            await settled(fresh, again)
            await again.press("2")
            await settled(fresh, again)
            other = fresh.screen.query_one("#trim-table", DataTable)
            widths = [column.get_render_width(table) for column in table.columns.values()]
            assert widths == [column.get_render_width(other) for column in other.columns.values()]
