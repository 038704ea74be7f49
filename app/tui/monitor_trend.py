"""The Monitor's trend pane: the selected device's last minute, a bar chart per figure, under the table
where a few devices leave rows empty (as htop's and iotop's graphs: which way a figure went, not only
where it is now)."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from diskdoctor.probes.diskstats import DiskDelta
from diskdoctor.probes.io_monitor import MonitorSample
from diskdoctor.widgets.bar_chart_text import bar_rows
from rich.cells import cell_len
from rich.text import Text

from ..text.monitor import figure

TREND_TICKS = 60
"""The ticks each chart draws (a minute at the default interval), one column each, the newest on the right."""
TREND_DEVICES = 64
"""The trend is kept only on hosts with this many devices or fewer: more fill the table's rows (no room for
the pane), and a minute of figures for 5,000 devices would cost tens of MB."""
TREND_MIN_ROWS = 8
"""The pane shows only where the table leaves at least this many rows under it."""
CHART_GAP = 4
"""Columns between two charts side by side."""
CHART_MIN_CELLS = 40
"""Narrower than this, the charts go one under the other."""
BAR_ROWS_MOST = 8
"""A chart's bars are at most this tall (taller adds no reading, and keeps every chart on the screen)."""
FIGURES: tuple[tuple[str, str, float], ...] = (
    ("util", "util", 1.0), ("inflight", "in_flight", 1.0), ("r/s", "r_s", 10.0), ("w/s", "w_s", 10.0),
    ("rMB/s", "rmb_s", 1.0), ("wMB/s", "wmb_s", 1.0), ("r_await", "r_await", 1.0),
    ("w_await", "w_await", 1.0))
"""(heading, key, least top) of each chart, in pairs (read beside write): the table's own headings. A chart's
top is the minute's peak, or this least top (util: always 100%), so an idle device's noise stays low."""

Tick = tuple[float | None, ...]
"""One tick's figures, in FIGURES' order (None: no figure, as "-" in the table)."""


def trend_tick(delta: DiskDelta) -> Tick:
    """One tick's figures of a device, in FIGURES' order."""
    def rate(amount: int | None, scale: float = 1.0) -> float | None:
        per_s = delta.rate(amount)
        return None if per_s is None else per_s / scale

    return (delta.util, float(delta.in_flight), rate(delta.reads), rate(delta.writes),
            rate(delta.read_bytes, 1e6), rate(delta.write_bytes, 1e6), delta.read_await_ms,
            delta.write_await_ms)


class TrendHistory:
    """Each device's last TREND_TICKS ticks of the trend's figures (none on a host of more than
    TREND_DEVICES devices)."""

    def __init__(self) -> None:
        self.ticks: dict[str, deque[Tick]] = {}
        self.kept = True
        """False while the host has more than TREND_DEVICES devices (no trend is kept or shown)."""

    def record(self, sample: MonitorSample) -> None:
        """Add the tick's figures of every device (once each: a disk under two filesystems is one device)."""
        deltas = {layer.row.kname: layer.delta for layer in sample.layers()}
        self.kept = len(deltas) <= TREND_DEVICES
        if not self.kept:
            self.ticks.clear()
            return
        for kname, delta in deltas.items():
            if delta is not None:
                self.ticks.setdefault(kname, deque(maxlen=TREND_TICKS)).append(trend_tick(delta))
        for gone in [kname for kname in self.ticks if kname not in deltas]:
            del self.ticks[gone]

    def of(self, kname: str) -> Sequence[Tick]:
        """The device's ticks so far, oldest first."""
        return self.ticks.get(kname, ())


def trend_figure(key: str, value: float | None) -> str:
    """A figure as the table writes it ("87%", "1,640", "15.1", "3.92" ms; "-" when there is none)."""
    if value is None:
        return "-"
    if key == "util":
        return f"{value:.0%}"
    if key == "in_flight":
        return f"{value:.0f}"
    if key.endswith("await"):
        return f"{value:,.0f}" if value >= 100 else f"{value:.2f}"
    return figure(value)


UNSEEN = "·"
"""The bottom row of a column no tick has reached yet (a fresh Monitor): the chart's whole minute shows, its
newest tick at the right edge (newuser24 #10 read bars alone in mid-pane as "the newest in the middle")."""


def _unit(key: str, text: str) -> str:
    """A figure with its unit where the heading does not say it: the awaits' ms ("86.50 ms"; "-" alone)."""
    return f"{text} ms" if key.endswith("await") and text != "-" else text


def _chart(ticks: Sequence[Tick], index: int, cells: int, bars: int) -> list[Text]:
    """One figure's chart: its heading line (the figure now and the minute's peak, with their unit; util's
    full bar), then its bars, `cells` wide, the columns no tick has reached yet dotted on the bottom row."""
    label, key, least = FIGURES[index]
    values = [tick[index] for tick in ticks]
    known = [value for value in values if value is not None]
    peak = max(known) if known else None
    top = 1.0 if key == "util" else max(peak or 0.0, least)
    now = values[-1] if values else None
    top_note = ", full bar 100%" if key == "util" else ""  # the others' full bar is their peak
    said = f"  peak {_unit(key, trend_figure(key, peak))}{top_note}"
    now_text = _unit(key, trend_figure(key, now))
    aligned = f"{label:<9}{now_text:>7}"  # figures under each other where the chart has the room
    fits = cell_len(aligned) + len(" now") + len(said) <= cells
    head = Text(aligned if fits else f"{label} {now_text}", style="bold")
    head.append(" now")
    head.append(said, style="dim")
    head.truncate(cells)
    columns = min(TREND_TICKS, cells)
    rows = [Text(row.ljust(cells), style="cyan") for row in bar_rows(values, columns, bars, top)]
    unseen = columns - min(len(values), columns)
    if rows and unseen:
        bottom = rows[-1]
        rows[-1] = Text.assemble((UNSEEN * unseen, "dim"), (bottom.plain[unseen:], "cyan"))
    return [head, *rows]


def trend_lines(title: str, ticks: Sequence[Tick], width: int, height: int, interval: float) -> list[Text]:
    """The pane's lines in `width` x `height`: a heading, then a chart per figure (two side by side where the
    width holds two), each as tall as the rows allow up to BAR_ROWS_MOST."""
    per_row = 2 if width >= 2 * CHART_MIN_CELLS + CHART_GAP else 1
    cells = (width - CHART_GAP * (per_row - 1)) // per_row
    cells = min(cells, max(TREND_TICKS, CHART_MIN_CELLS))  # no wider than its minute of ticks
    seconds = f"{TREND_TICKS * interval:g} s"
    heading = Text(f"{title}: the last {seconds}, the newest on the right", style="bold")
    heading.truncate(width)
    chart_rows = -(-len(FIGURES) // per_row)
    room = height - 2  # the heading and a blank line
    bars = min(BAR_ROWS_MOST, room // chart_rows - 2)  # each chart: its heading, its bars, a blank line
    shown = len(FIGURES)
    if bars < 1:  # too few rows for every chart: the first ones, one row of bars each
        bars, shown = 1, max(room // 3, 0) * per_row
    lines = [heading, Text("")]
    for first in range(0, shown, per_row):
        charts = [_chart(ticks, index, cells, bars) for index in range(first, min(first + per_row, shown))]
        for row in range(bars + 1):
            line = Text()
            for number, chart in enumerate(charts):
                if number:
                    line.append(" " * (CHART_GAP + cells - cell_len(charts[number - 1][row].plain)))
                line.append_text(chart[row])
            lines.append(line)
        lines.append(Text(""))
    return lines[:height]
