"""Cells put in place repaint only themselves, rows taller than one line included (the Stack screen's
details: a value with its caveat beneath)."""

from __future__ import annotations

from diskdoctor.widgets.cell_updates import update_cells
from rich.text import Text
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widgets import DataTable


class Table(App[None]):
    def compose(self) -> ComposeResult:
        yield DataTable()


async def test_a_value_in_a_taller_row_is_put_in_and_only_its_cell_repainted() -> None:
    app = Table()
    async with app.run_test(size=(60, 12)) as pilot:
        table = app.query_one(DataTable)
        table.add_column("attribute", key="a", width=10)
        table.add_column("value", key="v", width=20)
        table.add_row("one", "1", key="r1", height=1)
        table.add_row("three", Text("x\ny\nz"), key="r3", height=3)
        table.add_row("two", Text("old\ncaveat"), key="r2", height=2)
        await pilot.pause()
        count = table._update_count
        repainted: list[Region] = []
        refresh = table.refresh

        def spy(*regions: Region, **kwargs: object) -> object:
            repainted.extend(regions)
            return refresh(*regions, **kwargs)  # type: ignore[arg-type]

        table.refresh = spy  # type: ignore[method-assign]
        update_cells(table, {("r2", "v"): Text("new\ncaveat")})
        await pilot.pause()
        assert table._update_count == count  # the rest of the table keeps its rendered cells
        x = table.columns["a"].get_render_width(table)  # type: ignore[index]
        # under the header (1) and the rows above (1 + 3): the whole two-line cell, nothing else
        assert repainted == [Region(x, 1 + 1 + 3, table.columns["v"].get_render_width(table), 2)]  # type: ignore[index]
        assert "new" in table.render_line(5).text and "caveat" in table.render_line(6).text
        assert "z" in table.render_line(4).text
