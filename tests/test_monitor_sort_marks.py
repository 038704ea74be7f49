"""Sorted by any column, its heading carries the ▼ and the status line says "sorted by HEADING" (newuser24
#15: sorted by f_await, neither was shown; every other column showed both)."""

from __future__ import annotations

import pytest
from diskdoctor.app.tui.monitor_screen import MonitorScreen
from test_monitor_heading import SHORT, _live_app, _mounted_at
from test_monitor_layout import screen_lines


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)], ids=["80x24", "120x40", "200x60"])
async def test_every_sort_column_is_marked_and_said(monkeypatch: pytest.MonkeyPatch,
                                                   size: tuple[int, int]) -> None:
    app = _live_app(monkeypatch)
    async with app.run_test(size=size) as pilot:
        screen = await _mounted_at(pilot, SHORT)
        assert isinstance(screen, MonitorScreen)
        seen: list[str] = []
        missing: list[tuple[str, str, str]] = []
        for _ in range(20):
            await pilot.press("o")
            await pilot.pause(0.3)
            key = screen.sort_key
            if key is None:
                break
            seen.append(key)
            heading = next(label for label, each, _ in screen._columns if each == key)
            table = screen.query_one("#monitor-table")
            marked = [str(column.key.value) for column in table.columns.values() if "▼" in str(column.label)]
            lines = screen_lines(app)
            status = lines[screen.query_one("#monitor-status").region.y]
            header = lines[table.region.y]
            if marked != [key] or f"{heading}▼" not in header or f"sorted by {heading}" not in status:
                missing.append((key, header.strip(), status.strip()))
        assert len(seen) >= 5, seen
        assert not missing, "\n".join(map(repr, missing))
