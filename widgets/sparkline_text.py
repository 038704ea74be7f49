"""A sparkline as text (▁▂▃▄▅▆▇█), for a table cell: one character per tick, on a fixed scale so rows
compare at a glance (a row's own maximum would make an idle disk's noise look like a spike); an idle tick
is the lowest bar, so an idle device draws a flat baseline rather than a blank cell."""

from __future__ import annotations

from collections.abc import Sequence

BARS = " ▁▂▃▄▅▆▇█"


def sparkline(values: Sequence[float | None], width: int, top: float = 1.0) -> str:
    """The last `width` values as bars from 0 (▁) to `top` (None, a tick without a figure, is a space);
    right-aligned so the newest tick is always in the last cell."""
    cells = []
    for value in list(values)[-width:]:
        if value is None:
            cells.append(" ")
            continue
        share = min(max(value / top, 0.0), 1.0) if top > 0 else 0.0
        cells.append(BARS[max(round(share * (len(BARS) - 1)), 1)])
    return "".join(cells).rjust(width)
