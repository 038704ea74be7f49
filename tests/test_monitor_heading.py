"""The details pane's heading is whole where the screen has room (newuser19 #4: at 120x40
`…/newuser19-ext4mnt (ext4) on loop0 (loop)` beside ~35 blank cells of "who does the I/O"; at 80x24
`/tmp…mnt (ext4) on loop0 (loop)`)."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import fixture_root
from diskdoctor.app.tui import monitor_screen
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.monitor_screen import MonitorScreen
from diskdoctor.app.tui.selection import choose
from diskdoctor.probes.root import Root
from rich.cells import cell_len
from test_monitor_layout import SIZE_IDS, SIZES, open_monitor, screen_lines

SHORT = "/tmp/newuser19-ext4mnt"
LONG = "/tmp/mon11-a-rather-long-mountpoint-for-monitor/ext4mnt"
MIDDLE = "/tmp/mon12-a-longer-ext4mnt"
"""Its one-line heading (50 cells) is longer than the filesystem title alone gave the figures at 120x40."""


def _live_app(monkeypatch: pytest.MonkeyPatch) -> DiskDoctorApp:
    """A live-like app on the small fixture (`/` on sda2), its ticks the test's."""
    monkeypatch.setattr(monitor_screen, "watch_block_devices", lambda root, on_change: (None, "no hotplug"))
    return DiskDoctorApp(Root(fixture_root("sata-ext4").path, live=True, label="test host"))


async def _mounted_at(pilot, mountpoint: str) -> MonitorScreen:  # type: ignore[no-untyped-def]
    """Monitor with `/`'s group shown as mounted at `mountpoint` (its title row under the cursor)."""
    choose(pilot.app, None, mountpoint, "stack")
    screen: MonitorScreen = await open_monitor(pilot)
    screen._timer.stop()
    await pilot.app.workers.wait_for_complete()
    groups = tuple(dataclasses.replace(group, group=dataclasses.replace(
        group.group, key=mountpoint, title=f"{mountpoint} (ext4)")) if group.group.key == "/" else group
        for group in screen.sample.groups)
    screen.on_monitor_tick(monitor_screen.MonitorTick(dataclasses.replace(screen.sample, groups=groups)))
    await pilot.pause(0.3)
    screen.on_monitor_tick(monitor_screen.MonitorTick(dataclasses.replace(screen.sample, groups=groups)))
    await pilot.pause(0.3)
    assert screen._selected_key() == f"group|{mountpoint}"
    return screen


@pytest.mark.parametrize("size", [*SIZES, (78, 24)], ids=[*SIZE_IDS, "78x24"])  # 78: `/tm…mnt` was cut
@pytest.mark.parametrize("mountpoint", [SHORT, LONG], ids=["short", "long"])
async def test_the_details_heading_is_whole_where_the_screen_has_room(
        monkeypatch: pytest.MonkeyPatch, size: tuple[int, int], mountpoint: str) -> None:
    """The filesystem's title whole (on its own line when " on sda2 (part)" does not fit beside it), where
    "who does the I/O" can give up the cells; cut at a "/" only where even that is too narrow."""
    app = _live_app(monkeypatch)
    async with app.run_test(size=size) as pilot:
        screen = await _mounted_at(pilot, mountpoint)
        _, heading = screen._selected_layer()
        lines = screen_lines(app)
        title = f"{mountpoint} (ext4)"
        pane = screen.query_one("#monitor-selected").content_size.width
        if screen.has_class("-side-below"):  # "who" gives up its blank cells, down to its process table
            content = size[0] - monitor_screen.SIDE_FRAME_CELLS - monitor_screen.SCROLLBAR_CELLS
            room = content - monitor_screen.PROCESS_TABLE_CELLS - monitor_screen.SELECTED_GAP_CELLS
            assert pane >= min(cell_len(title), room), (pane, room)
        if cell_len(title) <= pane:
            assert title in heading.splitlines()[0], heading
        else:  # cut by the one path rule, its last folder whole
            assert "/ext4mnt (ext4)" in heading.splitlines()[0] and "…" in heading.splitlines()[0], heading
        assert "on sda2 (part)" in heading, heading
        assert all(line.count("…") == 1 for line in heading.splitlines() if "…" in line), heading  # one cut
        for line in heading.splitlines():  # drawn as made: nothing cut after
            assert any(line in row for row in lines), (line, lines)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_sorted_a_device_names_its_filesystem(monkeypatch: pytest.MonkeyPatch,
                                                    size: tuple[int, int]) -> None:
    """newuser19 #3: sorted (`o`), loop0's row said nothing of `/tmp/newuser19-ext4mnt`: the mountpoint is
    in the device column where the figures leave room for it (cut at a "/"), and the selected device's
    heading names it always."""
    app = _live_app(monkeypatch)
    async with app.run_test(size=size) as pilot:
        screen = await _mounted_at(pilot, SHORT)
        await pilot.press("o")
        await pilot.pause(0.3)
        row = screen._row_keys.index(f"{SHORT}|sda2")
        screen.query_one("#monitor-table").move_cursor(row=row)
        await pilot.pause(0.3)
        _, heading = screen._selected_layer()
        assert heading.replace("\n", " ") == f"{SHORT} (ext4) on sda2 (part)", heading
        lines = screen_lines(app)
        for line in heading.splitlines():
            assert any(line in shown for shown in lines), (line, lines)
        cell = next(line for line in lines if line.startswith(" sda2 "))
        device = screen.query_one("#monitor-table").columns["device"].width
        if device >= cell_len(f"sda2 {SHORT}"):
            assert f"sda2 {SHORT}" in cell, cell


async def test_a_long_title_picked_elsewhere_fits_the_pane_when_monitor_opens() -> None:
    """long-names at 200x60, the kubelet volume chosen on TRIM: the heading fitted before the side pane had
    its width wrapped (`…4e5` / `60/volumes/…/mount (xfs)`); each line now fits the pane from the start."""
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=(200, 60)) as pilot:
        await pilot.pause(0.2)
        kubelet = next(mount.mount.mountpoint for mount in app.snapshot.host.block_mounts()
                       if mount.mount.mountpoint.startswith("/var/lib/kubelet"))
        choose(app, None, kubelet, "trim")
        screen = await open_monitor(pilot)
        assert screen._selected_key() == f"group|{kubelet}"
        pane = screen.query_one("#monitor-selected").content_size.width
        _, heading = screen._selected_layer()
        assert all(cell_len(line) <= pane for line in heading.splitlines()), (pane, heading)
        lines = screen_lines(app)
        for line in heading.splitlines():
            assert any(line in shown for shown in lines), (line, lines[:8])


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("mountpoint", [SHORT, MIDDLE, LONG], ids=["short", "middle", "long"])
async def test_the_details_heading_is_one_line_where_room_exists(
        monkeypatch: pytest.MonkeyPatch, size: tuple[int, int], mountpoint: str) -> None:
    """newuser20 #12: at 120x40 the heading wrapped `/tmp/newuser20-ext4mnt (ext4)` / `on loop1 (loop)` beside
    ~30 blank cells of "who does the I/O": under the table the figures get the longest one-line heading
    (`TITLE on DEVICE (kind)`) where "who" keeps its process table's width."""
    app = _live_app(monkeypatch)
    async with app.run_test(size=size) as pilot:
        screen = await _mounted_at(pilot, mountpoint)
        _, heading = screen._selected_layer()
        one_line = f"{mountpoint} (ext4) on sda2 (part)"
        content = size[0] - monitor_screen.SIDE_FRAME_CELLS - monitor_screen.SCROLLBAR_CELLS
        room = content - monitor_screen.PROCESS_TABLE_CELLS - monitor_screen.SELECTED_GAP_CELLS
        if screen.has_class("-side-below") and cell_len(one_line) <= room:
            assert heading == one_line, (size, heading)
            assert any(one_line in row for row in screen_lines(app)), screen_lines(app)
        else:
            assert heading.replace("\n", " ").endswith("on sda2 (part)"), heading
