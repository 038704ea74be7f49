"""A live line chart of latency percentiles per interval (log scale), plus the cumulative p99."""

from __future__ import annotations

from collections import deque

from textual_plotext import PlotextPlot

SERIES = ("p50", "p90", "p99", "p99.9", "p99 cumulative")
HISTORY = 120
"""Intervals kept on the chart (one minute at 0.5 s), at or under a wide chart's width in cells."""


class PercentileChart(PlotextPlot):
    """Keeps the last HISTORY intervals of each percentile (milliseconds) and replots on each push."""

    DEFAULT_CSS = """
    PercentileChart { height: 1fr; min-height: 10; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._times: deque[float] = deque(maxlen=HISTORY)
        self._series: dict[str, deque[float | None]] = {name: deque(maxlen=HISTORY) for name in SERIES}
        self.metric = "fdatasync"

    def clear_history(self, metric: str) -> None:
        """Forget all intervals (a new run starts); `metric` names the call in the title."""
        self.metric = metric
        self._times.clear()
        for values in self._series.values():
            values.clear()
        self.replot()

    def push(self, t: float, values: dict[str, float | None]) -> None:
        """Add one interval: `values` maps series names to milliseconds (None when no sample)."""
        self._times.append(t)
        for name in SERIES:
            self._series[name].append(values.get(name))
        self.replot()

    def replot(self) -> None:
        """Redraw from the kept history (UI thread only)."""
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        plt.title(f"{self.metric} latency per interval (ms, log scale)")
        plt.xlabel("seconds")
        if self._times:
            plt.yscale("log")
            for name in SERIES:
                pairs = zip(self._times, self._series[name], strict=True)
                points = [(t, v) for t, v in pairs if v and v > 0]
                if points:
                    plt.plot([p[0] for p in points], [p[1] for p in points], label=name,
                             marker="hd")
        self.refresh()
