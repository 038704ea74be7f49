"""Benchmark gives its room to what the user needs first (newuser7, issue 23): before any run what Start
runs is whole (an empty chart took 17 rows at 120x40 and cut it at `…then in a`); after a run the verdict
follows the figures, the threshold under it."""

from __future__ import annotations

import pytest
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.bench.screen import BenchScreen
from diskdoctor.app.tui.bench.threshold import ThresholdRow
from diskdoctor.probes.root import live_root
from support.bench_fixed_run import feed_fixed_run, fixture_mounts
from test_monitor_layout import screen_lines
from test_tui import settled

__all__ = ["fixture_mounts"]


async def open_bench(app: DiskDoctorApp, pilot) -> BenchScreen:  # type: ignore[no-untyped-def]
    await settled(app, pilot)
    await pilot.press("3")
    await settled(app, pilot)
    await pilot.pause(0.2)
    screen = app.screen
    assert isinstance(screen, BenchScreen)
    return screen


@pytest.mark.parametrize("size", [(120, 40), (200, 60)])
async def test_what_start_runs_is_whole_before_the_first_run(fixture_mounts: None,
                                                            size: tuple[int, int]) -> None:
    """No empty chart before a run: the explanation ends on screen, the threshold under it."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await open_bench(app, pilot)
        assert not screen.query_one("#bench-chart").region.height
        text = "\n".join(screen_lines(app))
        assert "waiting for the first interval" not in text
        assert "What Start runs" in text
        assert "(the highest p99 among them)." in text and "the others)." in text, text
        plan, row = screen.query_one("#bench-plan"), screen.query_one(ThresholdRow)
        assert plan.region.bottom <= row.region.y < screen.query_one("#bench-status").region.y


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)])
async def test_the_chart_comes_back_once_a_run_starts(fixture_mounts: None, size: tuple[int, int]) -> None:
    """A run draws the chart again, and after it the verdict heads the column, the threshold it judges under
    it (newuser22 #2) and the layer times after them (newuser8: the verdict was under the progress bar and
    the live figures)."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await open_bench(app, pilot)
        feed_fixed_run(screen, "/var/lib/etcd")
        await settled(app, pilot)
        await pilot.pause(0.5)
        assert screen.query_one("#bench-left").display
        layers = screen.query_one("#bench-layers")
        verdict, row = screen.query_one("#bench-verdict"), screen.query_one(ThresholdRow)
        assert verdict.virtual_region.bottom <= row.virtual_region.y < layers.virtual_region.y
        text = str(verdict.render())
        assert text.startswith("PASS p99 fdatasync")
