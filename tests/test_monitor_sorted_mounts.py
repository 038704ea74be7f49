"""Sorted (`o`), each row names the mountpoint it serves where the device column can hold it, the column
taking the figure columns' blank starts for it (newuser21 #11: at 120x40 `vda /` but `loop3` alone); a
mountpoint still left out is said on the status line (newuser20 #7). Sorting never costs a figure column."""

from __future__ import annotations

import pytest
from diskdoctor.app.tui.monitor_screen import MonitorScreen
from test_monitor_heading import SHORT, _live_app, _mounted_at
from test_monitor_layout import SIZE_IDS, SIZES, screen_lines


async def _sorted(pilot) -> list[str]:  # type: ignore[no-untyped-def]
    await _mounted_at(pilot, SHORT)
    await pilot.press("o")
    await pilot.pause(0.3)
    return screen_lines(pilot.app)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_sorted_a_left_out_mountpoint_is_said(monkeypatch: pytest.MonkeyPatch,
                                                    size: tuple[int, int]) -> None:
    app = _live_app(monkeypatch)
    async with app.run_test(size=size) as pilot:
        lines = await _sorted(pilot)
        screen = app.screen
        assert isinstance(screen, MonitorScreen)
        status = lines[-3]
        said = "mountpoint" in status and "in the details" in status
        assert said == (screen._mounts_left_out > 0), status
        if size == (200, 60):  # every row's mountpoint, its last folder whole, beside the side pane
            assert not said and any(" sda2 …/newuser19-ext4mnt " in line for line in lines), lines[:8]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_sorted_a_filesystems_own_device_names_its_mountpoint(monkeypatch: pytest.MonkeyPatch,
                                                                    size: tuple[int, int]) -> None:
    """sda2 (under /tmp/newuser19-ext4mnt alone) names it, cut to its last folder's ends where it must be
    ("sda2 …/newu…mnt"), with every figure column the grouped view has still there."""
    app = _live_app(monkeypatch)
    async with app.run_test(size=size) as pilot:
        screen = await _mounted_at(pilot, SHORT)
        grouped = [str(key.value) for key in screen.query_one("#monitor-table").columns]
        lines = await _sorted(pilot)
        cell = next(line for line in lines if line.startswith(" sda2")).split()
        assert len(cell) > 1 and cell[1].startswith("…/") and cell[1].endswith("mnt"), lines[:6]
        assert [str(key.value) for key in screen.query_one("#monitor-table").columns] == grouped
