"""The note a list gives when some of its rows are below the fold ("5 of 7 rows fit: ↓ for more"), so that
rows the screen does not show are never silently out of sight."""

from __future__ import annotations

from textual.widgets import DataTable


def fold_note(table: DataTable, heights: tuple[int, ...] | None = None) -> str:
    """"N of M rows fit: ↓ for more" when the table's height shows only the first N of its M rows whole
    (`heights`: each row's lines, 1 each by default), else ""."""
    count = len(heights) if heights is not None else table.row_count
    room = table.scrollable_content_region.height - (table.header_height if table.show_header else 0)
    shown = 0
    for lines in heights if heights is not None else (1,) * count:
        room -= lines
        if room < 0:
            break
        shown += 1
    return f"{shown} of {count} rows fit: ↓ for more" if 0 < shown < count else ""
