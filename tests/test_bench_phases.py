"""The Benchmark screen before and after a run, as newuser4 saw it in tmux (issue 23): after a run the chart,
figures and histogram show the load the verdict judged (not the unjudged capacity run that came last) and
`c` steps through the others; "Where the time goes" shows with the verdict at 120x40 without paging; before
a run no empty layer table sits over the threshold field and the column says what Start runs; fields are
edited, not overwritten, when tabbed into."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import live_prerequisites
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.bench.screen import BenchScreen
from diskdoctor.probes.root import live_root
from diskdoctor.widgets import LatencyBars, LayerTimeTable, PercentileChart
from support.loop_stack import build_one_loop
from support.wal_support import tmpfs_dir
from test_bench_screen import fill_form, open_bench, text_of, until
from textual.widgets import Input

__all__ = ["tmpfs_dir"]
WAL_DISK_MIB = 400
"""Room for etcd's preallocated WAL segments and the backend beside them."""


@pytest.fixture
def wal_disk(tmp_path: Path) -> Iterator[Path]:
    """An ext4 filesystem on its own loop device, big enough for an etcd WAL run."""
    why = live_prerequisites()
    if why:
        pytest.skip(why)
    stack = build_one_loop(tmp_path, size_mib=WAL_DISK_MIB)
    try:
        yield stack.mountpoints["data"]
    finally:
        stack.teardown()


async def run_wal(app: DiskDoctorApp, pilot, directory: str) -> BenchScreen:  # type: ignore[no-untyped-def]
    """A real etcd WAL run of 1 s per load (50/s, 500/s, then the closed loop) in `directory`."""
    screen = await open_bench(app, pilot)
    fill_form(screen, directory, "1")
    await pilot.press("s")
    await until(pilot, lambda: screen.result is not None or "Error" in text_of(app, "#bench-status"), 60)
    await pilot.pause(0.5)
    assert screen.result is not None, text_of(app, "#bench-status")
    return screen


async def test_after_a_run_the_chart_shows_the_judged_load_and_c_steps_through_the_others(
        tmpfs_dir: str) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await run_wal(app, pilot, tmpfs_dir)
        judged = re.search(r"from due at (\d+/s steady)", text_of(app, "#bench-verdict"))
        assert judged, text_of(app, "#bench-verdict")
        chart = screen.query_one(PercentileChart)
        assert chart.metric.startswith(f"fdatasync from due at {judged.group(1)} (judged") and chart._times
        assert "capacity" not in chart.metric
        assert f"at {judged.group(1).replace('/s', ' writes/s,')}" in str(
            screen.query_one(LatencyBars).render()).splitlines()[0]
        seen = {chart.metric}
        if screen.query_one("#bench-body").scroll_y > 0:  # one column, the verdict on top: c shows the chart
            await pilot.press("c")
            await pilot.pause(0.1)
            assert "(judged" in chart.metric and screen.query_one("#bench-body").scroll_y == 0
        for _ in range(2):
            await pilot.press("c")
            await pilot.pause(0.1)
            seen.add(chart.metric)
            assert "(load " in chart.metric and "(judged" not in chart.metric and chart._times
            assert "not judged" in chart.metric if "capacity" in chart.metric else \
                "; the verdict judged load" in chart.metric, chart.metric
        assert any("closed loop (capacity)" in metric for metric in seen) and len(seen) == 3
        await pilot.press("c")  # round to the judged load again
        await pilot.pause(0.1)
        assert "(judged" in chart.metric
        assert os.listdir(tmpfs_dir) == []


@pytest.mark.live
async def test_where_the_time_goes_shows_with_the_verdict_at_120x40(wal_disk: Path) -> None:
    """After a run the one column starts at the verdict, the layer times under it: nothing to page."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await run_wal(app, pilot, str(wal_disk))
        await pilot.pause(1.0)  # the column settles where it rests
        body = screen.query_one("#bench-body")
        title, verdict = screen.query_one("#bench-layers-title"), screen.query_one("#bench-verdict")
        assert "Where the time goes (at " in text_of(app, "#bench-layers-title")
        assert screen.query_one(LayerTimeTable).row_count >= 1
        assert body.region.y <= verdict.region.y < title.region.y < body.region.bottom - 2


async def test_before_a_run_no_empty_layer_table_sits_over_the_threshold_field() -> None:
    """200x60 before any run: the threshold field was under the empty table's headings, with ~40 blank
    rows below; now the column holds what Start runs and the threshold, and the live panes come with a run."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await open_bench(app, pilot)
        assert not screen.query_one(LayerTimeTable).display
        assert not screen.query_one("#bench-layers-title").display
        plan = text_of(app, "#bench-plan")
        assert plan.startswith("What Start runs") and "etcd's WAL" in plan and "scratch directory" in plan
        row, right = screen.query_one("#bench-threshold-row"), screen.query_one("#bench-right")
        plan_widget = screen.query_one("#bench-plan")
        assert plan_widget.region.y <= right.region.y + 1  # what Start runs first, its threshold under
        assert plan_widget.region.bottom <= row.region.y < right.region.bottom
        await pilot.press("right_square_bracket")  # compaction: nothing judged, its own words
        await pilot.pause(0.1)
        plan = text_of(app, "#bench-plan")
        assert "Nothing is judged" in plan and "compaction" in plan


async def test_tabbing_into_a_field_keeps_its_text_and_an_empty_duration_says_by_size() -> None:
    """Tab into bs and type 7: "2,3007 B" (typed before its unit; once "7" replaced 2300); the empty seconds
    field says the run goes by size instead of showing "-"."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_bench(app, pilot)
        screen.query_one("#bench-size", Input).focus()
        await pilot.press("shift+tab")
        await pilot.pause()
        assert screen.focused is screen.query_one("#bench-bs", Input)
        await pilot.press("7")
        assert screen.query_one("#bench-bs", Input).value == "2,3007 B"
        assert screen.query_one("#bench-duration", Input).placeholder == "until size"


async def test_before_a_run_the_column_lists_the_runs_saved_on_that_filesystem() -> None:
    """The room under what Start runs holds the runs saved there before, newest first, with verdicts."""
    from diskdoctor.app.core.runs.store import RunStore
    from support.runs_support import saved_run

    RunStore().save(saved_run(20, slow_ms=2.0))
    RunStore().save(saved_run(21, slow_ms=30.0))
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await open_bench(app, pilot)
        screen.query_one("#bench-dir", Input).value = "/var/lib/etcd"
        # (the filesystem suggested from the Stack's cursor shows its own list first: wait for this one's)
        await until(pilot, lambda: "2026-11-21 14:30 UTC" in text_of(app, "#bench-plan"))
        lines = text_of(app, "#bench-plan").split("Earlier runs on this filesystem", 1)[1].splitlines()
        assert lines[1].startswith("2026-11-21 14:30 UTC  wal") and "FAIL p99" in lines[1]
        assert lines[2].startswith("2026-11-20 14:30 UTC  wal") and "PASS p99" in lines[2]
        screen.query_one("#bench-dir", Input).value = "/nowhere-saved"
        await until(pilot, lambda: "none saved yet for /nowhere-saved" in text_of(app, "#bench-plan"))
