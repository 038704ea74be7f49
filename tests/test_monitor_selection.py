"""Monitor opens on the app's one selection (newuser19 #1): Stack, TRIM and Benchmark showed loop0's
filesystem while Monitor's details named its own first row (`/ (ext4) on vda (disk)`)."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.monitor_screen import MonitorScreen
from diskdoctor.app.tui.selection import choose, chosen, looked_at
from test_monitor_layout import open_monitor, settle
from textual.widgets import DataTable

SIZES = [(80, 24), (120, 40), (200, 60)]
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]
LAB = "lab-ssd"


def details_title(screen: MonitorScreen) -> str:
    """The details pane's first line (the selected layer's heading)."""
    return str(screen.query_one("#monitor-selected").render()).strip().splitlines()[0]


def first_group(screen: MonitorScreen) -> str:
    return next(key for key in screen._row_keys if key.startswith("group|")).removeprefix("group|")


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_a_fresh_tui_opens_monitor_on_the_filesystem_trim_shows(size: tuple[int, int]) -> None:
    """Nothing chosen yet: Monitor shows the filesystem TRIM (and so Benchmark) shows, not its first row."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        shown = looked_at(app)
        assert chosen(app) is None and shown is not None and shown.mountpoint
        screen = await open_monitor(pilot)
        assert first_group(screen) != shown.mountpoint  # else the test proves nothing
        assert screen._selected_key() == f"group|{shown.mountpoint}"
        assert f"{shown.mountpoint.rsplit('/', 1)[-1]} (" in details_title(screen), details_title(screen)
        await pilot.press("4")  # left without moving: still nobody's choice
        await settle(pilot)
        assert chosen(app) is None


async def test_a_fresh_tui_opens_monitor_on_the_device_stack_shows() -> None:
    """Stack's cursor left where it started (a device under a filesystem): Monitor's cursor is on it."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("2")  # TRIM looks at its first row; then Stack's cursor is the last looked at
        await settle(pilot)
        await pilot.press("1")
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        shown = looked_at(app)
        assert shown is not None and shown.by == "stack" and shown.kname
        screen = await open_monitor(pilot)
        key = screen._selected_key() or ""
        assert key.endswith(f"|{shown.kname}") or key == f"group|{shown.mountpoint}", (key, shown)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_a_row_chosen_below_the_first_on_trim_is_monitors_row_each_time_it_is_shown(
        size: tuple[int, int]) -> None:
    """A filesystem chosen on TRIM (not its first row), then another: Monitor follows each, and a resize
    keeps it there."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("down", "down")
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        picked = chosen(app)
        assert picked is not None and picked.mountpoint
        screen = await open_monitor(pilot)
        assert screen._selected_key() == f"group|{picked.mountpoint}"
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("down")
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        await pilot.pause(0.2)
        again = chosen(app)
        assert again is not None and again.mountpoint != picked.mountpoint
        assert screen._selected_key() == f"group|{again.mountpoint}"
        await pilot.resize_terminal(size[0] + 20, size[1] + 6)
        await settle(pilot)
        await pilot.pause(0.2)
        assert screen._selected_key() == f"group|{again.mountpoint}"


async def test_a_directory_chosen_on_runs_selects_the_filesystem_it_is_in() -> None:
    """Runs chooses a run's directory when it has no mountpoint: Monitor shows the filesystem holding it
    (as Stack does), not its own first row."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_monitor(pilot)
        groups = [key.removeprefix("group|") for key in screen._row_keys if key.startswith("group|")]
        target = next(group for group in groups[1:] if group != "/")
        await pilot.press("1")
        await settle(pilot)
        choose(app, None, f"{target}/runs/db", "runs", f"{target}/runs/db")
        await pilot.press("6")
        await settle(pilot)
        await pilot.pause(0.2)
        assert screen._selected_key() == f"group|{target}"
        table = screen.query_one("#monitor-table", DataTable)
        assert table.cursor_row == screen._row_keys.index(f"group|{target}")


async def test_sorting_keeps_the_cursor_on_its_device() -> None:
    """`o` sorts the rows: the cursor stays on the selected device (it fell to the first row, so Monitor's
    details left the selection other screens show), and back to grouped it is still there."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        choose(app, "dm-24", "/lab/luks1", "trim")
        screen = await open_monitor(pilot)
        assert screen._selected_key() == "group|/lab/luks1"
        kname = screen._selected_layer()[0].row.kname
        for _ in range(3):
            await pilot.press("o")
            await pilot.pause(0.2)
            assert (screen._selected_key() or "").endswith(f"|{kname}"), (screen._selected_key(), kname)
        await pilot.press("4")
        await settle(pilot)
        selection = chosen(app)
        assert selection is not None and selection.by == "trim"  # sorting chose nothing


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_a_filesystem_chosen_on_runs_moves_a_sorted_monitor(size: tuple[int, int]) -> None:
    """Sorted (`o`), Monitor has no filesystem titles: a Runs pick (a mountpoint, no device) still puts the
    cursor on that filesystem's device, and its details name it (newuser24 #1: the side pane stayed on the
    old filesystem while TRIM, Stack, Benchmark and Advice followed)."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = await open_monitor(pilot)
        groups = [group for group in screen.sample.groups if group.group.key and group.layers]
        await pilot.press("o")
        await pilot.pause(0.2)
        for group in (groups[-1], groups[1]):
            kname = group.layers[0].row.kname
            assert not (screen._selected_key() or "").endswith(f"|{kname}")  # else the test proves nothing
            await pilot.press("1")
            await settle(pilot)
            choose(app, None, group.group.key, "runs", f"{group.group.key}/runs/db")
            await pilot.press("6")
            await settle(pilot)
            await pilot.pause(0.2)
            assert screen.sort_key is not None
            assert (screen._selected_key() or "").endswith(f"|{kname}"), (screen._selected_key(), kname)
            assert screen._selected_layer()[0].row.kname == kname
