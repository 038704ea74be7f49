"""Update cells of a DataTable in place and repaint only those cells, for tables refreshed every second.

Textual's `DataTable.update_cell` repaints the whole table: it bumps the table's update count, which every
render cache of the table (cells, rows, lines) is keyed on, so the next frame renders every visible cell
again through Rich and writes every line of the table to the terminal. On the Monitor screen that was
most of an idle tick's CPU. Here the new values go in, only the changed rows' cached renders are dropped,
and only the changed cells are marked for repainting. A row taller than one line (a value with its caveat
beneath) keeps its height: the new value must take as many lines. Tied to Textual's DataTable internals
(the pinned version's); a table with fixed rows or columns, or rows of automatic height, takes the plain
path.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textual.geometry import Region
from textual.widgets import DataTable
from textual.widgets.data_table import CellDoesNotExist, ColumnKey, RowKey


def update_cells(table: DataTable[Any], changes: Mapping[tuple[str, str], object]) -> None:
    """Set each (row key, column key) cell to its new value and repaint those cells alone."""
    if not changes:
        return
    rows, data = table.rows, table._data
    for row, column in changes:
        if RowKey(row) not in table._row_locations or ColumnKey(column) not in table._column_locations:
            raise CellDoesNotExist(f"No cell exists for row_key={row!r}, column_key={column!r}.")
    if table.fixed_columns or table.fixed_rows or any(rows[RowKey(row)].auto_height for row, _ in changes):
        for (row, column), value in changes.items():
            table.update_cell(row, column, value)
        return
    for (row, column), value in changes.items():
        data[RowKey(row)][ColumnKey(column)] = value
    changed = {RowKey(row) for row, _ in changes}
    cells = {(RowKey(row), ColumnKey(column)) for row, column in changes}
    cell_cache, row_cache = table._cell_render_cache, table._row_render_cache  # LRUCache: no __iter__
    for key in [key for key in cell_cache.keys() if key[:2] in cells]:  # noqa: SIM118 keyed (row, column, ...)
        cell_cache.discard(key)
    for key in [key for key in row_cache.keys() if key[0] in changed]:  # noqa: SIM118 keyed (row, ...)
        row_cache.discard(key)
    for row_key in changed:
        table._row_renderable_cache.discard((table._update_count, table._row_locations.get(row_key)))
    table._line_cache.clear()  # keyed by screen line; its rows come from the caches above
    _repaint(table, changes)


def _repaint(table: DataTable[Any], changes: Mapping[tuple[str, str], object]) -> None:
    """Mark the changed cells dirty (each as tall as its row); a title row's text flows over its empty
    cells, so its whole row is."""
    left, lefts = table._row_label_column_width, {}
    for column in table.ordered_columns:
        width = column.get_render_width(table)
        lefts[column.key] = (left, width)
        left += width
    tops = _row_tops(table)
    window = table.window_region
    title_of = getattr(table, "title_of", None)  # a title row is drawn across its row (TitleRowTable)
    spills = getattr(table, "spills", None)  # and a long first cell over the next one's blank start
    next_to_first = str(table.ordered_columns[1].key.value) if len(table.ordered_columns) > 1 else None
    regions = []
    for row, column in changes:
        x, width = lefts[ColumnKey(column)]
        index = table._row_locations.get(RowKey(row))
        if title_of is not None and title_of(index) is not None:
            right = max(left, table.scrollable_content_region.width)  # a table wider than its columns
            x, width = table._row_label_column_width, right - table._row_label_column_width
        elif column == next_to_first and spills is not None and spills(index):  # the first spills over it
            start = lefts[table.ordered_columns[0].key][0]
            x, width = start, x + width - start
        line, height = tops[RowKey(row)]
        region = Region(x, line, width, height)
        if window.overlaps(region):
            regions.append(region.translate(-table.scroll_offset))
    if regions:
        table.refresh(*regions)


def _row_tops(table: DataTable[Any]) -> dict[RowKey, tuple[int, int]]:
    """Each row's first line (the sum of the heights above it, under the header) and height; kept on the
    table until its rows change (values put in here leave the update count alone)."""
    kept = getattr(table, "_cell_updates_tops", None)
    if kept is not None and kept[0] == table._update_count:
        return kept[1]
    tops, y = {}, table.header_height if table.show_header else 0
    for row in table.ordered_rows:
        tops[row.key] = (y, row.height)
        y += row.height
    table._cell_updates_tops = (table._update_count, tops)  # type: ignore[attr-defined]
    return tops
