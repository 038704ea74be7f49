"""A fitted DataTable whose title rows (a first cell and no figures) use the row's whole width, so a long
title such as a filesystem's mountpoint is shown whole instead of cut to the first column (a table wider
than its columns, sized for a long title, gives the title that width too).

Tied to the pinned Textual's DataTable internals (`_render_line_in_row` and its style helpers), as
widgets/cell_updates.py is; a table with fixed columns or row labels is drawn as DataTable draws it."""

from __future__ import annotations

from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.coordinate import Coordinate
from textual.renderables.styled import Styled
from textual.widgets.data_table import RowKey

from .fit_text import middle_ellipsis
from .fitted_table import FittedTable


class TitleRowTable(FittedTable):
    """A row whose only text is in its first cell flows that text over its empty cells (cut in the middle
    only when the whole row is too narrow); every other row is drawn as DataTable draws it."""

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
            return fixed, scrollable
        columns = sum(column.get_render_width(self) for column in self.ordered_columns)
        width = max(columns, self.scrollable_content_region.width)  # the table's width when it is wider
        cursor_type = self.cursor_type
        cursor = self._should_highlight(cursor_location, Coordinate(row_index, 0), cursor_type)
        hover = self._should_highlight(hover_location, Coordinate(row_index, 0), cursor_type)
        component, post = self._get_styles_to_render_cell(
            False, False, False, hover, cursor, self.show_cursor, self._show_hover_cursor,
            self.cursor_foreground_priority == "css", self.cursor_background_priority == "css")
        pre = self._get_row_style(row_index, base_style) + Style.from_meta({"row": row_index, "column": 0})
        text = Text(middle_ellipsis(title.plain, width - 2 * self.cell_padding), style=title.style,
                    no_wrap=True, end="")
        options = self.app.console_options.update_dimensions(width, 1).update(no_wrap=True)
        line = self.app.console.render_lines(
            Styled(Padding(text, (0, self.cell_padding)), pre_style=pre + component, post_style=post),
            options)[0]
        return fixed, [line, scrollable[-1]]  # the last part is DataTable's fill to the widget's edge
