"""`/` filters the Runs and Monitor screens as it does Stack, TRIM and Advice: the status line says how many
rows it keeps, j/k/g/G move over the kept rows, Esc brings every row back, and on the Monitor the rows stay
filtered, with the cursor on the same device, tick after tick."""

from __future__ import annotations

from pathlib import Path

from conftest import fixture_root
from diskdoctor.app.core.runs.store import RunStore
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.monitor_screen import MonitorScreen
from diskdoctor.app.tui.runs_screen import RunsScreen
from diskdoctor.probes.engine.workloads.randwrite import RandwriteParams
from diskdoctor.widgets.filter_bar import FilterBar
from support.runs_support import kind_run
from test_runs_screen import three_runs
from test_tui_layout import settle
from textual.widgets import DataTable, Static

__all__ = ["three_runs"]

LAB = "lab-ssd"
CRYPT = ["group|/lab/luks1", "/lab/luks1|dm-24", "group|/lab/luks2off", "/lab/luks2off|dm-23",
         "group|/lab/luks2on", "/lab/luks2on|dm-22", "group|/lab/plain", "/lab/plain|dm-25"]
"""The lab's four dm-crypt layers, each under its filesystem's heading."""


def status_of(app: DiskDoctorApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def test_slash_filters_the_runs_and_the_keys_move_over_what_it_keeps(three_runs: list[str],
                                                                           private_state_dir: Path) -> None:
    randwrite = RunStore().save(kind_run("randwrite", RandwriteParams(), 22, threshold=5.0))
    app = DiskDoctorApp(fixture_root("etcd-raid0-lvm-luks"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, RunsScreen)
        table = screen.query_one("#runs-table", DataTable)
        assert table.row_count == 4
        await pilot.press("slash", *"wal")
        await pilot.pause()
        bar = screen.query_one(FilterBar)
        assert bar.has_focus and bar.content_region.height == 1  # what is typed shows (no focus border)
        await pilot.press("enter")
        await pilot.pause()
        assert [run.id for run in screen.runs] == three_runs[::-1]  # newest first, the randwrite run out
        assert table.row_count == 3 and screen.focused is table
        assert status_of(app, "#runs-status").startswith("filter 'wal': 3 of 4 runs · Esc clears · Space")
        for keys, row in ((["G"], 2), (["k"], 1), (["g"], 0), (["j"], 1)):
            await pilot.press(*keys)
            await pilot.pause()
            assert table.cursor_row == row, keys
        await pilot.press("space")  # picks the run under the cursor among the kept ones
        await pilot.pause()
        assert screen.picked == [three_runs[1]]
        await pilot.press("slash", "escape")
        await pilot.pause()
        assert table.row_count == 4 and randwrite.id in [run.id for run in screen.runs]
        assert screen.runs[table.cursor_row].id == three_runs[1]  # the cursor stayed on its run
        assert not status_of(app, "#runs-status").startswith("filter")


async def test_no_run_matching_says_so(three_runs: list[str]) -> None:
    app = DiskDoctorApp(fixture_root("etcd-raid0-lvm-luks"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        await pilot.press("slash", *"compaction", "enter")
        await pilot.pause()
        assert app.screen.query_one("#runs-table", DataTable).row_count == 0
        assert status_of(app, "#runs-status").startswith("filter 'compaction': none of the 3 runs matches")
        assert status_of(app, "#runs-detail").startswith("No run matches the filter 'compaction'")


async def test_monitor_filter_keeps_its_rows_and_cursor_tick_after_tick() -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MonitorScreen)
        table = screen.query_one("#monitor-table", DataTable)
        every = table.row_count
        await pilot.press("slash", *"crypt", "enter")
        await pilot.pause()
        assert screen._row_keys == CRYPT and table.row_count == len(CRYPT) < every
        assert screen.focused is table
        assert screen.query_one(FilterBar).summary == "filter 'crypt': 4 of 37 devices · Esc clears"
        assert "filter" not in status_of(app, "#monitor-status")  # said once (newuser16 #14)
        for keys, row in ((["G"], 7), (["k"], 6), (["g"], 0), (["j", "j", "j"], 3)):
            await pilot.press(*keys)
            await pilot.pause()
            assert table.cursor_row == row, keys
        for _ in range(3):  # ticks: a new sample each time (a capture ticks on r; the live host every second)
            before = screen.sample
            screen.tick()
            await settle(pilot)
            assert screen.sample is not before
            assert screen._row_keys == CRYPT and table.row_count == len(CRYPT)
            assert screen._selected_key() == "/lab/luks2off|dm-23"
            assert screen.query_one(FilterBar).summary.startswith("filter 'crypt': 4 of 37 devices")
        await pilot.press("o")  # sorted: each kept device once, no headings
        await pilot.pause()
        assert sorted(screen._row_keys) == sorted(key for key in CRYPT if not key.startswith("group|"))
        await pilot.press("slash", "escape")
        await pilot.pause()
        assert table.row_count > len(CRYPT) and not status_of(app, "#monitor-status").startswith("filter")


async def test_monitor_filter_on_a_filesystem_keeps_its_whole_stack() -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        screen = app.screen
        await pilot.press("slash", *"raid1", "enter")
        await pilot.pause()
        assert screen._row_keys == ["group|/lab/raid1", *(f"/lab/raid1|{kname}" for kname in
                                                          ("md1", "sda2", "sdb2", "sda", "sdb"))]
        await pilot.press("slash", *" zzz", "enter")  # "raid1 zzz": every word must be there
        await pilot.pause()
        assert screen._row_keys == [] and screen.query_one("#monitor-table", DataTable).row_count == 0
        assert "none of the 37 devices matches" in screen.query_one(FilterBar).summary
        await pilot.press("down", "up", "j", "k", "G", "g")
        await pilot.pause()
        assert app.is_running and app._exception is None
