"""Sorted (`o`), each row names the mountpoint it serves where the device column can hold it, the column
taking the figure columns' blank starts for it (newuser21 #11: at 120x40 `vda /` but `loop3` alone); a
mountpoint still left out is said on the status line (newuser20 #7). A mountpoint is shown only with its
last folder whole (newuser22 #4: `loop0 …/new…xt4`, cut twice, read as nothing), and the status line names
the sorted column as its heading does (`sorted by w/s`, not `w_s`). Sorting costs at most one of the least
telling columns (SORTED_GIVE_WAY), for the rows' mountpoints."""

from __future__ import annotations

import re

import pytest
from diskdoctor.app.tui.monitor_screen import SORTED_GIVE_WAY, MonitorScreen
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
        status = lines[screen.query_one("#monitor-status").region.y]
        said = "mountpoint" in status and "in the details" in status
        assert said == (screen._mounts_left_out > 0), status
        if size == (200, 60):  # sda2's mountpoint, its last folder whole, beside the side pane
            assert any(re.search(r" sda2 (…|/tmp)/newuser19-ext4mnt ", line) for line in lines), lines[:8]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_sorted_a_mountpoint_keeps_its_last_folder_whole_or_is_left_out(
        monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
    """sda2 (under /tmp/newuser19-ext4mnt alone) names it with its last folder whole ("sda2
    …/newuser19-ext4mnt") or not at all, never "…/newu…mnt"; left out, the status line counts it; every
    figure column the grouped view has is still there."""
    app = _live_app(monkeypatch)
    async with app.run_test(size=size) as pilot:
        screen = await _mounted_at(pilot, SHORT)
        grouped = [str(key.value) for key in screen.query_one("#monitor-table").columns]
        lines = await _sorted(pilot)
        cell = next(line for line in lines if line.startswith(" sda2")).split()
        device = screen.query_one("#monitor-table").columns["device"].content_width
        if device >= len("sda2 …/newuser19-ext4mnt"):
            assert cell[1] in (SHORT, "…/newuser19-ext4mnt"), lines[:6]
        else:
            assert len(cell) == 1 or not cell[1].startswith(("/", "…")), lines[:6]  # figures, if any
            status = lines[screen.query_one("#monitor-status").region.y]
            assert screen._mounts_left_out and "in the details" in status, status
        shown = [str(key.value) for key in screen.query_one("#monitor-table").columns]
        assert _at_most_one_gave_way(grouped, shown), (grouped, shown)


def _at_most_one_gave_way(grouped: list[str], shown: list[str]) -> bool:
    """Sorted, the columns are the grouped view's, less at most one that gives way to the mountpoints."""
    gone = [key for key in grouped if key not in shown]
    return len(gone) <= 1 and set(gone) <= set(SORTED_GIVE_WAY) and set(shown) <= set(grouped)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_sorted_every_row_names_its_mountpoint_where_a_least_column_gives_way(
        monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
    """newuser23 #8 at 120x40: `vda /` but `loop3` alone in a 17-cell device column (no title row names it
    any more). Where the table still has a discard (or inflight, util trend) column, the least telling one
    gives its room where that names more rows' mountpoints, each with its last folder whole (a row still
    without one is said on the status line); one column at most."""
    app = _live_app(monkeypatch)
    async with app.run_test(size=size) as pilot:
        screen = await _mounted_at(pilot, SHORT)
        grouped = [str(key.value) for key in screen.query_one("#monitor-table").columns]
        lines = await _sorted(pilot)
        shown = [str(key.value) for key in screen.query_one("#monitor-table").columns]
        assert _at_most_one_gave_way(grouped, shown), (grouped, shown)
        if not any(key in grouped for key in SORTED_GIVE_WAY):  # 80x24: none left to give way
            return
        device = screen.query_one("#monitor-table").columns["device"].width
        for name, least in (("sda2", "sda2 …/newuser19-ext4mnt"), ("sda", "sda …/newuser19-ext4mnt +2")):
            row = next(line for line in lines if line.startswith(f" {name} "))
            named = re.match(rf" {name} (/tmp|…)/newuser19-ext4mnt( \+2)? ", row)
            assert bool(named) == (len(least) <= device), (device, row, lines[:8])
        assert len("sda2 …/newuser19-ext4mnt") <= device  # the column that gave way named it


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_sorted_the_status_names_the_column_as_its_heading_does(monkeypatch: pytest.MonkeyPatch,
                                                                     size: tuple[int, int]) -> None:
    """Sorted by w/s (the second `o`), the status line says "sorted by w/s", never the key "w_s"."""
    app = _live_app(monkeypatch)
    async with app.run_test(size=size) as pilot:
        await _sorted(pilot)
        screen = app.screen
        assert isinstance(screen, MonitorScreen)
        while screen.sort_key not in ("w_s", None):
            await pilot.press("o")
            await pilot.pause(0.2)
        assert screen.sort_key == "w_s"
        await pilot.pause(0.3)
        status = screen_lines(app)[screen.query_one("#monitor-status").region.y]
        assert "w_s" not in status, status
        if "sorted by" in status:  # its shorter forms may leave it out
            assert "sorted by w/s" in status, status
