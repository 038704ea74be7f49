"""A declared busy period such as "Mon-Fri 08:00-20:00", and whether a trim window touches it."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from diskdoctor.app.base.errors import UsageError

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
SPEC = re.compile(r"^\s*(?:(?P<days>[A-Za-z,\-]+|daily)\s+)?(?P<start>\d{1,2}:\d{2})\s*-\s*"
                  r"(?P<end>\d{1,2}:\d{2})\s*$")
STEP = dt.timedelta(minutes=5)
EXAMPLE = 'e.g. "Mon-Fri 08:00-20:00" or "daily 09:00-17:30"'


@dataclass(frozen=True, slots=True)
class PeakWindow:
    """Busy hours on some weekdays, in the host's local time; `end` may be 24:00."""

    text: str
    weekdays: frozenset[int]
    start_min: int
    end_min: int

    def contains(self, moment: dt.datetime) -> bool:
        """Whether a local moment falls inside the busy period."""
        minute = moment.hour * 60 + moment.minute
        if self.start_min <= self.end_min:
            return moment.weekday() in self.weekdays and self.start_min <= minute < self.end_min
        if minute >= self.start_min:
            return moment.weekday() in self.weekdays
        return (moment.weekday() - 1) % 7 in self.weekdays and minute < self.end_min

    def overlaps(self, start: dt.datetime, length: dt.timedelta) -> bool:
        """Whether any moment of [start, start + length] is inside the busy period (5-minute steps)."""
        moment = start
        while moment <= start + length:
            if self.contains(moment):
                return True
            moment += STEP
        return False


def _day(text: str) -> int:
    key = text.strip().lower()[:3]
    if key not in DAYS:
        raise UsageError(f"unknown weekday {text!r} in the peak window ({EXAMPLE})")
    return DAYS.index(key)


def _minutes(text: str) -> int:
    hours, minutes = (int(part) for part in text.split(":"))
    if hours > 24 or minutes > 59 or (hours == 24 and minutes):
        raise UsageError(f"bad time {text!r} in the peak window ({EXAMPLE})")
    return hours * 60 + minutes


def parse_peak_window(text: str) -> PeakWindow:
    """Parse a peak window; raises UsageError with an example when it does not parse."""
    if not text.strip():
        raise UsageError(f"the peak window is empty ({EXAMPLE})")
    match = SPEC.match(text)
    if not match:
        raise UsageError(f"cannot read the peak window {text!r} ({EXAMPLE})")
    days_text = match.group("days") or "daily"
    weekdays: set[int] = set()
    if days_text.lower() == "daily":
        weekdays = set(range(7))
    else:
        for item in days_text.split(","):
            first, sep, last = item.partition("-")
            start = _day(first)
            end = _day(last) if sep else start
            span = range(start, end + 1) if start <= end else [*range(start, 7), *range(0, end + 1)]
            weekdays.update(span)
    start, end = _minutes(match.group("start")), _minutes(match.group("end"))
    if start == end:
        raise UsageError(f"the peak window {text!r} is empty ({EXAMPLE})")
    return PeakWindow(text.strip(), frozenset(weekdays), start, end)
