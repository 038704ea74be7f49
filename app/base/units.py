"""One unit system for latencies everywhere: ns/µs/ms/s chosen per value, three significant digits.

Plain functions with no Textual import, shared by the TUI widgets and the CLI's text output.
"""

from __future__ import annotations

import math

UNITS = (("s", 1e9), ("ms", 1e6), ("µs", 1e3), ("ns", 1.0))
SIGNIFICANT = 3
AT_LEAST = "≥"
"""The sign of a verdict over its limit ("FAIL p99 20.1 ms ≥ 10 ms"), one sign wherever a verdict is said
(newuser19: Benchmark and Runs said `>=` while Advice said `≥`)."""


def significant(value: float, digits: int = SIGNIFICANT) -> str:
    """`value` with `digits` significant digits and no exponent: 0.956, 4.60, 17.7, 227, 1500."""
    if value == 0 or not math.isfinite(value):
        return "0" if value == 0 else str(value)
    decimals = max(digits - 1 - math.floor(math.log10(abs(value))), 0)
    text = f"{value:.{decimals}f}"
    if decimals and len(text.replace("-", "").replace(".", "").lstrip("0")) > digits:
        text = f"{value:.{decimals - 1}f}"  # 9.996 rounded up to 10.00: one decimal fewer
    return text


def _unit_for(value_ns: float) -> tuple[str, float]:
    for unit, scale in UNITS:
        if abs(value_ns) >= scale * 0.9995:  # 999.6 µs reads as 1.00 ms, not 1000 µs
            return unit, scale
    return "ns", 1.0


def format_latency(value_ns: float | None, digits: int = SIGNIFICANT, space: bool = True) -> str:
    """A latency in the unit that suits it: "956 µs", "4.60 µs", "1.50 ms", "17.0 ms", "-" when unknown."""
    if value_ns is None:
        return "-"
    unit, scale = _unit_for(value_ns)
    return f"{significant(value_ns / scale, digits)}{' ' if space else ''}{unit}"


def format_latency_ms(value_ms: float | None, digits: int = SIGNIFICANT) -> str:
    """`format_latency` for a value given in milliseconds."""
    return format_latency(None if value_ms is None else value_ms * 1e6, digits)


def tick_label(value_ms: float) -> str:
    """A compact axis label for a 1-2-5 tick given in ms: "500µs", "1ms", "20ms", "2s"."""
    unit, scale = _unit_for(value_ms * 1e6)
    return f"{_trimmed(significant(value_ms * 1e6 / scale))}{unit}"


def format_threshold(value_ms: float) -> str:
    """A threshold as the user gave it, in the unit that suits it: "10 ms", "20 ms", "500 µs"."""
    unit, scale = _unit_for(value_ms * 1e6)
    return f"{_trimmed(significant(value_ms * 1e6 / scale, 6))} {unit}"


def range_label(low_ns: float, high_ns: float) -> str:
    """A histogram band in the unit of its upper end: "100-316 µs", "3.16-10 ms" (never an exponent)."""
    unit, scale = _unit_for(high_ns)
    return f"{_trimmed(significant(low_ns / scale))}-{_trimmed(significant(high_ns / scale))} {unit}"


def _trimmed(number: str) -> str:
    """"10.0" as "10", "3.16" unchanged: a label, not a measurement."""
    return number.rstrip("0").rstrip(".") if "." in number else number


def compared(value_ms: float, threshold_ms: float, below: bool) -> str:
    """`value_ms` shown with as many digits as it takes to read on the right side of the threshold.

    With three digits 10.03 ms reads "10.0 ms" next to ">= 10 ms" and 19.996 ms reads "20.0 ms" next to
    "< 20 ms"; this gives "10.03 ms" and "19.996 ms", so a verdict never rounds into a contradiction.
    """
    text = format_latency_ms(value_ms)
    for digits in range(SIGNIFICANT, 10):
        text = format_latency_ms(value_ms, digits)
        number, unit = text.split(" ")
        shown_ms = float(number) * dict(UNITS)[unit] / 1e6
        if (below and shown_ms < threshold_ms) or (not below and (shown_ms > threshold_ms
                                                                  or value_ms == threshold_ms)):
            return text
    return text
