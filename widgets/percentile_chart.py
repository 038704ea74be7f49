"""A live line chart of latency percentiles per interval on a 1-2-5 log scale, with the pass/fail limit.

It draws braille dots straight into cached strips: one rebuild per pushed interval costs a few milliseconds,
so the UI process stays nearly idle while the engine child measures.
"""

from __future__ import annotations

import math
from collections import deque
from itertools import groupby

from diskdoctor.app.base.units import format_latency_ms, format_threshold, tick_label
from rich.segment import Segment
from rich.style import Style
from textual.geometry import Size
from textual.strip import Strip
from textual.widget import Widget

from .braille_canvas import BrailleCanvas
from .chart_axes import LinearAxis, LogAxis, format_seconds, nice_ticks, time_step

SERIES = ("p50", "p90", "p99", "p99.9", "p99 cumulative")
HISTORY = 120
"""Intervals kept on the chart (one minute at 0.5 s), at or under a wide chart's width in dots."""
DRAW_ORDER = (4, 0, 1, 2, 3)
"""Cumulative p99 first, then the interval series low to high, so the tail stays visible where lines meet."""
STYLE_CLASSES = ("chart--p50", "chart--p90", "chart--p99", "chart--p99-9", "chart--p99-cumulative")
LEGEND_NAMES = ("p50", "p90", "p99", "p99.9", "p99")
CUMULATIVE = "p99 cumulative"
"""The one series over the whole phase so far; every other series is one interval's."""
WHOLE_PHASE = "whole phase"
DROP_FOR_WIDTH = ("p90", "p99.9", "p50")
"""Series left out of a narrow legend, least telling first (their lines stay drawn); a value is never cut
off from its unit, and neither scope label is dropped."""
HEADER_ROWS, FOOTER_ROWS = 2, 2
TOP_ROOM_STEPS = 3
"""How many 1-2-5 steps the axis may grow upward so the limit's row is not its top row (on a short chart
the 16 ms p99 and the 10 ms limit shared one unlabelled row: newuser13 #5)."""


class PercentileChart(Widget):
    """Keeps the last HISTORY intervals of each percentile (milliseconds) and redraws on each push."""

    COMPONENT_CLASSES = {"chart--title", "chart--axis", "chart--threshold", "chart--empty", *STYLE_CLASSES}
    DEFAULT_CSS = """
    PercentileChart { height: 1fr; min-height: 10; }
    PercentileChart > .chart--title { text-style: bold; }
    PercentileChart > .chart--axis { color: $foreground 55%; }
    PercentileChart > .chart--empty { color: $foreground 55%; text-style: italic; }
    PercentileChart > .chart--threshold { color: #e5484d; }
    PercentileChart > .chart--p50 { color: #46a758; }
    PercentileChart > .chart--p90 { color: #3e95e6; }
    PercentileChart > .chart--p99 { color: #f5a524; }
    PercentileChart > .chart--p99-9 { color: #c85ad8; }
    PercentileChart > .chart--p99-cumulative { color: $foreground; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._times: deque[float] = deque(maxlen=HISTORY)
        self._series_names, self._series_legends, self._series_classes = SERIES, LEGEND_NAMES, STYLE_CLASSES
        self._series_order: tuple[int, ...] = DRAW_ORDER
        self._series: dict[str, deque[float | None]] = {name: deque(maxlen=HISTORY) for name in SERIES}
        self.metric = "fdatasync"
        self.threshold_ms: float | None = None
        self.threshold_label = ""
        self._version = 0
        self._cache_key: tuple[int, Size] | None = None
        self._lines: list[Strip] = []
        self._finished = False
        self._whole_ms: float | None = None
        self.whole_label = WHOLE_PHASE
        """What the cumulative series covers, named as the figures table beside it names it."""

    def finish(self, finished: bool = True, whole_ms: float | None = None) -> None:
        """The run has ended (False: a new one starts): the legend then keeps only the whole-phase figure
        (`whole_ms`, the verdict's, when given) and names the per-interval lines without their last values,
        so no half-second p99 is read as the verdict."""
        self._finished, self._whole_ms = finished, whole_ms
        self._changed()

    def clear_history(self, metric: str, whole: str = WHOLE_PHASE) -> None:
        """Forget all intervals (a new run or load starts); `metric` names the call in the title, `whole`
        what the cumulative p99 covers ("whole load" for a WAL load, as its figures table says)."""
        self.metric, self.whole_label = metric, whole
        self._times.clear()
        for values in self._series.values():
            values.clear()
        self._changed()

    def set_series(self, series: list[tuple[str, str, str]] | None = None) -> None:
        """Draw these series (name, legend, style class) instead of the percentiles, e.g. the WAL's p99
        alone and under compaction on one timeline; None restores the percentiles. Clears the history."""
        if series is None:
            self._series_names, self._series_legends = SERIES, LEGEND_NAMES
            self._series_classes, self._series_order = STYLE_CLASSES, DRAW_ORDER
        else:
            self._series_names = tuple(name for name, _, _ in series)
            self._series_legends = tuple(legend for _, legend, _ in series)
            self._series_classes = tuple(style for _, _, style in series)
            self._series_order = tuple(range(len(series)))
        self._series = {name: deque(maxlen=HISTORY) for name in self._series_names}
        self._times.clear()
        self._changed()

    def push(self, t: float, values: dict[str, float | None]) -> None:
        """Add one interval: `values` maps series names to milliseconds (None when no sample)."""
        self._times.append(t)
        for name in self._series_names:
            self._series[name].append(values.get(name))
        self._changed()

    def set_threshold(self, ms: float | None, label: str = "") -> None:
        """Draw the pass/fail limit as a dashed line (None hides it); `label` names where it comes from."""
        self.threshold_ms, self.threshold_label = ms, label
        self._changed()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._changed()

    def _changed(self) -> None:
        self._version += 1
        self.refresh()

    def render_line(self, y: int) -> Strip:
        size = self.content_region.size
        if self._cache_key != (self._version, size):
            base = self.rich_style  # the widget's colours under every cell, padding included
            self._lines = [line.adjust_cell_length(size.width).apply_style(base)
                           for line in self._build(size.width, size.height)]
            self._cache_key = (self._version, size)
        return self._lines[y] if y < len(self._lines) else Strip.blank(size.width)

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(name, partial=True)

    def _build(self, width: int, height: int) -> list[Strip]:
        """All rows of the chart for a content area of `width` x `height` cells."""
        lines = [self._title(width), self._legend(width)]
        points = [v for series in self._series.values() for v in series if v is not None and v > 0]
        plot_rows = height - HEADER_ROWS - FOOTER_ROWS
        if not points or plot_rows < 2:
            message = "waiting for the first interval" if not points else "(enlarge to see the chart)"
            lines.append(_strip([(message.center(width), self._style("chart--empty"))], width))
            return lines + [Strip.blank(width)] * max(height - len(lines), 0)
        bounds = points + ([self.threshold_ms] if self.threshold_ms else [])
        ticks = nice_ticks(min(bounds), max(bounds))
        labels = {tick: tick_label(tick) for tick in ticks}
        gutter = max(len(text) for text in labels.values()) + 2
        plot_width = width - gutter - 1
        if plot_width < 4:
            return lines + [Strip.blank(width)] * max(height - len(lines), 0)
        canvas = BrailleCanvas(plot_width, plot_rows)
        value_axis = LogAxis(ticks[0], ticks[-1], canvas.dots_high)
        for _ in range(TOP_ROOM_STEPS):  # figures over the limit get a row of their own above its line
            limit = self.threshold_ms
            if not limit or max(points) <= limit or value_axis.row(limit) >> 2:
                break
            ticks = nice_ticks(ticks[0], ticks[-1] * 1.01)
            value_axis = LogAxis(ticks[0], ticks[-1], canvas.dots_high)
        times = list(self._times)
        time_axis = LinearAxis(times[0], times[-1], canvas.dots_wide)
        self._plot(canvas, times, value_axis, time_axis)
        label_rows = self._label_rows(ticks, value_axis)
        threshold_row = value_axis.row(self.threshold_ms) >> 2 if self.threshold_ms else None
        if threshold_row is not None:
            label_rows[threshold_row] = tick_label(self.threshold_ms or 0)
        lines += self._plot_rows(canvas, gutter, label_rows, threshold_row)
        lines += self._time_rows(time_axis, gutter, plot_width, width)
        return lines[:height]

    def _title(self, width: int) -> Strip:
        """What is drawn, and on the right the pass/fail limit the dashed line marks; the metric and what is
        plotted of it apart, ` · ` (newuser19: `… at 50/s steady latency per interval` ran together)."""
        title = f"{self.metric} · latency per interval (log scale)"
        limit = ""
        if self.threshold_ms:
            source = f" ({self.threshold_label})" if self.threshold_label else ""
            limit = f"limit {format_threshold(self.threshold_ms)}{source}"
            if len(title) + len(limit) + 4 > width:
                title = f"{self.metric} · log scale"
            if len(title) + len(limit) + 4 > width:  # the metric and the limit whole, the scale unsaid
                title = self.metric
            if len(title) + len(limit) + 4 > width:  # the limit without its source (the verdict names it)
                limit = f"limit {format_threshold(self.threshold_ms)}"
            if len(title) + len(limit) + 4 > width:  # the load's name whole: the axis labels the dashed line
                limit = ""
        parts = [(title, self._style("chart--title"))]
        if limit:
            gap = max(width - len(title) - len(limit) - 2, 2)
            parts += [(" " * gap + "╌ ", self._style("chart--threshold")), (limit, Style())]
        return _strip(parts, width)

    def _legend(self, width: int) -> Strip:
        """Each series in its colour with its latest value, under the scope it covers: "last 0.5 s" for the
        interval's percentiles, "whole phase" for the cumulative p99 (so the live p99 is never read as the
        verdict's whole-phase figure); narrower gaps, then fewer series, when narrow. After the run the
        whole-phase figure comes first and the interval lines are named without values ("per 0.5 s")."""
        names = list(self._series_names)
        parts: list[tuple[str, Style]] = []
        if self._finished:
            parts = self._finished_parts(names)
            for dropped in DROP_FOR_WIDTH:
                if _cells(parts) <= width:
                    break
                if dropped in names:
                    names.remove(dropped)
                    parts = self._finished_parts(names)
            return _strip(parts, width)
        for gap in ("  ", " "):
            parts = self._legend_parts(names, gap)
            if _cells(parts) <= width:
                return _strip(parts, width)
        for dropped in DROP_FOR_WIDTH:
            if dropped in names:
                names.remove(dropped)
                parts = self._legend_parts(names, " ")
                if _cells(parts) <= width:
                    break
        return _strip(parts, width)

    def _interval_scope(self) -> str:
        """"last 0.5 s": how long the interval drawn last lasted."""
        times = list(self._times)[-2:]
        seconds = times[-1] - times[0] if len(times) == 2 and times[-1] > times[0] else \
            (times[-1] if times else 0.0)
        return f"last {round(seconds, 1):g} s" if seconds >= 0.05 else "last interval"

    def _finished_parts(self, names: list[str]) -> list[tuple[str, Style]]:
        """A finished run's legend: "whole phase: ━ p99 12.9 ms · per 0.5 s: ━ p50 ━ p90 ━ p99 ━ p99.9"."""
        dim = self._style("chart--axis")
        whole: list[tuple[str, Style]] = []
        lines: list[tuple[str, Style]] = []
        for index, name in enumerate(self._series_names):
            if name not in names:
                continue
            swatch = ("━ ", self._style(self._series_classes[index]))
            if name == CUMULATIVE:
                latest = self._whole_ms if self._whole_ms is not None else \
                    next((v for v in reversed(self._series[name]) if v is not None), None)
                value = f" {format_latency_ms(latest)}" if latest is not None else ""
                legend = f"{self._series_legends[index]}{value} "
                whole += [(f"{self.whole_label}: ", dim), swatch, (legend, Style())]
            else:
                lines += [swatch, (f"{self._series_legends[index]} ", Style())]
        if lines:
            times = list(self._times)[:2]  # the run's own interval (the last one may be cut short)
            step = times[1] - times[0] if len(times) == 2 else 0.0
            scope = f"per {round(step, 1):g} s" if step >= 0.05 else "per interval"
            lines.insert(0, (f"{'· ' if whole else ''}{scope}: ", dim))
        return whole + lines

    def _legend_parts(self, names: list[str], gap: str) -> list[tuple[str, Style]]:
        """The interval's series after its scope label, then the cumulative p99 after "whole phase"."""
        dim = self._style("chart--axis")
        parts: list[tuple[str, Style]] = []
        scope = None
        for index, name in enumerate(self._series_names):
            if name not in names:
                continue
            wanted = self.whole_label if name == CUMULATIVE else self._interval_scope()
            if wanted != scope:
                parts.append((f"{'· ' if scope else ''}{wanted}: ", dim))
                scope = wanted
            latest = next((v for v in reversed(self._series[name]) if v is not None), None)
            value = f" {format_latency_ms(latest)}" if latest is not None else ""
            parts += [("━ ", self._style(self._series_classes[index])),
                      (f"{self._series_legends[index]}{value}{gap}", Style())]
        return parts

    def _plot(self, canvas: BrailleCanvas, times: list[float], value_axis: LogAxis,
              time_axis: LinearAxis) -> None:
        for index in self._series_order:
            previous: tuple[int, int] | None = None
            for t, value in zip(times, self._series[self._series_names[index]], strict=True):
                if value is None or value <= 0:
                    previous = None
                    continue
                point = (time_axis.column(t), value_axis.row(value))
                if previous is None:
                    canvas.dot(*point, index)
                else:
                    canvas.line(*previous, *point, index)
                previous = point

    @staticmethod
    def _label_rows(ticks: list[float], value_axis: LogAxis) -> dict[int, str]:
        """Cell row -> tick label: the top of the axis always (the highest figures drawn in the top row
        read against it: newuser13 #5 saw a 16 ms p99 over an unlabelled row above `10ms`), the powers of
        ten, then 2s and 5s where a free row separates them."""
        rows: dict[int, str] = {value_axis.row(ticks[-1]) >> 2: tick_label(ticks[-1])}
        decades = [t for t in ticks[:-1] if math.isclose(10 ** round(math.log10(t)), t)]
        for tick in decades + [t for t in ticks[:-1] if t not in decades]:
            row = value_axis.row(tick) >> 2
            if all(abs(row - taken) > 1 for taken in rows) or (tick in decades and row not in rows):
                rows[row] = tick_label(tick)
        return rows

    def _plot_rows(self, canvas: BrailleCanvas, gutter: int, label_rows: dict[int, str],
                   threshold_row: int | None) -> list[Strip]:
        axis, limit = self._style("chart--axis"), self._style("chart--threshold")
        series_styles = [self._style(name) for name in self._series_classes]
        strips = []
        for row in range(canvas.cells_high):
            label = label_rows.get(row)
            tick = f"{label.rjust(gutter - 2)} ┤" if label is not None else " " * (gutter - 1) + "│"
            segments = [Segment(tick, limit if row == threshold_row else axis)]
            blank = "╌" if row == threshold_row else " "
            owners = canvas.owner[row]
            for owner, run in groupby(range(canvas.cells_wide), key=owners.__getitem__):
                columns = list(run)
                if owner is None:
                    segments.append(Segment(blank * len(columns), limit))
                else:
                    text = "".join(canvas.char(row, column) for column in columns)
                    segments.append(Segment(text, series_styles[owner]))
            strips.append(Strip(segments, gutter + canvas.cells_wide))
        return strips

    def _time_rows(self, time_axis: LinearAxis, gutter: int, plot_width: int, width: int) -> list[Strip]:
        """The time axis with ticks, and the seconds under them."""
        axis = self._style("chart--axis")
        span = time_axis.end - time_axis.start
        step = time_step(span, max(plot_width // 10, 1)) if span > 0 else 1.0
        first = -(-time_axis.start // step) * step
        marks = [first + i * step for i in range(int((time_axis.end - first) / step + 1e-9) + 1)] or [
            time_axis.start]
        rule, names = ["─"] * plot_width, [" "] * (plot_width + gutter + 1)
        for mark in marks:
            cell = time_axis.column(mark) >> 1
            rule[cell] = "┬"
            text = format_seconds(mark)
            start = min(max(gutter + cell - len(text) // 2, 0), len(names) - len(text))
            if all(c == " " for c in names[max(start - 1, 0):start + len(text) + 1]):
                names[start:start + len(text)] = list(text)
        line = " " * (gutter - 1) + "└" + "".join(rule)
        return [_strip([(line, axis)], width), _strip([("".join(names), axis)], width)]


def _cells(parts: list[tuple[str, Style]]) -> int:
    """How many cells these text runs take (the legend's gaps at the end included)."""
    if not parts:
        return 0
    return sum(len(text) for text, _ in parts) - (len(parts[-1][0]) - len(parts[-1][0].rstrip()))


def _strip(parts: list[tuple[str, Style]], width: int) -> Strip:
    """One row of text runs, merged where styles repeat, cut or padded to `width` cells."""
    segments: list[Segment] = []
    for text, style in parts:
        if segments and segments[-1].style == style:
            segments[-1] = Segment(segments[-1].text + text, style)
        else:
            segments.append(Segment(text, style))
    return Strip(segments).adjust_cell_length(width)
