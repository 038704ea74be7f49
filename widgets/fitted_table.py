"""A DataTable that tells its screen when its width changes, so columns can be fitted to what they hold."""

from __future__ import annotations

from textual.events import Resize
from textual.message import Message
from textual.widgets import DataTable

from .list_keys import TABLE_KEYS


class FittedTable(DataTable):
    """Posts `Resized` with its new content width; the screen refits the columns (cells never clipped)."""

    BINDINGS = TABLE_KEYS

    class Resized(Message):
        """The table's width changed."""

        def __init__(self, table: FittedTable, width: int) -> None:
            super().__init__()
            self.table, self.width = table, width

        @property
        def control(self) -> FittedTable:
            return self.table

    def _on_resize(self, event: Resize) -> None:
        super()._on_resize(event)
        self.post_message(self.Resized(self, event.size.width))
