"""`bench ... --plot`: the run's intervals as a plotext chart for a plain terminal or a text report."""

from __future__ import annotations

import re
import sys

from diskdoctor.probes.engine.protocol import Interval

WIDTH, HEIGHT = 100, 22
ANSI = re.compile(r"\x1b\[[0-9;]*m")


Series = tuple[list[float], dict[str, list[float]]]


def _latency_series(intervals: list[Interval], phase: str | None = None) -> Series:
    """x (seconds) and p50/p99 (ms) per interval of the durable call (or of the write without one)."""
    chosen = [i for i in intervals if not i.job and (phase is None or i.phase == phase)]
    name = "sync" if any(i.stream("sync").count for i in chosen) else "write"
    xs: list[float] = []
    series: dict[str, list[float]] = {"p50": [], "p99": []}
    for interval in chosen:
        histogram = interval.stream(name)
        if not histogram.count:
            continue
        xs.append(interval.t)
        series["p50"].append((histogram.percentile(50.0) or 0) / 1e6)
        series["p99"].append((histogram.percentile(99.0) or 0) / 1e6)
    return xs, series


def _throughput_series(intervals: list[Interval]) -> Series:
    """x (seconds) and read/write MB/s per interval."""
    xs: list[float] = []
    series: dict[str, list[float]] = {"read MB/s": [], "write MB/s": []}
    for interval in intervals:
        if interval.job or interval.seconds <= 0:
            continue
        xs.append(interval.t)
        series["read MB/s"].append(interval.bytes_read / interval.seconds / 1e6)
        series["write MB/s"].append(interval.bytes_written / interval.seconds / 1e6)
    return xs, series


def plot_run(kind: str, intervals: list[Interval], record: object, *, color: bool | None = None) -> str:
    """The chart of one run: latency percentiles per interval, MB/s for compaction, or both WAL phases."""
    import plotext as plt

    plt.clf()
    plt.plotsize(WIDTH, HEIGHT)
    plt.theme("clear")
    if kind == "compaction":
        xs, series = _throughput_series(intervals)
        plt.title("compaction: MB/s per interval")
        plt.ylabel("MB/s")
        lines = list(series.items())
        plots = [(xs, ys, name) for name, ys in lines]
    elif kind == "interference":
        plt.title("WAL p99 per interval: alone and under compaction (ms)")
        plt.ylabel("ms")
        plots = []
        for phase, label in (("alone", "p99 alone"), ("under_compaction", "p99 under compaction")):
            xs, series = _latency_series(intervals, phase)
            plots.append((xs, series["p99"], label))
    else:
        xs, series = _latency_series(intervals)
        plt.title(f"{kind}: latency percentiles per interval (ms)")
        plt.ylabel("ms")
        plots = [(xs, ys, name) for name, ys in series.items()]
    for xs, ys, label in plots:
        if xs:
            plt.plot(xs, ys, label=label, marker="braille")
    plt.xlabel("seconds")
    text = plt.build()
    plt.clf()
    use_color = sys.stdout.isatty() if color is None else color
    return text if use_color else ANSI.sub("", text)
