"""The Monitor uses its room as newuser4 saw it in tmux (issue 23): device names whole where the figures
leave room, the process pane given the rows the table does not need, sorted rows that still say which
filesystem they serve, and "who does the I/O" explaining writes that no device shows yet."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import fixture_root
from diskdoctor.app.text.monitor import PROCESS_TABLE_CELLS, writeback_lines
from diskdoctor.app.tui import monitor_screen
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.monitor_screen import MonitorScreen
from diskdoctor.probes.io_monitor import IoMonitor, MonitorSample
from diskdoctor.probes.page_cache import PageCache, parse_meminfo_kib
from diskdoctor.probes.process_io import ProcessRate, ProcessRates
from diskdoctor.probes.root import Root, live_root
from test_monitor_layout import SIZE_IDS, SIZES, open_monitor, screen_lines
from textual.widgets import DataTable, Static

LONG = "luks-elasticsearch-hot-tier-data-volume-01"


def row_of(lines: list[str], name: str) -> str:
    return next(line for line in lines if line.lstrip().startswith(name))


async def test_a_long_device_name_is_whole_beside_room_at_200_columns() -> None:
    """long-names at 200x60: the 42-character crypt name was cut to 36 with ~36 blank columns beside."""
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=(200, 60)) as pilot:
        await open_monitor(pilot)
        lines = screen_lines(app)
        assert any(line.startswith(f" {LONG} ") for line in lines), [row_of(lines, LONG[:6])]
        assert any(line.lstrip().startswith("vg_elasticsearch_hot-lv_data_nodes_shard_01 ") for line in lines)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_sorted_rows_keep_the_mountpoint_they_serve(size: tuple[int, int]) -> None:
    """After `o` the filesystem title rows are gone: every device row names its mountpoint itself, its last
    folder whole (newuser22 #4: never `…/pg_wal_ar…recovery`), or the status line counts it left out; at
    200x60 every row names it."""
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=size) as pilot:
        screen = await open_monitor(pilot)
        await pilot.press("o")
        await pilot.pause(0.1)
        assert screen.sort_key is not None
        table = screen.query_one("#monitor-table", DataTable)
        lines = screen_lines(app)[table.region.y + 1:table.region.y + 1 + table.row_count]
        assert not any(line.startswith(" /") for line in lines)  # no title rows
        assert any(line.startswith(" nvme0n1p2 / ") for line in lines), lines
        shown = 0
        for name in ("luks-e", "vg_ela", "nvme0n1p1 ", "nvme1n1p1 "):
            row = row_of(lines, name)
            shown += " …/mount " in row or "/mount " in row or "_point_in_time_recovery " in row
            assert "ar…rec" not in row and "/mo…" not in row, row  # a last folder is never cut
        assert shown == 4 or screen._mounts_left_out > 0, lines
        if size == (200, 60):
            assert shown == 4 and screen._mounts_left_out == 0, lines


async def test_the_process_pane_under_the_table_gets_the_rows_the_table_does_not_need() -> None:
    """Live at 120x40 the pane goes under the table: no blank rows between the table's last row and the
    pane (at 200x60 newuser4 saw ~40 of them above a 6-row pane)."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_monitor(pilot)
        await pilot.pause(0.2)
        table = screen.query_one("#monitor-table", DataTable)
        side = screen.query_one("#monitor-side")
        assert screen.has_class("-side-below") and side.display
        assert table.region.height <= table.row_count + table.header_height
        assert side.region.y == table.region.bottom
        assert side.region.height >= monitor_screen.SIDE_BELOW_ROWS


async def test_the_process_pane_beside_the_table_when_most_lines_fit() -> None:
    """At 200 columns the live table leaves ~50 columns: the pane sits beside it with the whole height
    (its longest line wraps) instead of going under it with 8 rows."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await open_monitor(pilot)
        await pilot.pause(0.2)
        side = screen.query_one("#monitor-side")
        table = screen.query_one("#monitor-table", DataTable)
        assert not screen.has_class("-side-below")
        main = screen.query_one("#monitor-main")  # the table, and the trend pane under a short one
        assert side.region.y == table.region.y and side.region.height == main.region.height


def _sample_with(processes: ProcessRates, cache: PageCache | None) -> MonitorSample:
    return MonitorSample(dt.datetime.now().astimezone(), 1.0, True, (), processes=processes, page_cache=cache)


def test_writes_growing_dirty_data_are_explained() -> None:
    writer = ProcessRates([ProcessRate(42, "python", 0.0, 57.5e6)])
    growing = PageCache(300 << 20, 0, 30.0, 57.5e6)
    lines = writeback_lines(_sample_with(writer, growing))
    assert lines[:2] == ["page cache: 315 MB dirty, up 57.5 MB/s", "0 MB being written back"]  # one unit
    note = " ".join(lines[2:])  # in short lines, for the side pane (cuts7)
    assert "reaches the page cache" in note and "writeback" in note and "30 s" in note
    steady = dataclasses.replace(growing, dirty_growth_s=0.0)
    assert writeback_lines(_sample_with(writer, steady)) == [
        "page cache: 315 MB dirty, steady", "0 MB being written back"]
    assert writeback_lines(_sample_with(writer, None)) == []


def test_the_page_cache_says_mb_as_the_rest_of_the_monitor() -> None:
    """newuser15: `page cache: 420 kB dirty, +2.5 MB/s` / `12 kB being written back` mixed kB with the MB/s
    of the table and the process lines; every figure of the page cache is now in MB or MB/s."""
    writer = ProcessRates([ProcessRate(42, "python", 0.0, 2.5e6)])
    lines = writeback_lines(_sample_with(writer, PageCache(420_000, 12_000, 30.0, 2.5e6)))
    assert lines[:2] == ["page cache: 0.4 MB dirty, up 2.5 MB/s", "<0.1 MB being written back"], lines
    lines = writeback_lines(_sample_with(writer, PageCache(1_640_000_000, 0, 30.0, -40_000.0)))
    assert lines[:2] == ["page cache: 1,640 MB dirty, down < 0.1 MB/s", "0 MB being written back"], lines
    assert not any("kB" in line or "GB" in line for line in lines), lines


def test_meminfo_dirty_and_writeback_are_read_in_bytes() -> None:
    text = "MemTotal:        8000000 kB\nDirty:              1234 kB\nWriteback:            16 kB\n"
    assert parse_meminfo_kib(text, ("Dirty", "Writeback")) == {"Dirty": 1234 * 1024, "Writeback": 16 * 1024}


WRITER = """
import sys, time
with open(sys.argv[1], "wb") as out:
    for _ in range(60):
        out.write(b"x" * (1 << 20))
        time.sleep(0.02)
    time.sleep(30)
"""


def test_a_buffered_writer_shows_as_dirty_page_cache_on_the_live_host(tmp_path: Path) -> None:
    """A process writing 50 MiB/s without fsync: the monitor reads Dirty and how fast it grew."""
    monitor = IoMonitor(Root("/", live=True), rescan_every=None)
    monitor.poll()
    monitor.poll()
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path / "dirty")])
    try:
        time.sleep(0.3)
        monitor.poll()  # the writer's counters' baseline (a process is rated from its second reading)
        time.sleep(0.7)
        sample = monitor.poll()
        assert sample.page_cache is not None and sample.page_cache.dirty_growth_s is not None
        assert writeback_lines(sample)[0].startswith("page cache: ")
        assert any(process.pid == writer.pid for process in sample.processes.top)
    finally:
        writer.kill()
        writer.wait()


async def test_the_pane_says_why_no_device_shows_the_writes() -> None:
    """The pane under "Who does the I/O" says the page cache holds the writes (newuser4 saw python
    writing 57.5M/s while no device showed that rate, with no explanation)."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(200, 60)) as pilot:
        screen: MonitorScreen = await open_monitor(pilot)
        screen._timer.pause()
        await app.workers.wait_for_complete()  # a poll in flight would land after the sample made here
        await pilot.pause()
        sample = dataclasses.replace(screen.sample, processes=ProcessRates(
            [ProcessRate(42, "python", 0.0, 57.5e6)]), page_cache=PageCache(300 << 20, 0, 30.0, 57.5e6))
        screen.post_message(monitor_screen.MonitorTick(sample))
        await pilot.pause(0.2)
        who = str(screen.query_one("#monitor-who", Static).render())
        assert re.search(r"python\[42\] +0 +57\.5\n", who), who
        assert "page cache: 315 MB dirty, up 57.5 MB/s" in who and "reaches the page cache" in who


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_a_process_line_is_whole_in_the_pane(size: tuple[int, int]) -> None:
    """At 80x24 during a benchmark the pane under the table was 24 columns wide and split
    `kworker/u8:1+loop5[19` / `372] read 4K/s write` with ~30 blank columns beside it: the pane is
    sized from its process lines, so each reads whole on one screen row."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen: MonitorScreen = await open_monitor(pilot)
        screen._timer.pause()
        await app.workers.wait_for_complete()  # a poll in flight would land after the sample made here
        await pilot.pause()
        sample = dataclasses.replace(screen.sample, processes=ProcessRates(
            [ProcessRate(19372, "kworker/u8:1+loop5", 4096.0, 36.3 * (1 << 20)),
             ProcessRate(812, "etcd", 0.0, 2.1 * (1 << 20))]),
            page_cache=PageCache(300 << 20, 0, 30.0, 57.5e6))
        screen.post_message(monitor_screen.MonitorTick(sample))
        await pilot.pause(0.3)
        lines = screen_lines(app)
        for line in (r"kworker/u8:1\+loop5\[19372\] +<0\.1 +38\.1( |$)", r"etcd\[812\] +0 +2\.2( |$)"):
            assert any(re.search(line, row) for row in lines), lines


@pytest.mark.parametrize("size", [(200, 60), (120, 40)], ids=["200x60", "120x40"])
async def test_the_side_pane_is_as_wide_as_its_lines_so_none_wraps(size: tuple[int, int]) -> None:
    """newuser15 at 200x60: beside the table (its util trend 12 cells) the pane wrapped the page cache's
    note mid-phrase. Its notes are short lines and the pane is as wide as its longest: every line whole."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await open_monitor(pilot)
        await pilot.press("p")  # no tick draws over the sample below
        writer = ProcessRates([ProcessRate(42, "python3", 0.0, 57.5e6)], denied=1, as_root=True)
        growing = PageCache(300 << 20, 0, 30.0, 57.5e6)
        sample = dataclasses.replace(screen.sample, processes=writer, page_cache=growing)
        screen.on_monitor_tick(monitor_screen.MonitorTick(sample))
        await pilot.pause(0.3)
        who = screen.query_one("#monitor-who", Static)
        rows = [line[who.region.x:who.region.right].strip() for line in
                screen_lines(app)[who.region.y:who.region.bottom]]
        wanted = [line.strip() for line in writeback_lines(sample)] + ["(ptrace policy or namespace)"]
        assert len(wanted) == 6, wanted  # the dirty data grows: its note is said
        titled = screen.has_class("-side-below") and (
            screen._heading_cells > monitor_screen.SELECTED_ROOM_CELLS)  # a long mountpoint on this host
        for line in wanted:  # under the table a long title takes the cells first: the notes wrap, whole
            assert line in (" ".join(rows) if titled else rows), (line, rows)


@pytest.mark.live
@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_sorting_costs_no_column(loop_stack: object, size: tuple[int, int]) -> None:
    """newuser16 #5: after `o` the device column grew to `loop0 /tmp/newuser16-ext4mnt` and d/s, dMB/s and
    d_await left the table (at 80: rMB/s and w_await, r_await kept); sorted, the mountpoint gives way, but
    for one of the least telling (SORTED_GIVE_WAY) where that names more rows' mountpoints (newuser23 #8)."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await open_monitor(pilot)
        before = list(screen.hidden_columns)
        await pilot.press("o")
        await pilot.pause(0.3)
        assert screen.sort_key is not None
        gone = [name for name in screen.hidden_columns if name not in before]
        assert set(before) <= set(screen.hidden_columns) and len(gone) <= 1, (before, screen.hidden_columns)
        assert all(label in ("util trend", "inflight", "d_await", "dMB/s", "d/s") for label in gone), gone


def test_a_pairs_read_column_goes_before_its_write_one() -> None:
    """Never r_await beside a hidden w_await, nor rMB/s beside a hidden wMB/s (newuser16 #5)."""
    order = monitor_screen.DROP_FIRST
    assert order.index("r_await") < order.index("w_await")
    assert "wmb_s" not in order or order.index("rmb_s") < order.index("wmb_s")


@pytest.mark.parametrize("cells", [30, 36, 44])
def test_the_side_heading_cuts_its_path_at_a_slash_and_keeps_words_apart(cells: int) -> None:
    """newuser16 #13: `/t…/newuser16-ext4mnt (ext4) on loop0 (loop)` at 120 and `…/newuser16-ext…on loop0
    (loop)` at 80: the path is cut as a path, " on loop0 (loop)" stays whole."""
    line = monitor_screen.heading_line("/tmp/newuser16-ext4mnt (ext4) on loop0 (loop)", cells)
    assert len(line) <= cells and line.endswith(" (ext4) on loop0 (loop)"), line
    assert not line.startswith("/t…"), line


def test_the_page_cache_says_its_trend_in_words() -> None:
    """newuser22 #13: `page cache: 0.8 MB dirty, -<0.1 MB/s` read as a typo; the same figures in words
    ("down < 0.1 MB/s", "up 2.5 MB/s", "steady"), each line no wider than the pane under the table at 80."""
    writer = ProcessRates([ProcessRate(42, "python", 0.0, 0.0)])
    for growth, said in ((-12_000.0, "page cache: 0.8 MB dirty, down < 0.1 MB/s"),
                         (2.5e6, "page cache: 0.8 MB dirty, up 2.5 MB/s"),
                         (0.0, "page cache: 0.8 MB dirty, steady")):
        lines = writeback_lines(_sample_with(writer, PageCache(800_000, 0, 30.0, growth)))
        assert lines[0] == said, lines
        assert not any(sign in lines[0] for sign in ("-<", "+", "-")), lines
    worst = writeback_lines(_sample_with(writer, PageCache(1_640_000_000, 0, 30.0, -164e6)))
    assert max(len(line) for line in worst) <= PROCESS_TABLE_CELLS, worst
