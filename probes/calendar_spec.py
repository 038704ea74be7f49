"""Recurring schedules from systemd OnCalendar= and crontab lines, and when they next fire."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

SEARCH_DAYS = 800
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
SYSTEMD_SHORTHANDS = {
    "minutely": "*-*-* *:*:00", "hourly": "*-*-* *:00:00", "daily": "*-*-* 00:00:00",
    "monthly": "*-*-01 00:00:00", "weekly": "Mon *-*-* 00:00:00", "yearly": "*-01-01 00:00:00",
    "annually": "*-01-01 00:00:00", "quarterly": "*-01,04,07,10-01 00:00:00",
    "semiannually": "*-01,07-01 00:00:00",
}
CRON_SHORTHANDS = {
    "@hourly": "0 * * * *", "@daily": "0 0 * * *", "@midnight": "0 0 * * *",
    "@weekly": "0 0 * * 0", "@monthly": "0 0 1 * *", "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *",
}


class ScheduleError(ValueError):
    """The expression is malformed or uses a feature this evaluator does not model."""


@dataclass(frozen=True, slots=True)
class CalendarSpec:
    """A recurring local-time schedule; None in a field means "any"."""

    text: str
    weekdays: frozenset[int] | None
    years: frozenset[int] | None
    months: frozenset[int] | None
    days: frozenset[int] | None
    hours: tuple[int, ...]
    minutes: tuple[int, ...]
    day_or_weekday: bool = False
    """Cron semantics: when both day-of-month and weekday are restricted, either may match."""

    def _day_matches(self, day: dt.date) -> bool:
        if self.years is not None and day.year not in self.years:
            return False
        if self.months is not None and day.month not in self.months:
            return False
        day_ok = self.days is None or day.day in self.days
        weekday_ok = self.weekdays is None or day.weekday() in self.weekdays
        if self.day_or_weekday and self.days is not None and self.weekdays is not None:
            return day_ok or weekday_ok
        return day_ok and weekday_ok

    def next_after(self, after: dt.datetime) -> dt.datetime | None:
        """The first firing strictly after `after` (same tzinfo), or None within ~2 years."""
        start = after.replace(second=0, microsecond=0)
        for offset in range(SEARCH_DAYS):
            day = start.date() + dt.timedelta(days=offset)
            if not self._day_matches(day):
                continue
            for hour in self.hours:
                for minute in self.minutes:
                    moment = dt.datetime.combine(day, dt.time(hour, minute), after.tzinfo)
                    if moment > after:
                        return moment
        return None


def _expand(field: str, low: int, high: int, names: tuple[str, ...] = (), *,
            range_sep: str = "-", name_base: int = 0) -> frozenset[int] | None:
    """A comma list of values, ranges and steps within [low, high]; None for a bare '*'."""
    if field == "*":
        return None
    values: set[int] = set()
    for item in field.split(","):
        base, _, step_text = item.partition("/")
        step = _number(step_text, names, name_base) if step_text else 1
        if step <= 0:
            raise ScheduleError(f"bad step in {field!r}")
        if base in ("*", ""):
            first, last = low, high
        elif range_sep in base:
            first_text, _, last_text = base.partition(range_sep)
            first, last = _number(first_text, names, name_base), _number(last_text, names, name_base)
        else:
            first = _number(base, names, name_base)
            last = high if step_text else first
        if first > last:
            raise ScheduleError(f"backwards range in {field!r}")
        values.update(range(first, last + 1, step))
    if not values or min(values) < low or max(values) > high:
        raise ScheduleError(f"{field!r} is outside {low}..{high}")
    return frozenset(values)


def _number(text: str, names: tuple[str, ...], name_base: int) -> int:
    lowered = text.strip().lower()[:3]
    if names and lowered in names:
        return names.index(lowered) + name_base
    if not text.strip().isdigit():
        raise ScheduleError(f"not a number: {text!r}")
    return int(text)


def _weekday_set(text: str) -> frozenset[int]:
    """systemd weekday lists: Mon,Fri or Mon..Fri (also Sat-Sun style is rejected by systemd)."""
    result: set[int] = set()
    for item in text.split(","):
        first, sep, last = item.partition("..") if ".." in item else item.partition("-")
        start = _number(first, WEEKDAYS, 0)
        end = _number(last, WEEKDAYS, 0) if sep else start
        if start > end:
            result.update(range(start, 7))
            result.update(range(0, end + 1))
        else:
            result.update(range(start, end + 1))
    return frozenset(result)


def parse_on_calendar(text: str) -> CalendarSpec:
    """A systemd.time(7) calendar event such as `weekly` or `Sun *-*-* 03:00` (local time)."""
    original = text.strip()
    expression = SYSTEMD_SHORTHANDS.get(original.lower(), original)
    tokens = expression.split()
    if not tokens:
        raise ScheduleError("empty calendar expression")
    weekdays = None
    if tokens[0][:3].lower() in WEEKDAYS and ":" not in tokens[0]:
        weekdays = _weekday_set(tokens.pop(0))
    date_part, time_part = "*-*-*", "00:00:00"
    for token in tokens:
        if "~" in token:
            raise ScheduleError("'~' (days from the end of the month) is not modelled")
        if ":" in token:
            time_part = token
        elif "-" in token:
            date_part = token
        elif token.upper() in ("UTC", "GMT") or "/" in token:
            raise ScheduleError(f"time zone {token!r} in the expression is not modelled")
        else:
            raise ScheduleError(f"unexpected {token!r}")
    date_fields = date_part.split("-")
    if len(date_fields) == 2:
        date_fields.insert(0, "*")
    if len(date_fields) != 3:
        raise ScheduleError(f"bad date {date_part!r}")
    time_fields = time_part.split(":")
    if len(time_fields) not in (2, 3):
        raise ScheduleError(f"bad time {time_part!r}")
    years = _expand(date_fields[0], 1970, 2199, range_sep="..")
    months = _expand(date_fields[1], 1, 12, range_sep="..")
    days = _expand(date_fields[2], 1, 31, range_sep="..")
    hours = _expand(time_fields[0], 0, 23, range_sep="..")
    minutes = _expand(time_fields[1], 0, 59, range_sep="..")
    return CalendarSpec(original, weekdays, years, months, days,
                        tuple(sorted(hours)) if hours is not None else tuple(range(24)),
                        tuple(sorted(minutes)) if minutes is not None else tuple(range(60)))


def parse_cron_schedule(fields: list[str]) -> CalendarSpec:
    """Five crontab time fields (or one @shorthand) as a CalendarSpec."""
    text = " ".join(fields)
    if len(fields) == 1 and fields[0].lower() in CRON_SHORTHANDS:
        fields = CRON_SHORTHANDS[fields[0].lower()].split()
    elif len(fields) == 1 and fields[0].lower() == "@reboot":
        raise ScheduleError("@reboot runs once at boot, not on a calendar")
    if len(fields) != 5:
        raise ScheduleError(f"expected 5 time fields, got {len(fields)}")
    minute, hour, day, month, weekday = fields
    minutes = _expand(minute, 0, 59)
    hours = _expand(hour, 0, 23)
    days = _expand(day, 1, 31)
    months = _expand(month, 1, 12, MONTHS, name_base=1)
    cron_weekdays = _expand(weekday, 0, 7, ("sun", "mon", "tue", "wed", "thu", "fri", "sat"))
    weekdays = None if cron_weekdays is None else frozenset((d - 1) % 7 for d in cron_weekdays)
    return CalendarSpec(text, weekdays, None, months, days,
                        tuple(sorted(hours)) if hours is not None else tuple(range(24)),
                        tuple(sorted(minutes)) if minutes is not None else tuple(range(60)),
                        day_or_weekday=True)


def describe_moment(moment: dt.datetime, now: dt.datetime) -> str:
    """'Mon 2026-11-23 00:00 (in 2 days)' or '(3 days ago)': absolute plus relative."""
    return f"{moment:%a %Y-%m-%d %H:%M} ({describe_delta(moment - now)})"


def describe_delta(delta: dt.timedelta) -> str:
    """A coarse human distance: 'in 2 days', '5 hours ago', 'in 40 min'."""
    seconds = delta.total_seconds()
    future = seconds >= 0
    seconds = abs(seconds)
    if seconds < 3600:
        amount = f"{max(1, round(seconds / 60))} min"
    elif seconds < 2 * 86400:
        hours = round(seconds / 3600)
        amount = f"{hours} hour" + ("s" if hours != 1 else "")
    else:
        days = round(seconds / 86400)
        amount = f"{days} days"
    return f"in {amount}" if future else f"{amount} ago"
