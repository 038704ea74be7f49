"""Which periodic trim covers a filesystem (fstrim.timer or cron), when it last ran and when it runs next."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from diskdoctor.probes.calendar_spec import ScheduleError, describe_delta, parse_on_calendar
from diskdoctor.probes.cron_trims import CronTrim
from diskdoctor.probes.fstab import FstabEntry
from diskdoctor.probes.fstrim_timer import TimerState
from diskdoctor.probes.timespan import describe_span
from diskdoctor.probes.trim_facts import TrimFacts

NOTRIM_OPTION = "X-fstrim.notrim"


@dataclass(frozen=True, slots=True)
class Schedule:
    """The periodic trim that covers one filesystem; kind 'none' when nothing does."""

    kind: str
    """fstrim.timer, cron or none."""
    enabled: bool
    calendar: str | None
    last_run: dt.datetime | None
    last_run_note: str | None
    next_run: dt.datetime | None
    random_delay: dt.timedelta
    """RandomizedDelaySec: the run starts up to this much after next_run."""
    accuracy: dt.timedelta
    """AccuracySec: systemd may start it this much later still, to coalesce wake-ups."""
    source: str
    covers_reason: str


def fstab_entry(facts: TrimFacts, mountpoint: str) -> FstabEntry | None:
    """The fstab line for a mountpoint, if any."""
    for entry in facts.fstab or []:
        if entry.mountpoint == (mountpoint.rstrip("/") or "/"):
            return entry
    return None


def timer_covers(facts: TrimFacts, mountpoint: str) -> tuple[bool, str]:
    """Whether fstrim.service trims this mountpoint, and why (or why not)."""
    timer = facts.timer
    scope = timer.service_scope
    if scope == "all":
        return True, "fstrim.service trims every mounted filesystem (-a)"
    if scope == "fstab" and facts.fstab is not None:
        entry = fstab_entry(facts, mountpoint)
        if entry is None:
            return False, f"fstrim.service trims only filesystems listed in {facts.fstab_source}, " \
                          f"and {mountpoint} is not listed"
        if NOTRIM_OPTION in entry.options:
            return False, f"{facts.fstab_source} marks {mountpoint} {NOTRIM_OPTION}"
        return True, f"{mountpoint} is listed in {facts.fstab_source}"
    if scope == "fstab":
        return True, "no /etc/fstab, so fstrim.service falls back to every mounted filesystem"
    return True, "fstrim.service command not recognised; assuming it trims everything"


def cron_covers(cron: CronTrim, facts: TrimFacts, mountpoint: str) -> bool:
    """Whether a cron fstrim entry includes this mountpoint."""
    if cron.scope == "all":
        return True
    if cron.scope == "fstab":
        entry = fstab_entry(facts, mountpoint)
        return facts.fstab is None or (entry is not None and NOTRIM_OPTION not in entry.options)
    return mountpoint in cron.paths


def timer_next_run(timer: TimerState, now: dt.datetime) -> dt.datetime | None:
    """systemd's own next elapse when it told us, else the earliest next firing of the calendars."""
    if timer.next_elapse is not None:
        return timer.next_elapse
    moments = []
    for expression in timer.calendars:
        try:
            moment = parse_on_calendar(expression).next_after(now)
        except ScheduleError:
            continue
        if moment is not None:
            moments.append(moment)
    return min(moments) if moments else None


def _timer_schedule(facts: TrimFacts, reason: str) -> Schedule:
    """The timer's schedule; systemd's own next elapse already includes its random delay."""
    timer = facts.timer
    return Schedule("fstrim.timer", True, ", ".join(timer.calendars) or "no OnCalendar=",
                    timer.last_trigger, timer.last_trigger_caveat, timer_next_run(timer, facts.clock.now),
                    dt.timedelta(seconds=0 if timer.next_elapse else timer.randomized_delay_s),
                    dt.timedelta(seconds=timer.accuracy_s),
                    timer.calendar_source, reason)


def timer_fires(facts: TrimFacts) -> tuple[bool, str]:
    """Whether the fstrim timer will fire at all on this host, and why not."""
    timer = facts.timer
    if not timer.installed:
        return False, "fstrim.timer is not installed"
    if timer.state == "masked":
        return False, "fstrim.timer is masked"
    if not timer.active:
        return False, f"fstrim.timer is {timer.state}"
    if not timer.systemd_running:
        return False, "fstrim.timer is enabled, but systemd is not running here (a container?), " \
                      "so it never fires"
    return True, "fstrim.timer is enabled"


def schedule_for(facts: TrimFacts, mountpoint: str) -> Schedule:
    """The trim schedule that covers `mountpoint`: the timer first, then cron, else none."""
    fires, why = timer_fires(facts)
    if fires:
        covers, reason = timer_covers(facts, mountpoint)
        if covers:
            return _timer_schedule(facts, reason)
    zero = dt.timedelta(0)
    for cron in facts.crons:
        if cron.runs and facts.cron_daemon and cron_covers(cron, facts, mountpoint):
            next_run = cron.spec.next_after(facts.clock.now) if cron.spec else None
            return Schedule("cron", True, cron.calendar, None,
                            "cron keeps no record of runs (look in syslog or the cron log)", next_run,
                            zero, zero, cron.source, f"{cron.source} runs `{cron.command}`")
    return Schedule("none", False, None, None, None, None, zero, zero, "-", why)


def describe_schedule(schedule: Schedule, now: dt.datetime) -> str:
    """'trimmed weekly by fstrim.timer (next Mon 00:00 + up to 100 min; last run 3 days ago)'."""
    if schedule.kind == "none":
        return "nothing trims it periodically"
    parts = []
    if schedule.next_run is not None:
        delay = schedule.random_delay.total_seconds()
        parts.append(f"next {schedule.next_run:%a %H:%M}" + (f" + up to {describe_span(delay)}"
                                                            if delay else "")
                     + f", {describe_delta(schedule.next_run - now)}")
    if schedule.last_run is not None:
        parts.append(f"last run {describe_delta(schedule.last_run - now)}")
    elif schedule.kind == "fstrim.timer":
        parts.append("never ran")
    detail = f" ({'; '.join(parts)})" if parts else ""
    if schedule.kind == "cron":
        return f"trimmed by cron, {schedule.calendar}{detail}"
    return f"trimmed {schedule.calendar} by {schedule.kind}{detail}"
