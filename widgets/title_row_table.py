"""A fitted DataTable whose title rows (a first cell and no figures) use the row's whole width, so a long
title such as a filesystem's mountpoint is shown whole instead of cut to the first column (a table wider
than its columns, sized for a long title, gives the title that width too).

Tied to the pinned Textual's DataTable internals (`_render_line_in_row` and its style helpers), as
widgets/cell_updates.py is; a table with fixed columns or row labels is drawn as DataTable draws it."""

from __future__ import annotations

from collections.abc import Callable

from rich.cells import cell_len
from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.coordinate import Coordinate
from textual.renderables.styled import Styled
from textual.widgets.data_table import RowKey

from .fit_text import labelled_path_ellipsis, middle_ellipsis
from .fitted_table import FittedTable


class TitleRowTable(FittedTable):
    """A row whose only text is in its first cell flows that text over its empty cells (a path cut at a "/"
    only when the whole row is too narrow); every other row is drawn as DataTable draws it, except that with
    `spill_first` a first cell longer than its column takes the blank start of the next cell (a figure
    right-aligned under a wider heading) before it is cut in the middle."""

    spill_first = False
    """Set by a table whose figures do not change under it (a capture's one reading): a name that spills
    by a figure's blank cells would otherwise be cut one way, then another, as the figure changes."""

    def title_of(self, row_index: int) -> Text | None:
        """The row's first cell when every other cell is empty (a title row), else None."""
        if row_index < 0 or len(self.columns) < 2:
            return None
        cells = self._get_row_renderables(row_index).cells
        first, rest = cells[0], cells[1:]
        if not isinstance(first, Text) or not first.plain:
            return None
        return first if all(isinstance(cell, Text) and not cell.plain for cell in rest) else None

    def _render_line_in_row(self, row_key: RowKey, line_no: int, base_style: Style,
                            cursor_location: Coordinate,
                            hover_location: Coordinate) -> tuple[list[list[Segment]], list[list[Segment]]]:
        fixed, scrollable = super()._render_line_in_row(row_key, line_no, base_style, cursor_location,
                                                        hover_location)
        if line_no or self.fixed_columns or (self._labelled_row_exists and self.show_row_labels):
            return fixed, scrollable
        row_index = self._row_locations.get(row_key) if row_key in self._row_locations else -1
        title = self.title_of(row_index)
        if title is None:
            return fixed, self._spilled(row_index, base_style, cursor_location, hover_location, scrollable)
        columns = sum(column.get_render_width(self) for column in self.ordered_columns)
        width = max(columns, self.scrollable_content_region.width)  # the table's width when it is wider
        line = self._first_cell(title, width, row_index, base_style, cursor_location, hover_location,
                                labelled_path_ellipsis)
        return fixed, [line, scrollable[-1]]  # the last part is DataTable's fill to the widget's edge

    def spills(self, row_index: int) -> bool:
        """Whether the row's first cell is longer than its column (drawn over the next cell's blank start,
        so a change of that cell repaints the first too)."""
        if not self.spill_first or row_index < 0 or len(self.columns) < 2:
            return False
        first = self._get_row_renderables(row_index).cells[0]
        return isinstance(first, Text) and first.cell_len > self.ordered_columns[0].width

    def _spilled(self, row_index: int, base_style: Style, cursor_location: Coordinate,
                 hover_location: Coordinate, scrollable: list[list[Segment]]) -> list[list[Segment]]:
        """The row's cells with a too-long first cell widened over the next cell's leading blanks (two
        blank cells kept between them), then cut in the middle."""
        if not self.spills(row_index) or len(scrollable) < 3:
            return scrollable
        first = self._get_row_renderables(row_index).cells[0]
        assert isinstance(first, Text)
        column = self.ordered_columns[0]
        after = "".join(segment.text for segment in scrollable[1])
        blank = len(after) - len(after.lstrip(" "))
        spill = max(min(first.cell_len - column.width, blank - self.cell_padding), 0)
        width = column.get_render_width(self) + spill
        line = self._first_cell(first, width, row_index, base_style, cursor_location, hover_location)
        rest = list(Segment.divide(scrollable[1], [spill, cell_len(after)]))[1]
        return [line, rest, *scrollable[2:]]

    def _first_cell(self, text: Text, width: int, row_index: int, base_style: Style,
                    cursor_location: Coordinate, hover_location: Coordinate,
                    cut_to: Callable[[str, int], str] = middle_ellipsis) -> list[Segment]:
        """The row's first cell drawn `width` cells wide (padding included), its text cut by `cut_to` (a
        title's mountpoint at a "/", its last folder whole; a name in its middle)."""
        cursor_type = self.cursor_type
        cursor = self._should_highlight(cursor_location, Coordinate(row_index, 0), cursor_type)
        hover = self._should_highlight(hover_location, Coordinate(row_index, 0), cursor_type)
        component, post = self._get_styles_to_render_cell(
            False, False, False, hover, cursor, self.show_cursor, self._show_hover_cursor,
            self.cursor_foreground_priority == "css", self.cursor_background_priority == "css")
        pre = self._get_row_style(row_index, base_style) + Style.from_meta({"row": row_index, "column": 0})
        cut = Text(cut_to(text.plain, width - 2 * self.cell_padding), style=text.style,
                   no_wrap=True, end="")
        options = self.app.console_options.update_dimensions(width, 1).update(no_wrap=True)
        return self.app.console.render_lines(
            Styled(Padding(cut, (0, self.cell_padding)), pre_style=pre + component, post_style=post),
            options)[0]
