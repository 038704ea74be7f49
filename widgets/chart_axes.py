"""Axis arithmetic for the latency chart: a 1-2-5 logarithmic value axis and a linear time axis."""

from __future__ import annotations

import math
from dataclasses import dataclass

NICE_MANTISSAS = (1.0, 2.0, 5.0)


def nice_ticks(low: float, high: float) -> list[float]:
    """The 1-2-5 values (…, 0.1, 0.2, 0.5, 1, 2, …) from the largest <= low to the smallest >= high."""
    low = max(low, 1e-9)
    high = max(high, low)
    first, last = math.floor(math.log10(low)) - 1, math.ceil(math.log10(high)) + 1
    values = [round(m * 10.0 ** e, 12) for e in range(first, last + 1) for m in NICE_MANTISSAS]
    bottom = max(v for v in values if v <= low * (1 + 1e-9))
    top = min(v for v in values if v >= high * (1 - 1e-9))
    ticks = [v for v in values if bottom <= v <= top]
    if len(ticks) < 2:  # a flat line still gets an axis around it
        index = values.index(bottom)
        ticks = values[index - 1:index + 2]
    return ticks


@dataclass(frozen=True, slots=True)
class LogAxis:
    """Maps positive values onto dot rows 0 (top, `high`) .. `dots - 1` (bottom, `low`) logarithmically."""

    low: float
    high: float
    dots: int

    def row(self, value: float) -> int:
        """The dot row of `value`, clamped to the axis."""
        span = math.log10(self.high) - math.log10(self.low)
        share = (math.log10(max(value, 1e-12)) - math.log10(self.low)) / span if span > 0 else 0.5
        share = min(max(share, 0.0), 1.0)
        return round((1.0 - share) * (self.dots - 1))


@dataclass(frozen=True, slots=True)
class LinearAxis:
    """Maps seconds onto dot columns 0 .. `dots - 1`."""

    start: float
    end: float
    dots: int

    def column(self, t: float) -> int:
        """The dot column of time `t`, clamped to the axis."""
        span = self.end - self.start
        share = (t - self.start) / span if span > 0 else 0.0
        return round(min(max(share, 0.0), 1.0) * (self.dots - 1))


def time_step(span_s: float, labels_room: int) -> float:
    """A 1-2-5 step in seconds giving at most `labels_room` labels across `span_s`."""
    room = max(labels_room, 1)
    exponent = math.floor(math.log10(max(span_s / room, 1e-3)))
    while True:
        for mantissa in NICE_MANTISSAS:
            step = mantissa * 10.0 ** exponent
            if span_s / step <= room:
                return step
        exponent += 1


def format_seconds(value: float) -> str:
    """A time label: whole seconds as "12s", fractions to the millisecond as they are ("0.5s", "0.55s"; one
    decimal made ticks 0.05 s apart read `0.6s 0.6s`, newuser18 #8)."""
    return f"{round(value, 3):g}s"
