"""The Monitor's trend pane (issue 23, newuser17 #15): at 200x60 a host of a few devices left ~45 empty rows
under the table; they now hold the selected device's last minute, a bar chart per figure, while 80x24 and
120x40 keep their layout (the table and the process pane need those rows)."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
from conftest import fixture_root
from diskdoctor.app.tui import monitor_screen
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.monitor_screen import MonitorScreen
from diskdoctor.app.tui.monitor_trend import (
    BAR_ROWS_MOST,
    FIGURES,
    TREND_DEVICES,
    TREND_MIN_ROWS,
    TREND_TICKS,
    TrendHistory,
    trend_lines,
)
from diskdoctor.app.tui.selection import choose
from diskdoctor.probes.diskstats import DiskDelta
from diskdoctor.probes.io_monitor import (
    CpuSample,
    GroupSample,
    LayerSample,
    MonitorGroup,
    MonitorRow,
    MonitorSample,
)
from diskdoctor.probes.page_cache import PageCache
from diskdoctor.probes.process_io import ProcessRate, ProcessRates
from diskdoctor.probes.root import Root, live_root
from diskdoctor.widgets.bar_chart_text import bar_rows
from diskdoctor.widgets.line_view import LineView
from rich.text import Text
from test_monitor_layout import SIZE_IDS, SIZES, open_monitor, screen_lines
from textual.widgets import DataTable

SMALL = "sata-ext4"
"""Four devices (sda and its three partitions) and a CD drive: a host whose table leaves rows at 200x60."""
TAKEN = dt.datetime(2026, 11, 26, 20, 0, tzinfo=dt.timezone.utc)


def test_bars_grow_from_a_baseline_with_the_newest_on_the_right() -> None:
    rows = bar_rows([0.0, 0.5, 1.0, None], 6, 2, 1.0)
    assert rows == ["    █ ", "  ▁██ "], rows
    assert bar_rows([0.01], 3, 1, 100.0) == ["  ▂"]  # above zero never reads as idle (▁)
    assert bar_rows([5.0, 0.0], 2, 3, 1.0)[0] == "█ "  # over the top: clipped to the chart


def _delta(kname: str, tick: int, busy: int) -> DiskDelta:
    """A device's deterministic tick: a ramp that repeats every 20 ticks, scaled by `busy`."""
    step = (tick % 20) * busy
    return DiskDelta(kname, 1.0, reads=10 * step, writes=25 * step, read_bytes=4096 * 10 * step,
                     write_bytes=65536 * 25 * step, read_ms=2 * step, write_ms=9 * step,
                     io_ticks_ms=min(45 * step, 1000), in_flight=step % 4, flushes=step, flush_ms=step)


def _ticked(sample: MonitorSample, tick: int) -> MonitorSample:
    """`sample` with every layer given tick `tick`'s figures (sda2 and its disk busy, the rest idle)."""
    busy = {"sda2": 1, "sda": 1}
    groups = tuple(dataclasses.replace(group, layers=tuple(
        dataclasses.replace(layer, delta=_delta(layer.row.kname, tick, busy.get(layer.row.kname, 0)))
        for layer in group.layers)) for group in sample.groups)
    return dataclasses.replace(sample, taken_at=TAKEN, seconds=1.0, live=True, groups=groups,
                               cpu=CpuSample(0.31, 0.04, 0.0), note=None,
                               processes=ProcessRates([ProcessRate(812, "etcd", 0.0, 21.5e6),
                                                       ProcessRate(95, "jbd2/sda2-8", 0.0, 1.2e6)]),
                               page_cache=PageCache(12 << 20, 0, 30.0, 0.0))


def test_the_history_keeps_a_minute_of_each_device_and_none_on_a_big_host() -> None:
    history = TrendHistory()
    history.record(MonitorSample(TAKEN, 1.0, True, ()))
    assert history.kept and not history.ticks

    def sample(count: int, tick: int) -> MonitorSample:
        rows = tuple(MonitorRow(f"d{n}", f"d{n}", "disk", 0) for n in range(count))
        group = MonitorGroup("", "no filesystem", rows)
        layers = tuple(LayerSample(row, None, _delta(row.kname, tick, 1)) for row in rows)
        return MonitorSample(TAKEN, 1.0, True, (GroupSample(group, layers), GroupSample(group, layers)))

    for tick in range(TREND_TICKS + 5):
        history.record(sample(3, tick))
    assert sorted(history.ticks) == ["d0", "d1", "d2"]
    assert len(history.of("d0")) == TREND_TICKS  # a device under two groups counted once a tick
    history.record(sample(2, 0))
    assert sorted(history.ticks) == ["d0", "d1"]  # a vanished device's minute is dropped
    history.record(sample(TREND_DEVICES + 1, 0))
    assert not history.kept and not history.ticks


def test_every_figure_has_a_chart_two_abreast_where_the_width_holds_them() -> None:
    ticks = [tuple(float(n % 7) for _ in FIGURES) for n in range(TREND_TICKS)]
    text = [line.plain for line in trend_lines("vda (disk)", ticks, 138, 44, 1.0)]
    assert text[0] == "vda (disk): the last 60 s, the newest on the right"
    heads = [line for line in text if line.split() and line.split()[0] in {label for label, _, _ in FIGURES}]
    assert len(heads) == len(FIGURES) // 2  # two charts a row
    assert all(" now" in line and "peak" in line for line in heads)
    assert heads[1].startswith("r/s") and "w/s" in heads[1]
    assert len(text) <= 44 and max(len(line) for line in text) <= 138
    narrow = [line.plain for line in trend_lines("vda (disk)", ticks, 70, 12, 1.0)]
    assert len(narrow) <= 12 and narrow[2].startswith("util")  # fewer rows: the first charts, shorter


def _small_live_app(monkeypatch: pytest.MonkeyPatch) -> DiskDoctorApp:
    """A live-like app on the small fixture: its ticks are the test's (no hotplug, no real poll after)."""
    monkeypatch.setattr(monitor_screen, "watch_block_devices", lambda root, on_change: (None, "no hotplug"))
    return DiskDoctorApp(Root(fixture_root(SMALL).path, live=True, label="test host"))


async def _feed(pilot, ticks: int = TREND_TICKS) -> MonitorScreen:  # type: ignore[no-untyped-def]
    """Open the Monitor, stop its own ticks and give it `ticks` scripted ones."""
    screen: MonitorScreen = await open_monitor(pilot)
    screen._timer.stop()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    first = screen.sample
    for tick in range(ticks):
        screen.on_monitor_tick(monitor_screen.MonitorTick(_ticked(first, tick)))
    await pilot.pause(0.2)
    return screen


async def test_the_rows_under_a_short_table_hold_the_selected_devices_minute(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """200x60, a host of five devices: the table keeps the rows it needs, the trend pane the rest."""
    app = _small_live_app(monkeypatch)
    async with app.run_test(size=(200, 60)) as pilot:
        choose(app, None, "/", "stack")  # Monitor opens on the selection: `/`, its busy partition
        screen = await _feed(pilot)
        table = screen.query_one("#monitor-table", DataTable)
        trend = screen.query_one("#monitor-trend")
        assert not screen.has_class("-side-below") and trend.display
        assert table.region.height == table.row_count + table.header_height
        assert trend.region.y == table.region.bottom and trend.region.height >= 40
        lines = screen_lines(app)[trend.region.y:trend.region.bottom]
        heading = f"{screen._selected_layer()[0].row.name} (part): the last 60 s"
        assert any(heading in line for line in lines), lines[:3]
        assert any(line.lstrip().startswith("r/s") and " w/s " in line for line in lines), lines
        assert any("█" in line for line in lines)  # the busy partition's bars
        await pilot.press("end")  # the CD drive: idle, a flat baseline
        await pilot.pause(0.2)
        lines = screen_lines(app)[trend.region.y:trend.region.bottom]
        assert any("sr0 (rom): the last 60 s" in line for line in lines)
        assert not any("█" in line for line in lines) and any("▁" * TREND_TICKS in line for line in lines)


@pytest.mark.parametrize("size", SIZES[:2], ids=SIZE_IDS[:2])
async def test_no_trend_where_the_table_and_process_pane_need_the_rows(monkeypatch: pytest.MonkeyPatch,
                                                                       size: tuple[int, int]) -> None:
    app = _small_live_app(monkeypatch)
    async with app.run_test(size=size) as pilot:
        screen = await _feed(pilot, 3)
        assert not screen.query_one("#monitor-trend").display
        assert screen.query_one("#monitor-table").region.height > 0


async def test_no_trend_on_a_capture_or_where_the_table_fills_the_screen() -> None:
    """lab-ssd's 78 rows fill 200x60 (and a capture has no rates); the live host too once it has rows."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await open_monitor(pilot)
        assert not screen.query_one("#monitor-trend").display
        table = screen.query_one("#monitor-table", DataTable)
        assert table.region.bottom >= 60 - 3


async def test_the_trend_leaves_the_live_host_table_whole() -> None:
    """The real host at 200x60: every row of the table is in view above the pane (when it shows)."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await open_monitor(pilot)
        await pilot.pause(1.2)
        table = screen.query_one("#monitor-table", DataTable)
        if screen.query_one("#monitor-trend").display:
            assert table.region.height == table.row_count + table.header_height
            assert 60 - table.region.bottom >= TREND_MIN_ROWS


def test_snapshot_of_the_trend_at_200x60(snap_compare, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """What the pane shows: sda2 (/, busy on a ramp) selected, its eight charts two abreast."""
    async def feed(pilot) -> None:  # type: ignore[no-untyped-def]
        choose(pilot.app, None, "/", "stack")  # Monitor opens on the selection: `/`'s title row
        await _feed(pilot)
        await pilot.press("down")
        await pilot.pause(0.2)

    assert snap_compare(_small_live_app(monkeypatch), terminal_size=(200, 60), run_before=feed)


async def test_the_pane_goes_when_the_terminal_shrinks_and_comes_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    app = _small_live_app(monkeypatch)
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await _feed(pilot)
        trend = screen.query_one("#monitor-trend")
        assert trend.display
        await pilot.resize_terminal(120, 40)
        await pilot.pause(0.3)
        assert screen.has_class("-side-below") and not trend.display
        table = screen.query_one("#monitor-table", DataTable)
        assert screen.query_one("#monitor-side").region.y == table.region.bottom  # as before the pane
        await pilot.resize_terminal(200, 60)
        await pilot.pause(0.3)
        assert trend.display and trend.region.y == table.region.bottom


async def test_a_tick_repaints_only_the_rows_that_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pane is redrawn every second: rows that read the same are not repainted (an idle chart's)."""
    app = _small_live_app(monkeypatch)
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await _feed(pilot)
        await pilot.press("end")  # sr0: idle, its charts flat
        await pilot.pause(0.2)
        trend = screen.query_one("#monitor-trend", LineView)
        repainted: list[object] = []
        monkeypatch.setattr(trend, "refresh", lambda *regions, **_: repainted.extend(regions or ["all"]))
        screen.on_monitor_tick(monitor_screen.MonitorTick(_ticked(screen.sample, 61)))
        assert repainted == []  # an idle device's minute reads the same
        lines = list(trend.lines)
        trend.show([*lines[:3], Text("changed"), *lines[4:]])
        assert [region.y for region in repainted] == [3]  # type: ignore[attr-defined]


FRESH = [(0.0, 1.0, 0.0, 5.0, 0.0, 2.0, None, 0.09)] * 11 + [(0.0, 1.0, 0.0, 5.0, 0.0, 2.0, 0.25, 86.5)] * 3
"""A fresh Monitor's 14 ticks (newuser24 #10)."""


@pytest.mark.parametrize("width", [143, 84, 70])
def test_the_awaits_say_ms_and_util_says_what_its_full_bar_is(width: int) -> None:
    """newuser24 #10: `w_await 0.09 now peak 86.50` had no unit, `util … top 100%` said "top" unexplained."""
    text = [line.plain for line in trend_lines("vda (disk)", FRESH, width, 44, 1.0)]
    assert any("w_await  86.50 ms now  peak 86.50 ms" in line for line in text), text
    assert any("r_await  0.25 ms now  peak 0.25 ms" in line for line in text), text
    assert any(line.startswith("util") and "peak 0%, full bar 100%" in line for line in text), text
    assert not any("top" in line for line in text)


def test_a_fresh_chart_has_its_newest_tick_at_its_right_edge() -> None:
    """newuser24 #10: 14 ticks' bars sat mid-pane under "the newest on the right": the columns no tick has
    reached yet are dotted on the bottom row, so the chart's minute shows and its newest tick ends it."""
    lines = trend_lines("vda (disk)", FRESH, 143, 44, 1.0)
    head = next(index for index, line in enumerate(lines) if line.plain.startswith("util"))
    bottom = lines[head + BAR_ROWS_MOST]  # 44 rows: each chart's eight rows of bars
    left = bottom.plain[:TREND_TICKS]
    assert left == "·" * (TREND_TICKS - 14) + "▁" * 14, left  # util: 0% a tick, the newest on the right
    full = [line.plain for line in trend_lines("vda (disk)", FRESH * 5, 143, 44, 1.0)]
    assert not any("·" in line for line in full)  # a whole minute: no column waits for a tick
