"""The page cache's note in "Who does the I/O" is wrapped once, at the width the pane really has
(newuser23 #6: at 120x40 under load it read `a write counts when it reaches the page` / `cache;` / `devices
get it at writeback (once dirty 30` / `s,`: lines cut for one width wrapped again narrower when a
scrollbar came)."""

from __future__ import annotations

import dataclasses

import pytest
from diskdoctor.app.text.monitor import PROCESS_TABLE_CELLS, writeback_note
from diskdoctor.app.tui import monitor_screen
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.page_cache import PageCache
from diskdoctor.probes.process_io import ProcessRate, ProcessRates
from diskdoctor.probes.root import live_root
from rich.cells import cell_len
from test_monitor_layout import open_monitor, screen_lines
from textual.widgets import Static

WRITERS = ProcessRates([ProcessRate(900 + n, f"dd{n}", 0.0, 57.5e6) for n in range(3)])


@pytest.mark.parametrize("width", [PROCESS_TABLE_CELLS, 44, 47, 52])  # never narrower than its table
@pytest.mark.parametrize("scrollbar", [False, True], ids=["no-bar", "scrollbar"])
async def test_the_note_wraps_once_at_the_panes_width(width: int, scrollbar: bool) -> None:
    """The pane narrowed (and a vertical scrollbar shown, as under load): the note's rows hold every word
    in order, each row within the pane, none a word alone, and "30 s" on one row."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_monitor(pilot)
        screen._timer.pause()  # no tick draws over the sample below
        await app.workers.wait_for_complete()  # nor a poll in flight (a loaded host's is slow)
        await pilot.pause()
        growing = PageCache(300 << 20, 0, 30.0, 57.5e6)
        sample = dataclasses.replace(screen.sample, processes=WRITERS, page_cache=growing)
        screen.on_monitor_tick(monitor_screen.MonitorTick(sample))
        await pilot.pause(0.3)
        side = screen.query_one("#monitor-side")  # narrower, as beside a table of long names
        screen.query_one("#monitor-who").styles.width = width
        if scrollbar:
            side.styles.overflow_y = "scroll"
        who = screen.query_one("#monitor-who", Static)
        start, rows = None, []
        for _ in range(30):  # a loaded host lays the narrowed pane out a few frames later
            await pilot.pause(0.1)
            rows = [line[who.region.x:who.region.right].rstrip() for line in
                    screen_lines(app)[who.region.y:who.region.bottom]]
            start = next((index for index, row in enumerate(rows) if row.startswith("a write counts")), None)
            if start is not None and who.region.width <= width:
                break
        note = " ".join(writeback_note(sample))
        assert start is not None, rows
        shown: list[str] = []
        while " ".join(shown) != note:
            assert start < len(rows) and rows[start], (note, rows)
            shown.append(rows[start].strip())
            start += 1
        assert all(cell_len(row) <= who.content_size.width for row in shown), shown
        assert all(" " in row for row in shown), shown  # no word alone on a row ("cache;", "s,")
        assert any("dirty 30 s," in row for row in shown), shown
