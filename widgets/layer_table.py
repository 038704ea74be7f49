"""The details of one layer: attribute and value, with the caveat or the source beneath it."""

from __future__ import annotations

from dataclasses import dataclass

from rich._wrap import divide_line
from rich.cells import cell_len
from rich.text import Text
from textual.events import Resize
from textual.reactive import reactive
from textual.widgets import DataTable

LABEL_WIDTH = 22
MIN_VALUE_WIDTH = 20
CELL_PADDING = 4


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


class LayerTable(DataTable):
    """A read-only table of detail groups; `show_sources` swaps each caveat for its source."""

    DEFAULT_CSS = """
    LayerTable { height: 1fr; }
    """

    show_sources: reactive[bool] = reactive(False)
    """When true the line under each value shows where it was read."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=False)
        self._groups: list[DetailGroup] = []
        self._built_width = 0

    def on_mount(self) -> None:
        self._rebuild()

    def on_resize(self, event: Resize) -> None:
        if event.size.width != self._built_width:
            self._rebuild()

    def show_groups(self, groups: list[DetailGroup]) -> None:
        """Display these groups, replacing what was shown."""
        self._groups = groups
        self._rebuild()

    def watch_show_sources(self, _old: bool, _new: bool) -> None:
        self._rebuild()

    def extra_text(self, row: DetailRow) -> str:
        """The line shown under a value: its source, or its caveat."""
        return f"from {row.source}" if self.show_sources else row.note

    def _rebuild(self) -> None:
        if not self.is_mounted:
            return
        self._built_width = self.size.width
        value_width = max(MIN_VALUE_WIDTH, self.size.width - LABEL_WIDTH - CELL_PADDING - 2)
        self.clear(columns=True)
        self.add_column("attribute", key="attribute", width=LABEL_WIDTH)
        self.add_column("value" + (" / source" if self.show_sources else " / note"),
                        key="value", width=value_width)
        for group_index, group in enumerate(self._groups):
            self.add_row(Text(group.title, style="bold reverse"), "", key=f"group-{group_index}")
            for row_index, row in enumerate(group.rows):
                cell = Text(row.value, style="" if row.known else "italic yellow",
                            overflow="fold")
                extra = self.extra_text(row)
                if extra:
                    cell.append("\n" + extra, style="dim")
                # The height of the wrapped cells, so nothing is cut off; counted here instead of
                # height=None, which renders every cell of every row once more just to measure it.
                height = max(wrapped_height(row.label, LABEL_WIDTH), wrapped_height(cell.plain, value_width))
                self.add_row(Text(row.label), cell, key=f"row-{group_index}-{row_index}", height=height)
