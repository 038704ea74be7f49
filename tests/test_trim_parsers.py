"""Parsers of unit files, systemctl output, crontabs, fstab, crypttab, lvm.conf and dm tables never raise."""

from __future__ import annotations

import contextlib
import datetime as dt

import pytest
from diskdoctor.app.base.errors import UsageError
from diskdoctor.app.core.trim.peak_window import parse_peak_window
from diskdoctor.probes.calendar_spec import ScheduleError, parse_cron_schedule, parse_on_calendar
from diskdoctor.probes.cron_trims import fstrim_commands
from diskdoctor.probes.crypttab import parse_crypttab
from diskdoctor.probes.dm_tables import parse_dmsetup_table, parse_lvs_json
from diskdoctor.probes.fstab import parse_fstab
from diskdoctor.probes.fstrim_args import trim_scope
from diskdoctor.probes.lvm_conf import parse_lvm_conf
from diskdoctor.probes.systemctl_show import (
    calendar_expressions,
    exec_command_lines,
    parse_show_timestamp,
    parse_systemctl_show,
)
from diskdoctor.probes.timespan import parse_timespan
from diskdoctor.probes.unit_files import UnitSettings, parse_unit
from hypothesis import given, settings
from hypothesis import strategies as st

CONFIG_ALPHABET = st.sampled_from(list("abcXYZ019 =-_.,:;#[]{}\"'\\/\t\n*~@") + ["OnCalendar", "discard",
                                                                                  "fstrim", "\n\n"])
config_text = st.lists(CONFIG_ALPHABET, max_size=120).map("".join) | st.text(max_size=200)
NOW = dt.datetime(2026, 11, 21, 15, 30, tzinfo=dt.timezone.utc)


@settings(max_examples=300, deadline=None)
@given(config_text)
def test_text_parsers_never_raise(text: str) -> None:
    units = parse_unit(text)
    UnitSettings(tuple((s, k, v, "x") for s, k, v in units)).values("Timer", "OnCalendar")
    parse_systemctl_show(text)
    calendar_expressions(text)
    exec_command_lines(text)
    parse_show_timestamp(text, dt.timezone.utc)
    parse_fstab(text)
    parse_crypttab(text)
    parse_lvm_conf(text)
    parse_dmsetup_table(text)
    parse_lvs_json(text)
    parse_timespan(text)
    for line in fstrim_commands(text):
        trim_scope(line)


@settings(max_examples=300, deadline=None)
@given(config_text)
def test_schedule_parsers_raise_only_their_own_error(text: str) -> None:
    for parse in (lambda: parse_on_calendar(text), lambda: parse_cron_schedule(text.split())):
        try:
            spec = parse()
        except ScheduleError:
            continue
        moment = spec.next_after(NOW)
        assert moment is None or moment > NOW
    with contextlib.suppress(UsageError):
        parse_peak_window(text)


def test_unit_file_rules() -> None:
    text = "[Timer]\nOnCalendar=weekly\n# comment\n; comment\nOnCalendar=\nOnCalendar=Sun\\\n 03:00\n"
    settings_ = UnitSettings(tuple((s, k, v, "f") for s, k, v in parse_unit(text)))
    assert settings_.values("Timer", "OnCalendar") == [("Sun 03:00", "f")]


@pytest.mark.parametrize(("expression", "expected"), [
    ("weekly", dt.datetime(2026, 11, 23, 0, 0)),
    ("daily", dt.datetime(2026, 11, 22, 0, 0)),
    ("Sun *-*-* 03:00", dt.datetime(2026, 11, 22, 3, 0)),
    ("Mon..Fri 10:00", dt.datetime(2026, 11, 23, 10, 0)),
    ("Sat,Sun 02:30:00", dt.datetime(2026, 11, 22, 2, 30)),
    ("monthly", dt.datetime(2026, 12, 1, 0, 0)),
    ("quarterly", dt.datetime(2027, 1, 1, 0, 0)),
    ("*:0/15", dt.datetime(2026, 11, 21, 15, 45)),
    ("2027-*-* 00:00", dt.datetime(2027, 1, 1, 0, 0)),
])
def test_on_calendar_next_elapse(expression: str, expected: dt.datetime) -> None:
    assert parse_on_calendar(expression).next_after(NOW) == expected.replace(tzinfo=dt.timezone.utc)


@pytest.mark.parametrize(("fields", "expected"), [
    ("0 3 * * 0", dt.datetime(2026, 11, 22, 3, 0)),
    ("47 6 * * 7", dt.datetime(2026, 11, 22, 6, 47)),
    ("@weekly", dt.datetime(2026, 11, 22, 0, 0)),
    ("*/20 * * * *", dt.datetime(2026, 11, 21, 15, 40)),
    ("30 2 1 * mon", dt.datetime(2026, 11, 23, 2, 30)),
    ("0 0 * dec fri", dt.datetime(2026, 12, 4, 0, 0)),
])
def test_cron_next_run(fields: str, expected: dt.datetime) -> None:
    assert parse_cron_schedule(fields.split()).next_after(NOW) == expected.replace(tzinfo=dt.timezone.utc)


@pytest.mark.parametrize(("command", "scope"), [
    ("/sbin/fstrim --all || true", ("all", ())),
    ("fstrim -av", ("all", ())),
    ("fstrim-all", ("all", ())),
    ("/sbin/fstrim --listed-in /etc/fstab:/proc/self/mountinfo --verbose", ("fstab", ())),
    ("fstrim -v /var/lib/etcd > /dev/null", ("paths", ("/var/lib/etcd",))),
])
def test_fstrim_scope(command: str, scope: tuple[str, tuple[str, ...]]) -> None:
    assert trim_scope(command) == scope


def test_lvm_conf_nested_sections_and_comments() -> None:
    values = parse_lvm_conf("devices {\n  # issue_discards = 1\n  issue_discards = 0\n}\n"
                            "allocation { thin_pool_discards = \"nopassdown\" }\n")
    assert values == {"devices/issue_discards": "0", "allocation/thin_pool_discards": "nopassdown"}


def test_timespans() -> None:
    assert [parse_timespan(t) for t in ("6000", "100min", "1h 40min", "1h40min", "bogus", "")] == \
           [6000, 6000, 6000, 6000, None, None]


def test_peak_window_wraps_midnight() -> None:
    window = parse_peak_window("Fri 22:00-02:00")
    assert window.contains(dt.datetime(2026, 11, 20, 23, 0))
    assert window.contains(dt.datetime(2026, 11, 21, 1, 0))
    assert not window.contains(dt.datetime(2026, 11, 21, 3, 0))
