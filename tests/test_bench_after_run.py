"""The Benchmark screen once a run has finished, as newuser8 (#8, #15) and newuser7 (#8) saw it in tmux
(issue 23): the verdict heads the column with its advice under it, no finished 100% bar and no last
half-second's figures above it (a p99 of 1.76 ms read as the judged 3.53 ms), the threshold after them;
and the one-line footer parts the screen's keys from the app's with a space on each side of its "│"."""

from __future__ import annotations

import re

import pytest
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.root import live_root
from support.bench_fixed_run import feed_fixed_run, fixture_mounts
from test_bench_screen import open_bench, text_of
from test_footer_and_fold_fit import footer_text, screen_lines

__all__ = ["fixture_mounts"]
SIZES = [(80, 24), (120, 40), (200, 60)]


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
async def test_after_a_run_the_verdict_heads_the_column_and_no_last_interval_figure_is_left(
        fixture_mounts: None, size: tuple[int, int]) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await open_bench(app, pilot)
        feed_fixed_run(screen)
        await pilot.pause()
        screen.set_focus(None)
        await pilot.pause(1.0)  # where the column rests once the verdict is pinned (a few retries)
        body = screen.query_one("#bench-body" if screen.has_class("-narrow") else "#bench-right")
        verdict, advice = screen.query_one("#bench-verdict"), screen.query_one("#bench-advice")
        at_end = body.scroll_y == body.max_scroll_y > 0  # the one column scrolled as far as it goes
        assert verdict.region.y == body.region.y or (at_end and verdict.region.y - body.region.y <= 2), \
            screen_lines(app)  # the first thing in the column
        threshold = screen.query_one("#bench-threshold-row")  # the threshold it judges, then its advice
        assert verdict.region.bottom <= threshold.region.y < threshold.region.bottom <= advice.region.y
        shown = "\n".join(screen_lines(app))
        assert "100%" not in shown and "last interval" not in shown, shown
        stats = text_of(app, "#bench-stats")
        assert "last interval" not in stats and "whole run" in stats, stats
        judged = re.match(r"PASS p99 fdatasync (\S+ \S+)", text_of(app, "#bench-verdict"))
        assert judged, text_of(app, "#bench-verdict")
        assert re.search(rf"^p99 +{re.escape(judged[1])} ", stats, re.MULTILINE), (judged[1], stats)
        if size[0] >= 120:  # the layer times explain the verdict: they show with it, nothing to page
            title = screen.query_one("#bench-layers-title")
            assert verdict.region.y < title.region.y < body.region.bottom - 2, screen_lines(app)


async def test_the_one_line_footer_has_a_space_on_each_side_of_its_bar(fixture_mounts: None) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(200, 60)) as pilot:
        await open_bench(app, pilot)
        footer = footer_text(app)
        assert " │ F1 Help" in footer and "] Workload" in footer, footer  # was "Workload│ F1"


def test_a_narrow_footer_leaves_out_fio_before_run_longer() -> None:
    """newuser12 #6: at 80 columns after a multi-load WAL run (`c Chart` shown) the footer lost `l Longer`,
    the advisor's usual fix printed just above it; a footer too narrow leaves out the last declared key
    first, so Run longer and Run again come before fio side by side."""
    from diskdoctor.app.tui.bench.screen import BenchScreen

    order = [binding.action for binding in BenchScreen.BINDINGS if not isinstance(binding, tuple)]
    assert order.index("longer") < order.index("again") < order.index("fio")
