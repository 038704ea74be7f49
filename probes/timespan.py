"""systemd time spans ("6000", "100min", "1h 40min", "1h 40min 3s") in seconds."""

from __future__ import annotations

import re

UNITS = {
    "us": 1e-6, "usec": 1e-6, "ms": 1e-3, "msec": 1e-3, "s": 1, "sec": 1, "second": 1, "seconds": 1,
    "m": 60, "min": 60, "minute": 60, "minutes": 60, "h": 3600, "hr": 3600, "hour": 3600,
    "hours": 3600, "d": 86400, "day": 86400, "days": 86400, "w": 604800, "week": 604800,
    "weeks": 604800,
}
PART = re.compile(r"(\d+(?:\.\d+)?)\s*([a-z]*)")


def parse_timespan(text: str, default_unit: str = "s") -> float | None:
    """Seconds in a systemd time span, or None when it is empty, 'infinity' or malformed."""
    cleaned = text.strip().lower()
    if not cleaned or cleaned in ("infinity", "n/a"):
        return None
    total, position = 0.0, 0
    for match in PART.finditer(cleaned):
        if cleaned[position:match.start()].strip():
            return None
        unit = match.group(2) or default_unit
        if unit not in UNITS:
            return None
        total += float(match.group(1)) * UNITS[unit]
        position = match.end()
    if position == 0 or cleaned[position:].strip():
        return None
    return total


def describe_span(seconds: float) -> str:
    """A compact span: '100 min', '1 h', '45 s'."""
    if seconds >= 3600 and seconds % 3600 == 0:
        return f"{seconds / 3600:g} h"
    if seconds >= 60:
        return f"{seconds / 60:g} min"
    return f"{seconds:g} s"
