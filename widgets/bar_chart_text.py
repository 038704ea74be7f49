"""A bar chart as rows of text (eighth blocks), one column per value: a series' recent past drawn taller
than a one-row sparkline where a screen has rows to spare (htop's and iotop's graphs)."""

from __future__ import annotations

from collections.abc import Sequence

EIGHTHS = " ▁▂▃▄▅▆▇█"
"""A cell filled from the bottom by 0 to 8 eighths."""
LEAST_EIGHTHS = 2
"""A value above zero fills at least this many eighths: it never reads as the idle baseline (one eighth)."""


def bar_rows(values: Sequence[float | None], width: int, height: int, top: float) -> list[str]:
    """`height` rows (the top one first) of the last `width` values as bars from 0 to `top`, right-aligned so
    the newest value is in the last column. Zero is the baseline (▁ on the bottom row, so an idle series
    draws a flat line), a value above zero at least LEAST_EIGHTHS, None (no figure) a blank column."""
    width, height = max(width, 0), max(height, 0)
    levels: list[int | None] = []
    for value in list(values)[-width:] if width else []:
        if value is None:
            levels.append(None)
            continue
        share = min(max(value / top, 0.0), 1.0) if top > 0 else 0.0
        eighths = round(share * height * 8)
        levels.append(max(eighths, LEAST_EIGHTHS) if value > 0 else 1)
    rows = []
    for row in range(height):
        floor = (height - 1 - row) * 8
        cells = (" " if level is None else EIGHTHS[min(max(level - floor, 0), 8)] for level in levels)
        rows.append("".join(cells).rjust(width))
    return rows
