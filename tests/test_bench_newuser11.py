"""newuser11's Benchmark items (issue 23): `t` reads `Threshold` at every width, and Enter in the directory
field moves to Start instead of starting a run with the default size."""

from __future__ import annotations

from dataclasses import replace

import pytest
from diskdoctor.app.core.bench import wal as wal_report
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.bench import view
from diskdoctor.app.tui.bench.screen import BenchScreen
from diskdoctor.probes.latency_histogram import LatencyHistogram, summary_us
from diskdoctor.probes.root import live_root
from support.bench_fixed_run import PARAMS, TARGET, fixed_snapshots
from textual.widgets import Input
from textual.widgets._footer import FooterKey

SIZES = [(80, 24), (120, 40), (200, 60)]
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]


def screen_lines(app: DiskDoctorApp) -> list[str]:
    """The screen as a new user reads it in `tmux capture-pane`: one string per row."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_the_threshold_key_reads_threshold_at_every_width(size: tuple[int, int]) -> None:
    """At 80 and 120 `t Limit` read as the run's own seconds/size limit; it switches the p99 threshold."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        labels = {key.action: key.description for key in app.screen.query(FooterKey)}
        assert labels.get("threshold") == "Threshold", labels


async def test_enter_in_the_directory_field_moves_to_start_without_starting(tmp_path) -> None:  # type: ignore[no-untyped-def]
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        screen = app.screen
        field = screen.query_one("#bench-dir", Input)
        field.value = str(tmp_path)
        field.focus()
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert not screen.busy, screen.query_one("StatusLine").plain
        assert screen.focused is screen.query_one("#bench-duration", Input)
        assert "Enter starts" in screen.query_one("StatusLine").plain


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_the_directory_set_hint_is_true(tmp_path, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    """newuser23 #14: after `d`, a path and Enter the hint said `shift+Tab to set seconds or size first`, but
    shift+Tab from Start reached a checkbox, and the `5` typed there switched to Runs. Doing what the hint
    says now sets the seconds (typed where the focus is) and the size (shift+Tab), on Benchmark."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        await pilot.press("d", *str(tmp_path), "enter")
        await settle(pilot)
        screen = app.screen
        status = screen.query_one("StatusLine").plain
        assert "type seconds here first (shift+Tab: size)" in status, status
        await pilot.press("5")
        await settle(pilot)
        assert app.screen is screen and isinstance(screen, BenchScreen) and not screen.busy
        assert screen.query_one("#bench-duration", Input).value == "5"
        await pilot.press("shift+tab")
        await settle(pilot)
        assert screen.focused is screen.query_one("#bench-size", Input), screen.focused
        await pilot.press("backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "1")
        await settle(pilot)
        assert app.screen is screen and "1" in screen.query_one("#bench-size", Input).value


@pytest.mark.parametrize("size", [(120, 40), (200, 60)], ids=["120x40", "200x60"])
async def test_a_run_on_tmpfs_says_no_layer_times_while_it_runs(size: tuple[int, int]) -> None:
    """newuser11: on tmpfs the running view showed the layer table's headings with no rows under them;
    only after the run did it say there is no block device under the directory."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        screen = app.screen
        target = replace(TARGET, directory="/dev/shm/x", mountpoint="/dev/shm", fstype="tmpfs", device=None,
                         layers=())
        screen.post_message(BenchScreen.RunStarted(target, PARAMS))
        for snapshot in fixed_snapshots()[:2]:
            screen.post_message(BenchScreen.IntervalReady(snapshot))
        await settle(pilot)
        await pilot.press("pagedown", "pagedown")
        await settle(pilot)
        text = "\n".join(screen_lines(app))
        assert "no block device under this directory" in text, text
        assert "avg flush" not in text, text


async def test_the_running_view_at_120x40_shows_chart_figures_and_layer_times_without_scrolling() -> None:
    """newuser11: at 120x40 `Where the time goes` was the last row above the status line, its table below
    the fold (PgDn); the chart now gives up rows while a run goes so all of it shows."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        screen = app.screen
        screen.busy = True
        screen.post_message(BenchScreen.RunStarted(TARGET, PARAMS))
        for snapshot in fixed_snapshots():
            screen.post_message(BenchScreen.IntervalReady(snapshot))
            await settle(pilot)
        text = "\n".join(screen_lines(app))
        assert "limit 10 ms" in text and "p99.9" in text, text
        assert "Where the time goes" in text and "nvme0n1p1   1,2" in text, text


def test_benchmark_and_runs_round_a_latency_the_same_way() -> None:
    """newuser11: Benchmark said `330 ns 400 ns 642 ns` where Runs (from the saved run) said `331 ns
    401 ns 641 ns` for the same figures: a histogram's midpoints (330.5 ns) were rounded twice, two ways."""
    histogram = LatencyHistogram()
    histogram.record_many([300] * 10 + [331] * 500 + [401] * 480 + [641] * 9 + [700])
    saved = summary_us(histogram)
    runs = [wal_report._us(saved[key]) for key in ("p50", "p99", "p99_9")]
    assert runs == ["331 ns", "401 ns", "641 ns"]
    benchmark = view.stats_text(None, histogram, "sync call", None, "whole run").plain
    for line, figure in zip(("p50", "p99 ", "p99.9"), runs, strict=True):
        row = next(row for row in benchmark.splitlines() if row.startswith(line))
        assert figure in row, (row, figure)


async def test_enter_on_a_directory_that_does_not_exist_says_so_and_stays_in_the_field() -> None:
    """Enter in the directory field said "Directory set" for a path that does not exist (Start failed)."""
    from diskdoctor.app.tui.app import DiskDoctorApp
    from diskdoctor.probes.root import live_root
    from test_bench_screen import open_bench

    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_bench(app, pilot)
        await pilot.press("d", *"/nonexistent-diskdoctor-dir", "enter")
        await pilot.pause()
        assert screen.focused is not None and screen.focused.id == "bench-dir"
        assert "no such directory" in str(screen.query_one("#bench-status").render())
