"""cron jobs that call fstrim: cron.{daily,weekly,monthly}, /etc/cron.d, /etc/crontab, root's crontab."""

from __future__ import annotations

import re
import stat
from dataclasses import dataclass

from .calendar_spec import CalendarSpec, ScheduleError, parse_cron_schedule
from .fstrim_args import trim_scope
from .root import Root

PERIODIC_DIRS = {"etc/cron.daily": "daily", "etc/cron.weekly": "weekly", "etc/cron.monthly": "monthly"}
SYSTEM_CRONTABS = ("etc/crontab",)
SYSTEM_CRON_DIR = "etc/cron.d"
USER_CRONTABS = ("var/spool/cron/crontabs/root", "var/spool/cron/root")
CRON_DAEMONS = ("usr/sbin/cron", "usr/sbin/crond", "sbin/crond", "usr/bin/crond", "usr/sbin/anacron")
ANACRON = "usr/sbin/anacron"
RUN_PARTS_NAME = re.compile(r"^[A-Za-z0-9_-]+$")
ENV_LINE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\s*=")
FSTRIM_WORD = re.compile(r"(?<![\w.-])(fstrim(?:-all)?)(?![\w.-])|/fstrim(?:-all)?\b")


@dataclass(frozen=True, slots=True)
class CronTrim:
    """One cron entry that runs fstrim, when it runs, what it trims and whether cron will run it."""

    source: str
    command: str
    calendar: str
    spec: CalendarSpec | None
    scope: str
    """'all' (-a/--all/fstrim-all), 'fstab' (-A/--fstab/--listed-in), or 'paths'."""
    paths: tuple[str, ...]
    runs: bool
    why_not: str | None


def fstrim_commands(text: str) -> list[str]:
    """Non-comment lines of a script or crontab that call fstrim."""
    lines = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#") and FSTRIM_WORD.search(stripped):
            lines.append(stripped)
    return lines


def _schedule(fields: list[str]) -> tuple[CalendarSpec | None, str]:
    text = " ".join(fields)
    try:
        return parse_cron_schedule(fields), text
    except ScheduleError as err:
        return None, f"{text} ({err})"


def _crontab_entries(root: Root, rel: str, has_user: bool) -> list[CronTrim]:
    text, _ = root.read_text(rel)
    if text is None:
        return []
    entries = []
    for line in fstrim_commands(text):
        if ENV_LINE.match(line):
            continue
        words = line.split()
        count = 1 if words[0].startswith("@") else 5
        if len(words) <= count + (1 if has_user else 0):
            continue
        command = " ".join(words[count + (1 if has_user else 0):])
        spec, calendar = _schedule(words[:count])
        scope, paths = trim_scope(command)
        entries.append(CronTrim(root.host_path(rel), command, calendar, spec, scope, paths,
                                spec is not None, None if spec else "cron schedule not understood"))
    return entries


def _run_parts_times(root: Root) -> dict[str, tuple[CalendarSpec | None, str]]:
    """When /etc/crontab runs each cron.<period> directory (Debian: 06:25 daily, 06:47 Sunday...)."""
    times: dict[str, tuple[CalendarSpec | None, str]] = {}
    text, _ = root.read_text("etc/crontab")
    for line in (text or "").splitlines():
        words = line.split()
        for directory in PERIODIC_DIRS:
            if len(words) > 6 and "run-parts" in line and f"/{directory}" in line and \
                    not line.lstrip().startswith("#"):
                if "anacron" in line and "||" in line and root.exists(ANACRON):
                    times[directory] = (None, "run by anacron at a time set in /etc/anacrontab "
                                              "(its `test -x /usr/sbin/anacron ||` guard makes cron skip it)")
                else:
                    times[directory] = _schedule(words[:5])
    return times


def _executable(root: Root, rel: str) -> bool:
    mode = root.file_mode(rel)
    return bool(mode is not None and stat.S_ISREG(mode) and mode & 0o111)


def _periodic_entries(root: Root) -> list[CronTrim]:
    entries = []
    times = _run_parts_times(root)
    for directory, period in PERIODIC_DIRS.items():
        for name in root.listdir(directory) or []:
            rel = f"{directory}/{name}"
            text, _ = root.read_text_resolved(rel)
            commands = fstrim_commands(text or "")
            if not commands:
                continue
            spec, calendar = times.get(directory, (None, "run-parts; time set by anacron or the "
                                                         "cron daemon"))
            why_not = None
            if not _executable(root, rel):
                why_not = "not executable: run-parts skips it"
            elif not RUN_PARTS_NAME.match(name):
                why_not = "name has characters other than letters, digits, _ and -: Debian's run-parts " \
                          "skips it"
            scope, paths = trim_scope(commands[0])
            entries.append(CronTrim(root.host_path(rel), commands[0], f"{period}: {calendar}",
                                    spec, scope, paths, why_not is None, why_not))
    return entries


def cron_daemon(root: Root) -> str | None:
    """The host path of an installed cron or anacron binary, or None when nothing runs cron jobs."""
    for rel in CRON_DAEMONS:
        if root.exists(rel):
            return root.host_path(rel)
    return None


def read_cron_trims(root: Root) -> list[CronTrim]:
    """Every cron entry on the host that calls fstrim."""
    entries = _periodic_entries(root)
    for rel in SYSTEM_CRONTABS:
        entries += _crontab_entries(root, rel, has_user=True)
    for name in root.listdir(SYSTEM_CRON_DIR) or []:
        if RUN_PARTS_NAME.match(name):
            entries += _crontab_entries(root, f"{SYSTEM_CRON_DIR}/{name}", has_user=True)
    for rel in USER_CRONTABS:
        entries += _crontab_entries(root, rel, has_user=False)
    return entries
