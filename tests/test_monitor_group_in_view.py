"""The cursor's filesystem group (its title and its layers) is wholly in view where it fits: a move onto a
title on the last row scrolls its layers up (newuser21 #12: at 80x24 the selected filesystem's title on the
last table row, its device under the fold)."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui import monitor_screen
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.monitor_screen import MonitorScreen, group_in_view
from diskdoctor.probes.root import Root
from test_monitor_layout import open_monitor
from textual.widgets import DataTable


def test_group_in_view_scrolls_the_least() -> None:
    titles = [0, 2, 5, 7]
    assert group_in_view(titles, 9, 5, 0, 6) == 1  # 5-6 under a view of 0-5: down by one to show 6
    assert group_in_view(titles, 9, 5, 0, 7) is None  # already whole
    assert group_in_view(titles, 9, 1, 3, 6) == 0  # above the view: its title on top
    assert group_in_view(titles, 9, 3, 0, 2) is None  # taller than the view: the table's own scroll
    assert group_in_view([], 9, 3, 0, 4) is None


async def test_moving_down_at_80x24_shows_each_title_with_its_layers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(monitor_screen, "watch_block_devices", lambda root, on_change: (None, "no hotplug"))
    app = DiskDoctorApp(Root(fixture_root("lab-ssd").path, live=True, label="test host"))  # 37 devices
    async with app.run_test(size=(80, 24)) as pilot:
        screen: MonitorScreen = await open_monitor(pilot)
        screen._timer.stop()
        await pilot.pause(0.3)
        table = screen.query_one("#monitor-table", DataTable)
        keys = screen._row_keys
        titles = [index for index, key in enumerate(keys) if key.startswith("group|")]
        rows = table.scrollable_content_region.height - table.header_height
        assert len(keys) > rows, (len(keys), rows)  # the case: a table taller than its view
        table.move_cursor(row=0)
        await pilot.pause(0.2)
        checked = 0
        for _ in keys:
            await pilot.press("down")
            await pilot.pause(0.2)
            row = table.cursor_row
            if row not in titles:
                continue
            end = min([index for index in titles if index > row] + [len(keys)]) - 1
            top = round(table.scroll_y)
            if end - row + 1 <= rows:
                assert top <= row and end < top + rows, (keys[row], row, end, top, rows)
                checked += 1
        assert checked
