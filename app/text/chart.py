"""Charts as plain text, drawn by plotext (the project's one plotext module): `bench --plot`,
`runs show|compare --plot` and Markdown reports.

Takes plain values (labels, milliseconds, counts) and returns text without colour codes, so the same
chart reads on a plain terminal, in a pipe and in a ticket. plotext keeps one global figure, so every
chart is built under a lock (the TUI writes reports from a worker thread)."""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass

import plotext
from plotext._utility import uncolorize

DEFAULT_WIDTH = 72
DEFAULT_HEIGHT = 16
MARKERS = ("dot", "x", "+", "o")
"""One marker per series, so two runs stay apart without colour."""
_LOCK = threading.Lock()


@dataclass(frozen=True)
class Series:
    """One line of a percentile chart: values in ms at the chart's percentile labels (None = no value)."""

    label: str
    values_ms: Sequence[float | None]


def _begin(width: int, height: int, title: str) -> None:
    plotext.clear_figure()
    plotext.plotsize(width, height)
    plotext.theme("clear")
    plotext.title(title if len(title) <= width - 4 else title[: width - 5] + "…")  # plotext drops long ones


def _log_ticks(low: float, high: float, fmt: object) -> tuple[list[float], list[str]]:
    """Ticks at 1-2-5 steps covering [low, high] (values already in the unit shown)."""
    ticks: list[float] = []
    exponent = math.floor(math.log10(low))
    while True:
        for step in (1, 2, 5):
            value = step * 10.0 ** exponent
            if low / 1.0001 <= value <= high * 1.0001:
                ticks.append(value)
        if 10.0 ** exponent > high:
            break
        exponent += 1
    if len(ticks) < 2:
        ticks = [low, high]
    return [math.log10(t) for t in ticks], [fmt(t) for t in ticks]  # type: ignore[operator]


def format_ms(value: float) -> str:
    """An axis label in ms: 0.05, 0.5, 2, 20 ms style without noise digits."""
    return f"{value:g}"


def percentile_chart(labels: Sequence[str], series: Sequence[Series], *, title: str,
                     threshold_ms: float | None = None, width: int = DEFAULT_WIDTH,
                     height: int = DEFAULT_HEIGHT) -> str:
    """Latency (ms, log scale) at each percentile label, one line per series, with an optional limit."""
    values = [v for one in series for v in one.values_ms if v is not None and v > 0]
    if not values:
        return f"{title}: no samples"
    low, high = min(values), max(values)
    if threshold_ms:
        low, high = min(low, threshold_ms), max(high, threshold_ms)
    limit = f", limit {threshold_ms:g} ms" if threshold_ms else ""
    with _LOCK:
        _begin(width, height, f"{title} in ms, log scale{limit}")
        xs = list(range(1, len(labels) + 1))
        for number, one in enumerate(series):
            points = [(x, math.log10(v)) for x, v in zip(xs, one.values_ms, strict=False)
                      if v is not None and v > 0]
            if points:
                plotext.plot([p[0] for p in points], [p[1] for p in points], label=one.label,
                             marker=MARKERS[number % len(MARKERS)])
        if threshold_ms:
            plotext.hline(math.log10(threshold_ms))
        plotext.xticks(xs, list(labels))
        plotext.yticks(*_log_ticks(low, high, format_ms))
        return uncolorize(plotext.build())


def histogram_chart(bands: Sequence[tuple[str, int]], *, title: str, width: int = DEFAULT_WIDTH,
                    height: int = DEFAULT_HEIGHT) -> str:
    """Sample counts per latency band as bars on a log count axis (so a 3-sample tail still shows)."""
    if not bands or not any(count for _, count in bands):
        return f"{title}: no samples"
    heights = [math.log10(count) + 1 if count > 0 else 0.0 for _, count in bands]
    top = max(count for _, count in bands)
    with _LOCK:
        _begin(width, height, title + " (samples, log scale)")
        plotext.bar([label for label, _ in bands], heights)
        ticks = [10 ** e for e in range(0, int(math.log10(top)) + 1)]
        plotext.yticks([math.log10(t) + 1 for t in ticks], [f"{t:,}" for t in ticks])
        return uncolorize(plotext.build())


def time_series_chart(plots: Sequence[tuple[Sequence[float], Sequence[float], str]], *, title: str,
                      ylabel: str, xlabel: str = "seconds", width: int = 100, height: int = 22) -> str:
    """One line per (xs, ys, label) over time, e.g. a run's p50/p99 per interval."""
    with _LOCK:
        _begin(width, height, title)
        for xs, ys, label in plots:
            if xs:
                plotext.plot(list(xs), list(ys), label=label, marker="braille")
        plotext.ylabel(ylabel)
        plotext.xlabel(xlabel)
        return uncolorize(plotext.build())
