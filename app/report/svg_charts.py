"""Latency charts as inline SVG for the HTML report: percentiles on a log axis, and a log-count histogram."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from ..text.chart import Series

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 44, 36
LEGEND_Y = 34
"""The legend sits in a row between the title and the plot, where it never covers a line."""
COLOURS = ("#1f6feb", "#d97706", "#16a34a", "#9333ea")


def _ticks(low: float, high: float) -> list[float]:
    """1-2-5 ticks spanning [low, high]; powers of ten only over more than three decades (labels that
    would touch)."""
    ticks, exponent = [], math.floor(math.log10(low))
    steps = (1,) if math.log10(high / low) > 3 else (1, 2, 5)
    while 10.0 ** exponent <= high * 10:
        ticks += [step * 10.0 ** exponent for step in steps
                  if low / 1.0001 <= step * 10.0 ** exponent <= high * 1.0001]
        exponent += 1
    return ticks or [low, high]


def tick_text(ms: float) -> str:
    """An axis tick in the unit a person reads: "0.5 ms", "20 ms", "2 s" (never "2000 ms" or "1e+03")."""
    return f"{ms / 1000:g} s" if ms >= 1000 else f"{ms:g} ms"


def _frame(title: str, label: str) -> list[str]:
    return [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
            f'height="{HEIGHT}" role="img" aria-label="{escape(label)}" class="chart">',
            f'<text x="{WIDTH / 2}" y="16" text-anchor="middle" class="chart-title">{escape(title)}</text>',
            f'<rect x="{LEFT}" y="{TOP}" width="{WIDTH - LEFT - RIGHT}" height="{HEIGHT - TOP - BOTTOM}" '
            'class="plot-area"/>']


def percentile_svg(labels: Sequence[str], series: Sequence[Series], *, title: str,
                   threshold_ms: float | None = None) -> str:
    """Each series' latency at each percentile label (log ms axis) with the threshold as a dashed line."""
    values = [v for one in series for v in one.values_ms if v is not None and v > 0]
    if not values:
        return f'<p class="empty">{escape(title)}: no samples</p>'
    low, high = min(values), max(values)
    if threshold_ms:
        low, high = min(low, threshold_ms), max(high, threshold_ms)
    low, high = low / 1.3, high * 1.3
    span = math.log10(high) - math.log10(low)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x_at(index: int) -> float:
        return LEFT + plot_w * (index + 0.5) / len(labels)

    def y_at(value: float) -> float:
        return TOP + plot_h * (1 - (math.log10(value) - math.log10(low)) / span)

    parts = _frame(title, f"{title}: latency in ms at each percentile, log scale")
    for tick in _ticks(low, high):
        y = y_at(tick)
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" class="tick">'
                     f'{tick_text(tick)}</text>')
    for index, label in enumerate(labels):
        parts.append(f'<text x="{x_at(index):.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle" '
                     f'class="tick">{escape(label)}</text>')
    if threshold_ms:
        y = y_at(threshold_ms)
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" class="limit"/>')
        parts.append(f'<text x="{WIDTH - RIGHT - 4}" y="{y - 4:.1f}" text-anchor="end" class="limit-label">'
                     f'limit {threshold_ms:g} ms</text>')
    for number, one in enumerate(series):
        colour = COLOURS[number % len(COLOURS)]
        points = [(x_at(i), y_at(v)) for i, v in enumerate(one.values_ms) if v is not None and v > 0]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for (x, y), value in zip(points, [v for v in one.values_ms if v is not None and v > 0], strict=True):
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colour}">'
                         f'<title>{escape(one.label)}: {value:.4g} ms</title></circle>')
        legend_x = LEFT + sum(28 + 7 * len(earlier.label) for earlier in series[:number])
        parts.append(f'<rect x="{legend_x}" y="{LEGEND_Y - 9}" width="10" height="10" fill="{colour}"/>')
        parts.append(f'<text x="{legend_x + 14}" y="{LEGEND_Y}" class="legend">{escape(one.label)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def histogram_svg(bands: Sequence[tuple[str, int]], *, title: str) -> str:
    """Samples per latency band as bars on a log count axis, each bar labelled with its count."""
    if not bands or not any(count for _, count in bands):
        return f'<p class="empty">{escape(title)}: no samples</p>'
    top = max(count for _, count in bands)
    levels = math.log10(top) + 1.25  # headroom for the tallest bar's count label
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = plot_w / len(bands)
    parts = _frame(title, f"{title}: samples per latency band, log scale")
    for exponent in range(int(math.log10(top)) + 1):
        y = TOP + plot_h * (1 - (exponent + 1) / levels)
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" class="tick">'
                     f'{10 ** exponent:,}</text>')
    for index, (label, count) in enumerate(bands):
        height = plot_h * (math.log10(count) + 1) / levels if count else 0.0
        x = LEFT + slot * index + slot * 0.1
        y = TOP + plot_h - height
        parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{slot * 0.8:.1f}" height="{height:.1f}" '
                     f'class="bar"><title>{escape(label)}: {count:,} samples</title></rect>')
        parts.append(f'<text x="{x + slot * 0.4:.1f}" y="{y - 3:.1f}" text-anchor="middle" class="count">'
                     f'{count:,}</text>')
        parts.append(f'<text x="{x + slot * 0.4:.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle" '
                     f'class="tick">{escape(label)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)
