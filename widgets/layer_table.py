"""The details of one layer: attribute and value, with the caveat or the source beneath it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rich._wrap import divide_line
from rich.cells import cell_len
from rich.text import Text
from textual.events import Resize
from textual.geometry import Size
from textual.reactive import reactive
from textual.widgets import DataTable

from .cell_updates import update_cells
from .fit_text import fit_path, middle_ellipsis

LABEL_WIDTH = 22
"""The attribute column's widest; it is as wide as the widest label shown when that is less."""
MIN_LABEL_WIDTH = len("attribute")
MIN_VALUE_WIDTH = 20
CELL_PADDING = 4
PATH_INDENT = "  "
"""In front of the rest of a path that goes on to the next line."""


@dataclass(frozen=True, slots=True)
class DetailRow:
    """One attribute: its display value (or why it is unknown), source path and caveat."""

    label: str
    value: str
    source: str
    note: str = ""
    known: bool = True


@dataclass(frozen=True, slots=True)
class DetailGroup:
    """A titled group of rows (Identity, Queue, md RAID...)."""

    title: str
    rows: tuple[DetailRow, ...]


def wrapped_height(text: str, width: int) -> int:
    """Lines `text` takes when Rich folds it into `width` cells (what Text.wrap gives with overflow
    "fold"), counted from Rich's own line breaker without rendering any segment."""
    lines = 0
    for line in text.split("\n"):
        if "\t" in line:
            line = line.expandtabs(8)
        lines += 1 if cell_len(line) <= width else len(divide_line(line, width, fold=True)) + 1
    return lines


def split_title(title: str, label_width: int, value_width: int) -> tuple[str, str]:
    """A group title as its attribute cell and the rest beside it in the value cell: whole in the attribute
    cell when it fits there, else its words that fit there and the rest after them ("filesystem on" and the
    mountpoint), a path in that rest cut at a "/" with an ellipsis only where the value cell is too narrow
    (a title cut to the attribute column read `filesystem on /tmp/new` with 80 free columns, newuser16)."""
    if cell_len(title) <= label_width:
        return title, ""
    head = ""
    for word in title.split(" "):
        joined = f"{head} {word}" if head else word
        if cell_len(joined) > label_width:
            break
        head = joined
    rest = title[len(head):].lstrip(" ")
    if cell_len(rest) <= value_width:
        return head, rest
    words = rest.rsplit(" ", 1)
    if len(words) == 2 and words[1].startswith("/") and cell_len(words[0]) + 1 + 3 <= value_width:
        return head, f"{words[0]} {fit_path(words[1], value_width - cell_len(words[0]) - 1)}"
    cut = fit_path if rest.startswith("/") else middle_ellipsis
    return head, cut(rest, value_width)


def _path_pieces(word: str) -> list[str]:
    """A path split after each "/" ("/sys/", "block/", "loop5") so it can wrap where a reader expects."""
    pieces, start = [], 0
    for index, char in enumerate(word):
        if char == "/" and 0 < index < len(word) - 1:
            pieces.append(word[start:index + 1])
            start = index + 1
    pieces.append(word[start:])
    return [piece for piece in pieces if piece]


def label_lines(label: str, width: int) -> str:
    """A row label in lines of at most `width` cells, broken after a "-", "_" or space where it has one
    (`vg_elasticsearch_hot-` / `lv_postgresql_write_` / `ahead_log (lvm)`, not `vg_elasticsearch_hot-l` /
    `v_postgresql_write_ahe` / `ad_log (lvm)` folded mid-word in the TRIM path), folded only where not."""
    if cell_len(label) <= width or width < 1:
        return label
    pieces = [piece for piece in re.split(r"(?<=[-_ ])", label) if piece]
    lines, current = [], ""
    for piece in pieces:
        if cell_len(current + piece) <= width:
            current += piece
            continue
        if current:
            lines.append(current.rstrip())
        chunks = _fold(piece, width) if cell_len(piece) > width else [piece]
        lines.extend(chunks[:-1])
        current = chunks[-1]
    return "\n".join([*lines, current.rstrip()])


def _fold(piece: str, width: int) -> list[str]:
    """A piece wider than a line cut into line-wide chunks (a word without anywhere better to break)."""
    chunks, current = [], ""
    for char in piece:
        if current and cell_len(current + char) > width:
            chunks.append(current)
            current = ""
        current += char
    return [*chunks, current] if current else chunks


def wrap_value(text: str, width: int) -> list[str]:
    """`text` as lines of at most `width` cells: words whole, a path longer than a line broken after a "/"
    with PATH_INDENT before its continuation, only a word with no "/" cut mid-word."""
    width = max(width, len(PATH_INDENT) + 1)
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            joined = f"{line} {word}" if line else word
            if cell_len(joined) <= width:
                line = joined
                continue
            if cell_len(word) <= width:  # a word a line holds goes whole to the next line
                lines.append(line)
                line = word
                continue
            pieces = _path_pieces(word) if "/" in word.strip("/") else [word]
            continuing = False
            for piece in pieces:
                joined = (line + piece) if continuing else (f"{line} {piece}" if line else piece)
                if cell_len(joined) <= width:
                    line, continuing = joined, True
                    continue
                if line:
                    lines.append(line)
                indent = continuing and len(pieces) > 1 and cell_len(PATH_INDENT + piece) <= width
                prefix = PATH_INDENT if indent else ""  # a piece a line holds only unindented: no indent
                chunks = _fold(piece, width - len(prefix))
                lines.extend(prefix + chunk for chunk in chunks[:-1])
                line, continuing = prefix + chunks[-1], True
        lines.append(line)
    return lines


@dataclass(frozen=True, slots=True)
class _Line:
    """One table row as drawn: its key, attribute cell, height, and what its value cell was made from."""

    key: str
    label: str
    height: int
    value: tuple[tuple[str, ...], tuple[str, ...], bool]
    """The value's wrapped lines, those of the line under it, and whether it is known (the value cell is
    made from these)."""
    title: bool = False


class LayerTable(DataTable):
    """A read-only table of detail groups; `show_sources` swaps each caveat for its source.

    The next layer's details often have rows as tall as the last's (a sibling partition or volume): then
    only the attributes and values that differ are put in and repainted (widgets/cell_updates.py), instead of
    clearing the table and rendering every visible cell again on every cursor move."""

    DEFAULT_CSS = """
    LayerTable { height: 1fr; overflow-y: scroll; }
    """

    show_sources: reactive[bool] = reactive(False)
    """When true the line under each value shows where it was read."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=False)
        self._groups: list[DetailGroup] = []
        self._built_width = 0
        self._shown: tuple[tuple[int, int, bool], list[_Line]] | None = None
        """The column widths and rows on screen, to tell whether the next groups fit the same rows."""

    def on_mount(self) -> None:
        self._rebuild()

    def on_resize(self, event: Resize) -> None:
        if event.size.width != self._built_width:
            self._rebuild()

    def show_groups(self, groups: list[DetailGroup]) -> None:
        """Display these groups, replacing what was shown (in place when they have the same rows)."""
        self._groups = groups
        self._rebuild()

    def watch_show_sources(self, _old: bool, _new: bool) -> None:
        self._rebuild()

    def extra_text(self, row: DetailRow) -> str:
        """The line shown under a value: its source, or its caveat."""
        return f"from {row.source}" if self.show_sources else row.note

    def _widths(self) -> tuple[int, int]:
        """The attribute column LABEL_WIDTH wide (narrower only where the pane leaves the values less than
        MIN_VALUE_WIDTH), the value column the rest: one width per pane width, whatever the row's labels,
        so the values stay in one column as the cursor moves (newuser22 #11: 21 cells for vda, 23 for a
        loop device)."""
        spare = self.size.width - MIN_VALUE_WIDTH - CELL_PADDING - 2
        label_width = max(MIN_LABEL_WIDTH, min(LABEL_WIDTH, spare))
        return label_width, max(MIN_VALUE_WIDTH, self.size.width - label_width - CELL_PADDING - 2)

    def _lines(self, label_width: int, value_width: int) -> list[_Line]:
        """The rows for the groups: a title row per group, then one row per attribute, as tall as its
        wrapped value and the line under it (counted here instead of height=None, which renders every
        cell of every row once more just to measure it)."""
        lines = []
        for group_index, group in enumerate(self._groups):
            head, rest = split_title(group.title, label_width, value_width)
            lines.append(_Line(f"group-{group_index}", head, 1, ((rest,) if rest else (), (), True),
                               title=True))
            for row_index, row in enumerate(group.rows):
                extra = self.extra_text(row)
                value = tuple(wrap_value(row.value, value_width))
                under = tuple(wrap_value(extra, value_width)) if extra else ()
                label = label_lines(row.label, label_width)
                height = max(wrapped_height(label, label_width), len(value) + len(under))
                lines.append(_Line(f"row-{group_index}-{row_index}", label, height,
                                   (value, under, row.known)))
        return lines

    @staticmethod
    def _label_cell(line: _Line) -> Text:
        return Text(line.label, style="bold reverse" if line.title else "")

    @staticmethod
    def _value_cell(line: _Line) -> Text | str:
        value, under, known = line.value
        if line.title:
            return Text(value[0], style="bold reverse") if value else ""
        cell = Text("\n".join(value), style="" if known else "italic yellow", overflow="fold")
        if under:
            cell.append("\n" + "\n".join(under), style="dim")
        return cell

    def _rebuild(self) -> None:
        if not self.is_mounted:
            return
        self._built_width = self.size.width
        label_width, value_width = self._widths()
        lines = self._lines(label_width, value_width)
        columns = (label_width, value_width, self.show_sources)
        shown = self._shown
        if shown is not None and shown[0] == columns and self.row_count == len(shown[1]) and [
                (line.key, line.height) for line in shown[1]] == [(line.key, line.height) for line in lines]:
            changes: dict[tuple[str, str], object] = {}
            for line, before in zip(lines, shown[1], strict=True):
                if (line.label, line.title) != (before.label, before.title):
                    changes[(line.key, "attribute")] = self._label_cell(line)
                if line.value != before.value:
                    changes[(line.key, "value")] = self._value_cell(line)
            self._shown = (columns, lines)
            update_cells(self, changes)
            return
        self._shown = (columns, lines)
        self.clear(columns=True)
        self.add_column("attribute", key="attribute", width=label_width)
        self.add_column("value" + (" / source" if self.show_sources else " / note"),
                        key="value", width=value_width)
        for line in lines:
            self.add_row(self._label_cell(line), self._value_cell(line), key=line.key, height=line.height)
        # The size is known here (fixed column widths, counted heights): set it now instead of letting the
        # table measure every cell when idle, which also drew the whole table a second time.
        self._require_update_dimensions = False
        self._new_rows.clear()
        header = self.header_height if self.show_header else 0
        self._set_virtual_size(Size(sum(column.get_render_width(self) for column in self.columns.values()),
                                    header + sum(line.height for line in lines)))

    def _set_virtual_size(self, size: Size) -> None:
        """Take the new content size without a layout pass when the scrollbars stay as they are.

        Setting `virtual_size` asks the whole screen for a layout pass and a repaint of every widget on
        it (the largest part of a Stack key). The table's own box does not depend on its
        content (its height is 1fr, its vertical scrollbar always shown), so only the scrollbars and the
        scroll position follow the new size; a change of which scrollbars show still takes the layout."""
        if size == self.virtual_size:
            return
        shown = (self.show_horizontal_scrollbar, self.show_vertical_scrollbar)
        self.set_reactive(LayerTable.virtual_size, size)
        self._refresh_scrollbars()
        if (self.show_horizontal_scrollbar, self.show_vertical_scrollbar) != shown:
            self.refresh(layout=True)
            return
        self._scroll_update(size)
        self.refresh()
