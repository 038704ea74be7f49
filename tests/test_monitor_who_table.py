"""Who does the I/O is a table that stays put (newuser14 #4, newuser13 #4, issue 23): one row a process with
its name cut in the middle and rMB/s / wMB/s right-aligned under their headings, the split between the
table and the pane the same from tick to tick, and the details' title whole where the pane has room."""

from __future__ import annotations

import dataclasses
import re

import pytest
from conftest import fixture_root
from diskdoctor.app.text.monitor import counter_cells
from diskdoctor.app.tui import monitor_screen
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.monitor_screen import MonitorScreen
from diskdoctor.app.tui.selection import choose
from diskdoctor.probes.io_monitor import IoMonitor
from diskdoctor.probes.page_cache import PageCache
from diskdoctor.probes.process_io import ProcessRate, ProcessRates
from diskdoctor.probes.root import live_root
from rich.cells import cell_len
from test_monitor_layout import SIZE_IDS, SIZES, open_monitor, screen_lines

KWORKER = ProcessRate(15039, "kworker/u8:0-ext4-rsv-conversion", 0.0, 15.1e6)
DD = ProcessRate(812, "dd", 2.0e6, 217.7e6)


async def _tick(pilot, screen: MonitorScreen, rates: ProcessRates) -> list[str]:  # type: ignore[no-untyped-def]
    """Draw the screen's last sample with these processes (the timer paused), and return its rows."""
    sample = dataclasses.replace(screen.sample, processes=rates)
    screen.post_message(monitor_screen.MonitorTick(sample))
    await pilot.pause(0.3)
    return screen_lines(pilot.app)


async def _paused_monitor(pilot) -> MonitorScreen:  # type: ignore[no-untyped-def]
    screen: MonitorScreen = await open_monitor(pilot)
    screen._timer.pause()
    await pilot.app.workers.wait_for_complete()  # a poll in flight would land after the samples made here
    await pilot.pause()
    return screen


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_each_process_is_one_row_of_a_table(size: tuple[int, int]) -> None:
    """n14 saw `kworker/u8:0-ext4-rsv-conversion[15039] read 0 MB/s` / `write 15.1 MB/s` at 80: each
    process is one row, its name cut in the middle, its figures right-aligned under rMB/s and wMB/s."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await _paused_monitor(pilot)
        lines = await _tick(pilot, screen, ProcessRates([KWORKER, DD], denied=1, as_root=True))
        heading = next(row for row in lines if re.search(r"process +rMB/s +wMB/s", row))
        kworker = next(row for row in lines if "[15039]" in row)
        dd = next(row for row in lines if "dd[812]" in row)
        room = screen.query_one("#monitor-who").content_size.width  # the row, figures and all
        whole = cell_len("kworker/u8:0-ext4-rsv-conversion[15039]") + 16 <= room
        cut = r"kworker/u8:0-ext4-rsv-conversion" if whole else r"kworker\S*…\S*version"  # room given
        assert re.search(cut + r"\[15039\] +0 +15\.1", kworker), kworker
        assert re.search(r"dd\[812\] +2\.0 +218", dd), dd
        end = heading.index("wMB/s") + len("wMB/s")  # the figures end where their heading ends
        assert kworker.index("15.1") + 4 == end and dd.index("218") + 3 == end
        assert kworker.index("[15039]") + 7 <= heading.index("rMB/s")  # the name never runs into them


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_the_split_stays_put_from_tick_to_tick(size: tuple[int, int]) -> None:
    """n14 saw the divider between the two panes jump from column 38 to 57 as a long process line came:
    the table and "who does the I/O" keep their places whichever processes and notes a tick brings."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await _paused_monitor(pilot)
        who = screen.query_one("#monitor-who")
        table = screen.query_one("#monitor-table")
        places = []
        for rates in (ProcessRates([DD]), ProcessRates([KWORKER, DD], denied=3, as_root=True),
                      ProcessRates([DD])):
            await _tick(pilot, screen, rates)
            places.append((who.region.x, who.region.width, table.region.width))
        assert places[0] == places[1] == places[2], places


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_the_notes_never_wrap_mid_phrase(size: tuple[int, int]) -> None:
    """n13 saw `1 process unreadable even by root (ptrace policy or` / `namespace)` and `page cache: 1.1M
    dirty, +16 kB/s · 0B being written` / `back` at 200: each phrase is whole on its row, in one unit."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await _paused_monitor(pilot)
        sample = dataclasses.replace(screen.sample, processes=ProcessRates([DD], denied=1, as_root=True),
                                     page_cache=PageCache(420_000, 0, 30.0, -12_000.0))
        screen.post_message(monitor_screen.MonitorTick(sample))
        await pilot.pause(0.3)
        lines = screen_lines(app)
        for phrase in ("1 process unreadable even by root", "(ptrace policy or namespace)",
                       "page cache: 0.4 MB dirty, down < 0.1 MB/s", "0 MB being written back"):  # MB (cuts7)
            assert any(phrase in row for row in lines), (phrase, lines)


async def test_the_details_title_is_whole_where_the_pane_has_room() -> None:
    """At 80 n14 saw `/ (ext4) o…da (disk)` with blank room on the left: a short title is whole."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(80, 24)) as pilot:
        choose(app, None, "/", "stack")  # `/`'s short title (Monitor opens on the selection)
        screen = await _paused_monitor(pilot)
        lines = await _tick(pilot, screen, ProcessRates([KWORKER, DD], denied=1, as_root=True))
        _, heading = screen._selected_layer()
        assert heading and cell_len(heading) <= 30, heading  # a whole one fits beside the process table
        assert any(heading in row for row in lines), (heading, lines)


def test_the_capture_table_has_one_unit_style() -> None:
    """n13 saw `607.0K` beside `1.8M`: a capture's byte columns read like lsblk, no `.0`."""
    sample = IoMonitor(fixture_root("lab-ssd")).poll()
    cells = [value for layer in sample.layers() for key, value in counter_cells(layer).items()
             if key.startswith("sectors")]
    assert "279M" in cells and not [cell for cell in cells if re.fullmatch(r"[\d.]+\.0[KMGT]", cell)], cells


def test_a_capture_byte_column_has_one_precision_rule() -> None:
    """newuser16: the capture's Monitor showed `279M` above `302.6M`: whole from 100, a decimal under it."""
    sample = IoMonitor(fixture_root("lab-ssd")).poll()
    cells = [value for layer in sample.layers() for key, value in counter_cells(layer).items()
             if key.startswith("sectors") and value[-1:] in "KMGTPE"]
    assert cells and all(float(cell[:-1]) < 100 or "." not in cell for cell in cells), cells


FLUSH = ProcessRate(15724, "kworker/u8:3+flush-254:0", 0.0, 31.0e6)
CONVERSION = ProcessRate(28978, "kworker/u8:2-ext4-rsv-conversion", 0.0, 15.1e6)
LONGEST = ProcessRate(4242, "python3 /srv/benchmarks/replay_the_whole_production_trace_again.py", 0.0, 9.9e6)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_a_process_name_has_the_room_its_row_has(size: tuple[int, int]) -> None:
    """newuser23 #7 at 120x40: `kworker/u…onversion[28978]` and `kworker/u…ush-254:0[15724]` cut to 28
    columns beside 27 blank ones. The process column is as wide as its longest name where the pane's row
    holds it (which kworker, `+flush-254:0`, reads whole), and a name longer than the row is cut in its
    middle to just the room there is, the figures still at the row's end."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await _paused_monitor(pilot)
        lines = await _tick(pilot, screen, ProcessRates([FLUSH, CONVERSION, LONGEST, DD]))
        room = screen.query_one("#monitor-who").content_size.width - 16  # the row less its two figures
        heading = next(row for row in lines if re.search(r"process +rMB/s +wMB/s", row))
        end = heading.index("wMB/s") + len("wMB/s")
        for rate in (FLUSH, CONVERSION, LONGEST):
            name = f"{rate.label}[{rate.pid}]"
            row = next(row for row in lines if f"[{rate.pid}]" in row)
            start = heading.index("process")
            shown = re.search(rf"(\S.*\[{rate.pid}\])", row[start:start + room + 1])
            assert shown is not None, row
            if cell_len(name) <= room:
                assert shown.group(1) == name, (room, row)
            else:  # cut to the room there is, no less
                assert "…" in shown.group(1) and cell_len(shown.group(1)) == room, (room, row)
            assert row[end - 4:end] == f"{rate.write_bytes_s / 1e6:>4.1f}", (row, heading)  # under wMB/s
        if size == (120, 40) and room >= 40:  # the width newuser23 saw: both kworkers whole
            assert any("kworker/u8:3+flush-254:0[15724]" in row for row in lines)
