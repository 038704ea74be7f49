"""The details of one layer: attribute, value, and either the caveat or the source of each value."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import DataTable


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


class LayerTable(DataTable):
    """A read-only table of detail groups; `show_sources` swaps the notes column for sources."""

    DEFAULT_CSS = """
    LayerTable { height: 1fr; }
    """

    show_sources: reactive[bool] = reactive(False)
    """When true the last column shows where each value was read."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=False)
        self._groups: list[DetailGroup] = []

    def on_mount(self) -> None:
        self._rebuild()

    def show_groups(self, groups: list[DetailGroup]) -> None:
        """Display these groups, replacing what was shown."""
        self._groups = groups
        self._rebuild()

    def watch_show_sources(self, _old: bool, _new: bool) -> None:
        self._rebuild()

    def _rebuild(self) -> None:
        if not self.is_mounted:
            return
        self.clear(columns=True)
        self.add_column("attribute", key="attribute")
        self.add_column("value", key="value")
        self.add_column("source" if self.show_sources else "note", key="extra")
        for group_index, group in enumerate(self._groups):
            self.add_row(Text(group.title, style="bold reverse"), "", "",
                         key=f"group-{group_index}")
            for row_index, row in enumerate(group.rows):
                value = Text(row.value, style="" if row.known else "italic yellow")
                extra = row.source if self.show_sources else row.note
                self.add_row(row.label, value, Text(extra, style="dim"),
                             key=f"row-{group_index}-{row_index}")
