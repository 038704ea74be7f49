"""TRIM's clock note keeps a shorter form where its whole form does not fit (newuser22 #9: at 120x40 on
long-names and at 80x24 live `times in …, now = … clock` vanished, with no `…` to say something went)."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import fixture_host, fixture_root
from diskdoctor.app.tui.trim_screen import host_summary
from diskdoctor.probes.host_clock import HostClock
from diskdoctor.probes.trim_facts import TrimFacts, read_trim_facts
from test_tui import running, settled, text_of


def facts(name: str) -> TrimFacts:
    return read_trim_facts(fixture_root(name), fixture_host(name))


@pytest.mark.parametrize("width, note", [
    (200, "times in UTC (no /etc/localtime in the capture), now = this machine's clock "
          "(capture has no time)"),
    (118, "times in UTC, now = this machine's clock"),
    (85, "times in UTC, now = machine clock"),
    (78, "UTC, now = machine clock"),
    (70, "UTC, now = …")])
def test_the_note_takes_a_shorter_form(width: int, note: str) -> None:
    second = host_summary(facts("long-names"), None, width).plain.splitlines()[1]
    assert second.endswith(f" · {note}"), second
    assert len(second) <= width


def test_the_live_note_at_80() -> None:
    """Live at 80x24: `times in Etc/UTC, now = this host's clock` was dropped whole (newuser22 #9), then
    its `now = this host's clock` with no `…` (newuser23): both are said, short."""
    live = facts("long-names")
    clock = HostClock(live.clock.now, live.clock.zone, "Etc/UTC", "this host's clock")
    second = host_summary(dataclasses.replace(live, clock=clock), None, 78).plain.splitlines()[1]
    assert second.endswith(" · UTC, now = host clock"), second


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda size: f"{size[0]}x{size[1]}")
async def test_the_screen_shows_the_note(size: tuple[int, int]) -> None:
    async with running(fixture_root("long-names"), size) as (app, pilot):
        await pilot.press("2")
        await settled(app, pilot)
        assert "UTC, now = " in text_of(app, "#trim-host") and "clock" in text_of(app, "#trim-host")
