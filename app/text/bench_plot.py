"""`bench ... --plot`: a run's intervals and whole-run percentiles as plain-text charts (via text_chart)."""

from __future__ import annotations

from diskdoctor.probes.engine.protocol import Interval

from ..core.bench.kinds import kind_for
from ..core.bench.record import BenchRecord
from .chart import time_series_chart
from .latency_charts import histogram_text_chart, percentile_text_chart

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


def plot_run(kind: str, intervals: list[Interval], record: BenchRecord) -> str:
    """The charts of one run: latency percentiles (or MB/s for compaction) per interval, then, for
    latency kinds, the whole run's percentiles and histogram, all drawn by the one plotext module."""
    kind_info = kind_for(kind)
    form = kind_info.form if kind_info else None
    if form is not None and form.throughput:
        xs, series = _throughput_series(intervals)
        charts = [time_series_chart([(xs, ys, name) for name, ys in series.items()],
                                    title="compaction: MB/s per interval", ylabel="MB/s")]
    elif form is not None and form.phased:
        plots = []
        for phase, label in (("alone", "p99 alone"), ("under_compaction", "p99 under compaction")):
            xs, series = _latency_series(intervals, phase)
            plots.append((xs, series["p99"], label))
        charts = [time_series_chart(plots, title="WAL p99 per interval: alone and under compaction (ms)",
                                    ylabel="ms")]
    else:
        xs, series = _latency_series(intervals)
        charts = [time_series_chart([(xs, ys, name) for name, ys in series.items()],
                                    title=f"{kind}: latency percentiles per interval (ms)", ylabel="ms")]
    curves = kind_info.curves(record) if kind_info else []
    if curves:
        judged = curves[0]
        limit = record.threshold if kind_info and kind_info.threshold_unit == "ms" else None
        charts.append(percentile_text_chart(f"{judged.label} latency (whole run)",
                                            [(curve.label, curve.histogram) for curve in curves], limit))
        charts.append(histogram_text_chart(f"{judged.label} latency histogram", judged.histogram))
    return "\n".join(charts)
