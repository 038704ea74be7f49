"""Latency histograms turned into the values charts draw: percentile points and log-band counts."""

from __future__ import annotations

from collections.abc import Sequence

from diskdoctor.probes.latency_histogram import LatencyHistogram

from .chart import Series, histogram_chart, percentile_chart

CHART_PERCENTILES: tuple[tuple[str, float | None], ...] = (
    ("p50", 50.0), ("p90", 90.0), ("p99", 99.0), ("p99.9", 99.9), ("p99.99", 99.99), ("max", None))
"""The points of every percentile chart (max is the slowest sample)."""


def percentile_points_ms(histogram: LatencyHistogram) -> list[float | None]:
    """The latency in ms at each CHART_PERCENTILES point (None when there are no samples)."""
    points: list[float | None] = []
    for _, percent in CHART_PERCENTILES:
        value = histogram.maximum if percent is None else histogram.percentile(percent)
        points.append(None if value is None else value / 1e6)
    return points


def band_label(low_ns: float) -> str:
    """A band's lower bound, short: 316µs, 1ms, 3.2ms, 1s."""
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if low_ns >= scale * 0.999:
            return f"{float(f'{low_ns / scale:.2g}'):g}{unit}"
    return f"{float(f'{low_ns:.2g}'):g}ns"


def band_counts(histogram: LatencyHistogram) -> list[tuple[str, int]]:
    """(lower bound like "316µs", samples) per half-decade band, from the first band with samples."""
    return [(band_label(low), count) for low, count in histogram.log_bands()]


def percentile_text_chart(title: str, curves: Sequence[tuple[str, LatencyHistogram]],
                          threshold_ms: float | None = None, width: int = 72) -> str:
    """A plotext chart of one or more runs' percentiles (the same labels in every report and CLI)."""
    series = [Series(label, percentile_points_ms(histogram)) for label, histogram in curves]
    return percentile_chart([label for label, _ in CHART_PERCENTILES], series, title=title,
                            threshold_ms=threshold_ms, width=width)


def histogram_text_chart(title: str, histogram: LatencyHistogram, width: int = 72) -> str:
    """A plotext bar chart of a run's samples per latency band."""
    return histogram_chart(band_counts(histogram), title=title, width=width)
