"""The Monitor's layout as a new user saw it in tmux at 80x24, 120x40 and 200x60 (issue 23): filesystem
titles whole across the row, latency kept before the util trend, the hidden columns said whole, and a
capture's table given the rows the live host's process pane would take."""

from __future__ import annotations

import dataclasses
import re

import pytest
from conftest import fixture_root
from diskdoctor.app.tui import monitor_screen
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.monitor_screen import MonitorScreen, group_top, hidden_note
from diskdoctor.app.tui.selection import choose
from diskdoctor.probes.root import live_root
from support.loop_stack import LoopStack
from textual.widgets import DataTable, Static

SIZES = [(80, 24), (120, 40), (200, 60)]
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]
LAB = "lab-ssd"


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def open_monitor(pilot) -> MonitorScreen:  # type: ignore[no-untyped-def]
    await settle(pilot)
    await pilot.press("6")
    for _ in range(100):
        await settle(pilot)
        screen = pilot.app.screen
        if isinstance(screen, MonitorScreen) and screen.sample is not None:
            break
    await pilot.pause(0.1)
    return pilot.app.screen


def screen_lines(app: DiskDoctorApp) -> list[str]:
    """The screen as `tmux capture-pane` shows it: one string per row."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def status(screen: MonitorScreen) -> str:
    return str(screen.query_one("#monitor-status", Static).render())


@pytest.mark.live
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_filesystem_titles_show_their_whole_mountpoint(loop_stack: LoopStack,
                                                             size: tuple[int, int]) -> None:
    """Two filesystems whose mountpoints end alike are told apart: each title row shows the whole path."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        await open_monitor(pilot)
        own = f"{loop_stack.workdir.parent.name}/{loop_stack.workdir.name}"  # unique to this pytest run
        for role in ("ext4-discard", "xfs"):  # one filesystem at a time: its title row is in view at 80x24
            await pilot.press("slash", *f"{own}/mnt-{role}", "enter")
            await pilot.pause(0.2)
            lines = screen_lines(app)
            title = f" {loop_stack.mountpoints[role]} ({role.split('-')[0]})"
            assert any(line.startswith(title) for line in lines), (title, lines)


async def test_a_title_wider_than_the_table_is_cut_in_the_middle() -> None:
    """Only when the whole row is too narrow is a title cut, in the middle: both ends of the path stay."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_monitor(pilot)
        await pilot.press("g")  # the first group (Monitor opens on Stack's row: /lab/luks1)
        await pilot.pause(0.1)
        long = "/lab/" + "/".join(f"level-{n:02d}" for n in range(12)) + "/mnt-xfs"
        first = screen.sample.groups[0]
        group = dataclasses.replace(first.group, title=f"{long} (xfs)")
        sample = dataclasses.replace(screen.sample, groups=(dataclasses.replace(first, group=group),
                                                            *screen.sample.groups[1:]))
        screen.post_message(monitor_screen.MonitorTick(sample))
        await pilot.pause(0.2)
        table = screen.query_one("#monitor-table", DataTable)
        row = screen_lines(app)[table.region.y + 1]  # under the headings
        assert row.startswith(" /lab/level-00") and "…" in row and row.rstrip().endswith("/mnt-xfs (xfs)")
        assert len(row.rstrip()) > 60  # the whole row's width, not the device column's


async def test_latency_outlasts_the_util_trend_at_80_columns() -> None:
    """At 80 columns with the live host's rate columns, w_await and r_await show; the trend may go."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_monitor(pilot)
        screen._columns, screen._fitted_width = monitor_screen.COLUMNS, 0  # as on the live host
        screen._fit_columns(80)
        await pilot.pause(0.1)
        table = screen.query_one("#monitor-table", DataTable)
        keys = [str(column.key.value) for column in table.columns.values()]
        assert "w_await" in keys and "r_await" in keys
        hidden = screen.hidden_columns
        assert "util trend" in hidden
        assert not ({"w_await", "r_await"} & set(hidden))


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_the_hidden_columns_are_said_whole(size: tuple[int, int]) -> None:
    """The status line names every hidden column it can whole, and says how many there are; never a
    name cut in the middle (the note once ended in "f/s," at 80 columns)."""
    width = size[0]
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=size) as pilot:
        screen = await open_monitor(pilot)
        screen._columns, screen._fitted_width = monitor_screen.COLUMNS, 0  # as on the live host
        screen._fit_columns(width)
        screen._draw_summary(screen.sample)
        await pilot.pause(0.1)
        line = status(screen)
        hidden = screen.hidden_columns
        if not hidden:
            assert "hidden" not in line
            return
        note = hidden_note(hidden, width - 2, screen._in_details())
        assert line.startswith(note) and note.startswith(f"+{len(hidden)} hidden: "), line
        names = note.split(": ", 1)[1].split(" (")[0].removesuffix(" …").split(", ")
        assert names == hidden[:len(names)], note


async def test_the_hidden_note_says_which_columns_the_details_pane_shows() -> None:
    """newuser10 #10 at 80x24 live: `+7 hidden: util trend, inflight, d_await, dMB/s, d/s, f_await, f/s`
    while the details pane beside the table listed f/s, f_await, d/s and dMB/s: the note says where to see
    them, in the phrasing every screen uses (newuser21 #10, hidden_columns.py)."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_monitor(pilot)
        screen._columns, screen._fitted_width = monitor_screen.COLUMNS, 0  # as on the live host
        screen._fit_columns(80)
        screen._draw_summary(screen.sample)
        await pilot.pause(0.1)
        line = status(screen)
        assert line.startswith(f"+{len(screen.hidden_columns)} hidden: "), line
        assert "(wider terminal or details)" in line or "(see details)" in line, line


def test_the_hidden_note_shortens_by_whole_names() -> None:
    hidden = ["inflight", "d_await", "dMB/s", "d/s", "f_await", "f/s", "util trend", "w_await"]
    assert hidden_note(hidden, 200) == "+8 hidden: " + ", ".join(hidden) + " (wider terminal)"
    assert hidden_note(hidden, 56) == "+8 hidden: inflight, d_await, dMB/s … (wider terminal)"
    assert hidden_note(hidden, 20) == "+8 hidden"
    listed = frozenset(hidden) - {"util trend"}
    assert hidden_note(hidden, 100, listed) == \
        "+8 hidden: inflight, d_await, dMB/s, d/s, f_await, f/s, util trend, w_await (see details)"
    assert hidden_note(hidden, 78, listed) == \
        "+8 hidden: inflight, d_await, dMB/s, d/s, f_await, f/s … (see details)"
    assert hidden_note(hidden, 40, listed) == "+8 hidden: inflight … (see details)"


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_a_capture_gives_the_process_pane_rows_to_the_table(size: tuple[int, int]) -> None:
    """A capture has no processes: no "Who does the I/O" pane (the summary line says it needs the live
    host), and under the table nothing at all, so at 80x24 the table has the rows."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=size) as pilot:
        screen = await open_monitor(pilot)
        lines = screen_lines(app)
        assert not any("Who does the I/O" in line for line in lines)
        assert "processes need the live host" in str(screen.query_one("#monitor-summary", Static).render())
        table = screen.query_one("#monitor-table", DataTable)
        side = screen.query_one("#monitor-side")
        if not side.display or side.region.area == 0:
            assert table.region.height >= size[1] - 5  # header, summary, status and footer only
        else:
            assert side.region.y == table.region.y  # beside, never under


async def test_a_title_that_changes_at_a_tick_is_repainted_across_its_row() -> None:
    """A tick that changes only a title (a second mountpoint appears) repaints the whole title row, not
    just its first column: the terminal never keeps the old title's end beside the new one's start."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_monitor(pilot)
        await pilot.press("g")  # the first group on screen (Monitor opens on Stack's row: /lab/luks1)
        await pilot.pause(0.1)
        table = screen.query_one("#monitor-table", DataTable)
        painted: list = []
        refresh = table.refresh
        table.refresh = lambda *regions, **kw: (painted.extend(regions), refresh(*regions, **kw))[1]
        first = screen.sample.groups[0]
        title = "/lab/data, /srv/a-bind-mount-of-the-same-filesystem/with/a/long/path (ext4)"
        group = dataclasses.replace(first.group, title=title)
        sample = dataclasses.replace(screen.sample, groups=(dataclasses.replace(first, group=group),
                                                            *screen.sample.groups[1:]))
        screen.post_message(monitor_screen.MonitorTick(sample))
        await pilot.pause(0.2)
        device = table.columns[next(iter(table.columns))].get_render_width(table)
        assert any(region.width > device and region.width >= len(title) for region in painted), painted
        assert any(line.startswith(f" {title}") for line in screen_lines(app))


def test_an_idle_trend_is_a_flat_baseline() -> None:
    """newuser5 saw the util trend blank on every row of an idle host: an idle tick is the lowest bar."""
    assert monitor_screen.sparkline_of((None, 0.0, 0.0, 0.0)).endswith(" ▁▁▁")
    assert monitor_screen.sparkline_of((0.0, 0.5, 1.0)).endswith("▁▄█")


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_the_util_trend_goes_before_any_figure(size: tuple[int, int]) -> None:
    """At 120 columns inflight, d_await and dMB/s were hidden while the trend stayed: the trend (a picture
    of util) is left out first, and a figure only when that is not enough."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=size) as pilot:
        screen = await open_monitor(pilot)
        screen._columns, screen._fitted_width = monitor_screen.COLUMNS, 0  # as on the live host
        screen._fit_columns(size[0])
        await pilot.pause(0.1)
        hidden = screen.hidden_columns
        assert not hidden or hidden[0] == "util trend", hidden


@pytest.mark.live
async def test_an_idle_live_host_draws_its_trend_from_the_first_figures() -> None:
    """Live at 200x60 every device row's trend cell shows bars once a tick has figures (it was blank)."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await open_monitor(pilot)
        table = screen.query_one("#monitor-table", DataTable)
        for _ in range(60):  # the first tick has no rates; the next one does
            await pilot.pause(0.1)
            if any(layer.delta is not None for layer in screen.sample.layers()):
                break
        await pilot.pause(0.2)
        assert "spark" in [str(column.key.value) for column in table.columns.values()]
        devices = [key for key in screen._row_keys if not key.startswith("group|")]
        cells = [table.get_cell(key, "spark").plain for key in devices]
        assert cells and all(cell.strip() for cell in cells), cells


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_a_capture_column_reads_one_way(size: tuple[int, int]) -> None:
    """A byte column reads as lsblk does (newuser14 saw `607.0K` beside `1.8M`; lsblk writes 607K): a size
    has one decimal only where it is not `.0`, on every row (newuser5 had asked for `279.0M`)."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=size) as pilot:
        screen = await open_monitor(pilot)
        table = screen.query_one("#monitor-table", DataTable)
        devices = [key for key in screen._row_keys if not key.startswith("group|")]
        shown = [str(column.key.value) for column in table.columns.values()]
        for column in ("sectors_read", "sectors_written"):
            if column not in shown:
                continue
            cells = [table.get_cell(key, column).plain.strip() for key in devices]
            sized = [cell for cell in cells if cell[-1:] in "KMGTPE"]
            assert sized and all(re.fullmatch(r"\d+(\.[1-9])?[KMGTPE]", cell) for cell in sized), cells


@pytest.mark.parametrize("fixture", [LAB, "long-names"])
async def test_a_cut_name_takes_the_width_left_blank_at_80_columns(fixture: str) -> None:
    """At 80x24 a long device name is cut only while the row has no blank columns at its right: the
    name column takes the width a left-out figure frees (newuser6 saw `vg0-po…ore_tmeta` with ~12 blank)."""
    app = DiskDoctorApp(fixture_root(fixture))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_monitor(pilot)
        table = screen.query_one("#monitor-table", DataTable)
        device = table.columns.get("device")  # type: ignore[call-overload]
        used = sum(column.width + 2 for column in table.columns.values()) + 2  # padding, scrollbar
        room = table.size.width
        assert device.width == screen._name_cells or used >= room - 1, (device.width, used, room)


@pytest.mark.parametrize("fixture,size", [("long-names", (120, 40)), ("long-names", (80, 24)),
                                          (LAB, (80, 24)), (LAB, (200, 60))])
async def test_a_captures_counter_columns_are_as_wide_as_their_figures(fixture: str,
                                                                       size: tuple[int, int]) -> None:
    """newuser8 #3: `vg_elasticsea…ite_ahead_log            0            0        0B …` at 120x40 on
    long-names, every counter column 8-11 cells for a `0`: a capture's one reading sizes each column from
    its heading and widest figure, and the device names get the rest (sorted too, ▼ whole)."""
    app = DiskDoctorApp(fixture_root(fixture))
    async with app.run_test(size=size) as pilot:
        screen = await open_monitor(pilot)
        for sorted_view in (False, True):
            if sorted_view:
                await pilot.press("o")
                await pilot.pause(0.1)
            table = screen.query_one("#monitor-table", DataTable)
            devices = [key for key in screen._row_keys if not key.startswith("group|")]
            for column in table.columns.values():
                key = str(column.key.value)
                if key == "device":
                    continue
                widest = max([len(column.label.plain), *(len(table.get_cell(d, key).plain) for d in devices)])
                assert column.width == widest, (key, column.width, widest)
            if fixture == "long-names" and size[0] >= 120 and not sorted_view:  # a 50-cell name: 1 cell short
                assert table.columns.get("device").width >= 49  # type: ignore[call-overload]


async def test_sorted_at_120_a_mountpoint_one_cell_short_stays_whole() -> None:
    """newuser10 #11: sorted at 120x40 on lab-ssd, `vg0-pool_nopassdown-tpool  /l…/thin_nopassdown` was cut
    for one cell: one space before the (dim) mountpoint instead of two keeps it whole."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(120, 40)) as pilot:
        await open_monitor(pilot)
        await pilot.press("o")
        await pilot.pause(0.3)
        rows = [line for line in screen_lines(app) if "vg0-pool_nopassdown" in line]
        assert rows and all("/lab/thin_nopassdown" in line for line in rows), rows
        assert any("vg0-pool_nopassdown-tpool /lab/thin_nopassdown" in line for line in rows), rows


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_a_filesystem_picked_elsewhere_shows_its_whole_group_title_first(size: tuple[int, int]) -> None:
    """newuser12 #2: `/lab/slow` picked on TRIM, then Monitor at 120x40 had the title on the last row and its
    layers below the fold, a device without its title on the top row: the picked group is whole in view,
    its title the first row under the headings."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        choose(app, None, "/lab/slow", "trim")
        await open_monitor(pilot)
        await pilot.pause(0.2)
        lines = screen_lines(app)
        heading = next(index for index, line in enumerate(lines) if line.startswith(" device "))
        assert lines[heading + 1].startswith(" /lab/"), lines[heading:heading + 3]  # a title, no orphan
        title = next(index for index, line in enumerate(lines) if line.startswith(" /lab/slow (ext4)"))
        group = [line.split()[0] for line in lines[title + 1:title + 5]]
        assert group == ["slow", "vg0-slow", "sda3", "sda"], lines[title:title + 6]
        if size[0] <= 120:  # where the table does not hold every row, the title is the top row
            assert title == heading + 1, lines[heading:heading + 3]


def test_the_group_top_keeps_a_title_on_the_top_row() -> None:
    """The first row shown: the group's title; near the table's end, an earlier title whose rows reach it;
    a group taller than the view still shows its cursor row."""
    titles = [0, 5, 10, 14]
    assert group_top(titles, 20, 11, 8) == 10
    assert group_top([0, 5, 10, 13], 18, 15, 8) == 10  # the last group (13-17) from the title before it
    assert group_top(titles, 20, 15, 8) == 12  # no title can be on top: the table's end
    assert group_top(titles, 20, 2, 3) == 0  # taller than the view, cursor in view
    assert group_top(titles, 20, 4, 3) == 2
    assert group_top([], 20, 4, 3) is None


@pytest.mark.parametrize("size", [(120, 40), (80, 24)], ids=["120x40", "80x24"])
async def test_a_long_name_takes_the_blank_start_of_the_figure_beside_it(size: tuple[int, int]) -> None:
    """newuser12 #9: `vg_elasticsearch_hot-lv_…stgresql_write_ahead_log      0` on long-names at 120x40 was
    cut by 3 characters while `reads` had 4 blank cells before its `0`: a capture's name takes that slack
    (two blank cells kept before the figure) before it is cut."""
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=size) as pilot:
        await open_monitor(pilot)
        row = next(line for line in screen_lines(app) if line.startswith(" vg_elasticsearc"))
        name = row.split("  ")[0].strip()
        if size[0] >= 120:
            assert name == "vg_elasticsearch_hot-lv_postgresql_write_ahead_log", row
        assert re.search(r"\S  +0 ", row) and len(name) >= 31, row  # 27 cells of column, 4 of the slack


@pytest.mark.parametrize("root", ["sata-ext4", "live"])
async def test_sorted_short_names_keep_the_device_heading_whole(root: str) -> None:
    """newuser15 at 80, sorted live: `devic  util▼` above `vda /` (the column was as wide as its names)."""
    app = DiskDoctorApp(live_root() if root == "live" else fixture_root(root))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.5)
        await pilot.press("6")
        await pilot.pause(0.5)
        await pilot.press("o")
        await pilot.pause(0.5)
        table = app.screen.query_one("#monitor-table")
        heading = app.screen._compositor.render_strips()[table.region.y].text
        assert re.match(r"^ device +\S", heading), heading
