"""Sorted (`o`) at 200x60, a long mountpoint gives way to the side pane: it stays beside the table (its
heading cut at a "/" and wrapped), and the rows under the table go to the trend, not ~38 blank rows under a
side pane put below it (mon13)."""

from __future__ import annotations

import pytest
from diskdoctor.app.tui import monitor_screen
from test_monitor_heading import _live_app, _mounted_at
from test_monitor_layout import screen_lines

LONG = "/tmp/mon13-a-rather-long-mountpoint-name-for-the-monitor-side-pane"


async def test_sorted_at_200_keeps_the_side_pane_beside(monkeypatch: pytest.MonkeyPatch) -> None:
    app = _live_app(monkeypatch)
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await _mounted_at(pilot, LONG)
        assert not screen.has_class("-side-below")  # grouped: beside
        await pilot.press("o")
        await pilot.pause(0.3)
        screen.on_monitor_tick(monitor_screen.MonitorTick(screen.sample))  # a tick: the trend has figures
        await pilot.pause(0.3)
        lines = screen_lines(app)
        assert not screen.has_class("-side-below"), "\n".join(lines[:12])
        row = next(line for line in lines if line.startswith(" sda2 "))
        assert "│" in row, row  # the side pane beside the row
        assert screen._trend_shown  # the rows under the table: the selected layer's last minute
        assert max(len(line) for line in lines) <= 200
        heading = [line.split("│", 1)[1].strip() for line in lines if "│" in line and "side-pane" in line]
        assert heading and all(len(line) < 72 for line in heading), heading  # cut to the pane
