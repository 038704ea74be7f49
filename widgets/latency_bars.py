"""A text histogram: one bar per latency band, log-spaced bands, counts on the right."""

from __future__ import annotations

from diskdoctor.app.base.units import range_label
from rich.text import Text
from textual.widgets import Static

BAR_CELLS = 30


def band_label(low_ns: float, high_ns: float) -> str:
    """A short range in the unit of its upper end, e.g. "316-1000 µs" or "3.16-10 ms"."""
    return range_label(low_ns, high_ns)


class LatencyBars(Static):
    """Draws the bands it is given as horizontal bars scaled to the largest count."""

    DEFAULT_CSS = """
    LatencyBars { height: auto; min-height: 3; padding: 0 1; }
    """

    _shown_bands = -1

    def show_bands(self, title: str, bands: list[tuple[float, float, int]]) -> None:
        """`bands` are (low ns, high ns, count), lowest first."""
        text = Text(title + "\n", style="bold")
        if not bands:
            text.append("no samples yet", style="dim")
        largest = max((count for _, _, count in bands), default=0) or 1
        for index, (low, high, count) in enumerate(bands):
            cells = max(1, round(count / largest * BAR_CELLS)) if count else 0
            text.append(f"{band_label(low, high):>14} ")
            text.append("█" * cells, style="bold")
            text.append(f"{' ' * (BAR_CELLS - cells)} {count:>9,}")
            if index < len(bands) - 1:
                text.append("\n")
        self.update(text, layout=len(bands) != self._shown_bands)  # a new band needs a row more
        self._shown_bands = len(bands)
