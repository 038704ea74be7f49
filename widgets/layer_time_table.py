"""The "where the time goes" table: per-layer writes, flushes, average times and busy share per interval."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.widgets import DataTable

COLUMNS = (("layer", "layer"), ("writes", "writes"), ("write_ms", "avg write"), ("flushes", "flushes"),
           ("flush_ms", "avg flush"), ("util", "busy"))


@dataclass(frozen=True, slots=True)
class LayerTimeRow:
    """One layer's activity: counts and average milliseconds per request (None when unknown)."""

    kname: str
    writes: int
    flushes: int | None
    write_ms: float | None
    flush_ms: float | None
    util: float | None = None
    """Share of the interval the device had I/O in flight (iostat's %util): 100% means it saturates."""


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f} ms"


def _count(value: int | None) -> str:
    return "-" if value is None else f"{value:,}"


class LayerTimeTable(DataTable[str]):
    """Rows keyed by kernel name, updated in place so the cursor and scroll survive each interval."""

    DEFAULT_CSS = """
    LayerTimeTable { height: auto; max-height: 12; }
    """

    def on_mount(self) -> None:
        self.cursor_type = "row"
        for key, label in COLUMNS:  # figures right-aligned under right-aligned headers, as iostat's
            self.add_column(label if key == "layer" else Text(label, justify="right"), key=key)

    def show_layers(self, rows: list[LayerTimeRow]) -> None:
        """Show these layers, top of the stack first; rows of layers no longer given are removed."""
        wanted = {row.kname for row in rows}
        for key in [k for k in self.rows if k.value not in wanted]:
            self.remove_row(key)
        for row in rows:
            figures = (f"{row.writes:,}", _ms(row.write_ms), _count(row.flushes), _ms(row.flush_ms),
                       "-" if row.util is None else f"{row.util:.0%}")
            cells = (Text(row.kname), *(Text(figure, justify="right") for figure in figures))
            if row.kname in {k.value for k in self.rows}:
                for (key, _), cell in zip(COLUMNS, cells, strict=False):
                    self.update_cell(row.kname, key, cell)
            else:
                self.add_row(*cells, key=row.kname)
