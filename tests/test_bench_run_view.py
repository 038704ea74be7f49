"""The Benchmark screen while a run goes and after it, as newuser12 saw it (issue 23): after a run the chart's
legend keeps only the whole-phase figure (the verdict's), not the last half second's; every load of a run
keeps its progress on the status line; at 80x24 the progress and the live p99 are above the fold; the
figures' columns read apart and the capacity load is not "at closed loop"."""

from __future__ import annotations

import re
from dataclasses import replace

from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.bench import view
from diskdoctor.app.tui.bench.messages import ContentionReady
from diskdoctor.app.tui.bench.screen import BenchScreen
from diskdoctor.probes.latency_histogram import LatencyHistogram
from diskdoctor.probes.root import live_root
from diskdoctor.widgets import PercentileChart
from support.bench_fixed_run import PARAMS, TARGET, feed_fixed_run, fixed_snapshots
from support.wal_support import tmpfs_dir
from test_bench_phases import run_wal
from test_bench_screen import open_bench, text_of

__all__ = ["tmpfs_dir"]
LOADS = ({"rate": 50.0, "arrival": "steady"}, {"rate": 500.0, "arrival": "steady"})


def screen_lines(app: DiskDoctorApp) -> list[str]:
    """The screen as a new user reads it in `tmux capture-pane`: one string per row."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def legend_row(app: DiskDoctorApp) -> str:
    """The chart's legend (its second row) as drawn."""
    chart = app.screen.query_one(PercentileChart)
    return chart.render_line(1).text


async def feed_two_loads(app: DiskDoctorApp, pilot) -> BenchScreen:  # type: ignore[no-untyped-def]
    """A run of the etcd profile (50/s, 500/s, the capacity) streamed into its second load, with the host's
    contention said after each load's intervals (as the run's worker posts it every 2 s)."""
    screen = await open_bench(app, pilot)
    screen.busy = True
    screen.post_message(BenchScreen.RunStarted(TARGET, PARAMS))
    for index, snapshot in enumerate(fixed_snapshots()):
        screen.post_message(BenchScreen.IntervalReady(replace(snapshot, load=LOADS[index // 2])))
        await pilot.pause()
        screen.post_message(ContentionReady("host quiet", False))
        await pilot.pause()
    await pilot.pause(0.2)
    return screen


async def test_after_a_run_the_legend_shows_no_half_second_figure() -> None:
    """newuser12: `last 0.5 s: ━ p50 2.76 ms … p99 11.0 ms … · whole phase: ━ p99 12.9 ms` stayed over the
    judged chart after the run, so a half-second p99 (11.0) could be read as the verdict's (12.9)."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await open_bench(app, pilot)
        feed_fixed_run(screen)
        await pilot.pause(0.2)
        legend = legend_row(app)
        assert "last" not in legend, legend
        assert re.match(r"whole (phase|load|run): ━ p99 ", legend), legend
        assert "per 0.5 s: ━ p50 ━ p90 ━ p99 ━ p99.9" in legend, legend


async def test_after_a_real_run_the_legend_gives_the_verdicts_p99(tmpfs_dir: str) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(200, 60)) as pilot:
        await run_wal(app, pilot, tmpfs_dir)
        legend = legend_row(app)
        assert "last" not in legend, legend
        whole = re.match(r"whole load: ━ p99 ([\d.,]+ [mµn]?s)", legend)
        assert whole, legend
        head = text_of(app, "#bench-verdict").splitlines()[0]  # "FAIL p99 fdatasync … 10.6 ms >= …"
        assert re.search(rf"steady {re.escape(whole.group(1))}[ ,]", head), \
            (legend, text_of(app, "#bench-verdict"))


async def test_the_legend_shows_the_last_interval_again_in_the_next_run() -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await open_bench(app, pilot)
        feed_fixed_run(screen)
        await pilot.pause(0.2)
        screen.busy = True
        screen.post_message(BenchScreen.RunStarted(TARGET, PARAMS))
        screen.live.reset("wal", PARAMS)
        screen.post_message(BenchScreen.IntervalReady(fixed_snapshots()[0]))
        await pilot.pause(0.2)
        assert legend_row(app).startswith("last 0.5 s: ━ p50"), legend_row(app)


async def test_every_load_keeps_its_progress_on_the_status_line() -> None:
    """newuser12, 80x24 tmpfs: in the second load the status read `Running custom on /dev/shm/x · Esc
    cancels` (the host's contention, said every 2 s, replaced the progress)."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(80, 24)) as pilot:
        await feed_two_loads(app, pilot)
        status = screen_lines(app)[-3]
        assert "load 2 of 3" in status and "100% · 10,000 writes" in status, status


async def test_at_80x24_the_progress_and_the_live_p99_are_above_the_fold() -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(80, 24)) as pilot:
        await feed_two_loads(app, pilot)
        rows = screen_lines(app)
        assert any("100% · load 2 of 3 at 500 writes/s, steady" in row for row in rows), "\n".join(rows)
        assert any(re.match(r" p99 +[\d.]+ [mµ]s", row) for row in rows), "\n".join(rows)
        assert any("limit 10 ms" in row for row in rows), "\n".join(rows)  # the chart stays, shorter


def test_the_time_left_is_said_for_the_load_and_for_the_run() -> None:
    """newuser19: `2,001 writes · 500 ops/s · 4.00 s · 2.7 s left` at 60% (load 2 of 3, 5 s loads) was
    neither the load's 1 s nor the run's 6 s (the load's seconds over the run's progress)."""
    text = view.progress_text(0.6, 4.0, 2001, 500.0, load="500 writes/s, steady", loads=(2, 3)).plain
    assert text.splitlines() == [f"{'━' * view.PROGRESS_CELLS} 60% · load 2 of 3 at 500 writes/s, steady",
                                 "2,001 writes · 500 ops/s · 4.00 s · 1.0 s left in this load · 6.0 s in all"]
    text = view.progress_text(0.4, 1.0, 500, 500.0, load="500 writes/s, steady", loads=(2, 3)).plain
    assert text.endswith("1.00 s · 4.0 s left in this load · 9.0 s in all"), text
    text = view.progress_text(0.9, 3.5, 900, 200.0, load="closed loop (capacity)", loads=(3, 3)).plain
    assert "90% · load 3 of 3: closed loop (capacity)" in text and text.endswith("· 1.5 s left in this load "
                                                                                  "· 1.5 s in all"), text
    assert view.progress_text(0.5, 2.0, 100, 10.0, loads=(1, 1)).plain.endswith("· 2.0 s left")  # one load


async def test_at_80x24_the_progress_says_both_times_left_whole() -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(80, 24)) as pilot:
        await feed_two_loads(app, pilot)
        rows = screen_lines(app)
        bar = next(index for index, row in enumerate(rows) if "load 2 of 3 at 500 writes/s, steady" in row)
        assert re.search(r"· [\d.]+ s · (finishing|.* in this load · [\d.]+ s in all)$", rows[bar + 1].rstrip(
            " ▁▂▃▄▅▆▇█▊▎")), "\n".join(rows)


def test_the_capacity_load_is_not_at_closed_loop() -> None:
    text = view.progress_text(0.93, 4.0, 900, 200.0, load="closed loop (capacity)").plain
    assert "93% · closed loop (capacity)" in text and "at closed" not in text, text
    assert "at 500 writes/s" in view.progress_text(0.3, 1.0, 9, 9.0, load="500 writes/s, steady").plain


def test_a_figure_and_its_sample_count_are_two_blanks_apart() -> None:
    """newuser12 at 120: `p50   2.49 µs  34,840      2.49 µs 259,500` (the count touched the figure)."""
    interval, total = LatencyHistogram(), LatencyHistogram()
    interval.record_many([2_490] * 34_840)
    total.record_many([2_490] * 259_500)
    rows = view.stats_text(interval, total, "write+fdatasync").plain.splitlines()
    assert re.search(r"last interval  samples  whole phase  samples$", rows[0]), rows[0]
    assert re.search(r"2\.49 µs  +17,421 +2\.49 µs  129,751$", rows[1]), rows[1]  # the p50: half behind it


async def test_a_judged_loads_title_keeps_its_name_whole_at_80_columns() -> None:
    """newuser12's 80x24 pass after a run: `fdatasync from due at 50/s steady (judged: load 1 of 3)  ╌ limit
    10 ms (etcd do`: the limit's source goes before any of the title or the limit is cut."""
    from test_percentile_chart import ChartApp, rows

    app = ChartApp()
    async with app.run_test(size=(78, 14)) as pilot:
        chart = app.query_one(PercentileChart)
        chart.set_threshold(10, "etcd docs")
        chart.clear_history("fdatasync from due at 50/s steady (judged: load 1 of 3)")
        chart.push(0.5, {"p50": 0.5, "p99": 1.0, "p99 cumulative": 1.0})
        chart.finish(True, 7.78)
        await pilot.pause()
        title, legend = rows(chart)[:2]
        assert title.startswith("fdatasync from due at 50/s steady (judged: load 1 of 3)"), title
        assert title.rstrip().endswith("╌ limit 10 ms"), title
        assert legend.startswith("whole phase: ━ p99 7.78 ms · per interval: ━ p50"), legend


async def test_the_capacity_loads_title_is_whole_at_80_columns() -> None:
    """`write+fdatasync in the closed loop (capacity) (load 3 of 3: not judged)  ╌ limi`: the axis labels
    the dashed line, so the limit's words give way to the load's name."""
    from test_percentile_chart import ChartApp, rows

    app = ChartApp()
    async with app.run_test(size=(78, 14)) as pilot:
        chart = app.query_one(PercentileChart)
        chart.set_threshold(10, "etcd docs")
        title = "write+fdatasync in the closed loop (capacity) (load 3 of 3: not judged)"
        chart.clear_history(title)
        chart.push(0.5, {"p50": 0.5, "p99": 20.0, "p99 cumulative": 1.0})
        await pilot.pause()
        text = rows(chart)
        assert text[0].rstrip() == title, text
        assert any(re.match(r" *10ms ┤╌", row) for row in text), text  # the limit, on its axis
