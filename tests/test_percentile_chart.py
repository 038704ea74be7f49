"""The live latency chart: a 1-2-5 log axis, series drawn at their values, the limit line, small sizes."""

from __future__ import annotations

import re

import pytest
from diskdoctor.app.base.units import tick_label
from diskdoctor.widgets import PercentileChart
from diskdoctor.widgets.braille_canvas import BRAILLE_BASE, BrailleCanvas
from diskdoctor.widgets.chart_axes import LogAxis, format_seconds, nice_ticks, time_step
from textual.app import App, ComposeResult


class ChartApp(App[None]):
    def compose(self) -> ComposeResult:
        yield PercentileChart(id="chart")


def rows(chart: PercentileChart) -> list[str]:
    return [chart.render_line(y).text for y in range(chart.content_region.height)]


def is_braille(char: str) -> bool:
    return BRAILLE_BASE < ord(char) < BRAILLE_BASE + 0x100


@pytest.mark.parametrize(("low", "high", "ticks"), [
    (0.6, 18.7, [0.5, 1, 2, 5, 10, 20]),
    (0.3, 10, [0.2, 0.5, 1, 2, 5, 10]),
    (0.05, 0.05, [0.02, 0.05, 0.1]),
    (1, 1, [0.5, 1, 2]),
    (2, 3, [2, 5]),
])
def test_value_axis_uses_1_2_5_ticks_around_the_data(low: float, high: float, ticks: list[float]) -> None:
    assert nice_ticks(low, high) == pytest.approx(ticks)


def test_log_axis_puts_bigger_values_higher_and_clamps() -> None:
    axis = LogAxis(0.1, 10, 41)
    assert axis.row(10) == 0 and axis.row(0.1) == 40 and axis.row(1) == 20
    assert axis.row(1000) == 0 and axis.row(0.001) == 40


def test_labels_read_like_a_person_writes_them() -> None:
    assert [tick_label(v) for v in (0.05, 0.2, 1, 2.5, 12.5, 20, 500, 2000)] == [
        "50µs", "200µs", "1ms", "2.5ms", "12.5ms", "20ms", "500ms", "2s"]
    assert format_seconds(12) == "12s" and format_seconds(0.5) == "0.5s" and format_seconds(0.55) == "0.55s"
    assert format_seconds(0.30000000000000004) == "0.3s" and format_seconds(120) == "120s"
    assert time_step(60, 6) == 10 and time_step(2, 8) == 0.5


def test_braille_canvas_sets_dots_and_draws_lines() -> None:
    canvas = BrailleCanvas(2, 1)
    canvas.dot(0, 0, owner=1)
    assert canvas.char(0, 0) == "⠁" and canvas.owner[0][0] == 1
    canvas.line(0, 3, 3, 3, owner=2)  # the bottom dot row across both cells
    assert canvas.char(0, 0) == "⣁" and canvas.char(0, 1) == "⣀" and canvas.owner[0][1] == 2
    canvas.dot(99, 99, owner=3)  # outside: ignored
    assert canvas.char(0, 1) == "⣀"


async def test_empty_chart_says_it_is_waiting_and_names_the_limit() -> None:
    app = ChartApp()
    async with app.run_test(size=(90, 20)) as pilot:
        chart = app.query_one(PercentileChart)
        chart.set_threshold(10, "etcd docs")
        await pilot.pause()
        text = rows(chart)
        assert text[0].startswith("fdatasync · latency per interval (log scale)")  # newuser19: ran together
        assert text[0].rstrip().endswith("╌ limit 10 ms (etcd docs)")
        assert any("waiting for the first interval" in row for row in text)


async def test_series_are_drawn_at_their_values_under_the_limit_line() -> None:
    app = ChartApp()
    async with app.run_test(size=(100, 30)) as pilot:
        chart = app.query_one(PercentileChart)
        chart.set_threshold(10, "etcd docs")
        for step in range(20):
            chart.push(0.5 * (step + 1), {"p50": 0.5, "p90": 0.8, "p99": 1.0, "p99.9": 4.0,
                                          "p99 cumulative": 1.0})
        await pilot.pause()
        text = rows(chart)
        assert "p50 500 µs" in text[1] and "p99.9 4.00 ms" in text[1]
        assert "whole phase: ━ p99 1.00 ms" in text[1]
        assert text[1].startswith("last 0.5 s: ━ p50")  # the live p99 says it is the last interval's
        labelled = {row.split("┤")[0].strip(): index for index, row in enumerate(text) if "┤" in row}
        assert {"500µs", "1ms", "2ms", "5ms", "10ms"} <= set(labelled)
        assert "╌" in text[labelled["10ms"]]  # the limit is a dashed line on its own row
        plotted = [index for index, row in enumerate(text) if any(is_braille(c) for c in row)]
        assert labelled["10ms"] < plotted[0]  # everything plotted lies under the 10 ms line
        assert labelled["5ms"] <= plotted[0] <= labelled["2ms"]  # the 4 ms p99.9 line
        assert plotted[-1] in (labelled["500µs"], labelled["500µs"] + 1)  # the 0.5 ms p50 line
        assert text[-1].split() == ["2s", "4s", "6s", "8s", "10s"]  # labels never crowd


async def test_missing_values_leave_gaps_and_a_new_run_clears_the_chart() -> None:
    app = ChartApp()
    async with app.run_test(size=(60, 14)) as pilot:
        chart = app.query_one(PercentileChart)
        chart.push(0.5, {"p50": 1.0, "p99.9": None})
        chart.push(1.0, {"p50": 1.0, "p99.9": None})
        await pilot.pause()
        assert not re.search(r"p99\.9 \d", rows(chart)[1])  # no value: no figure in the legend
        chart.clear_history("O_DSYNC write")
        await pilot.pause()
        assert rows(chart)[0].startswith("O_DSYNC write · latency")
        assert any("waiting for the first interval" in row for row in rows(chart))


async def test_narrow_chart_keeps_the_limit_with_a_shorter_title() -> None:
    app = ChartApp()
    async with app.run_test(size=(50, 12)) as pilot:
        chart = app.query_one(PercentileChart)
        chart.set_threshold(20, "vendor")
        chart.push(0.5, {"p50": 3.0})
        await pilot.pause()
        text = rows(chart)
        assert text[0].startswith("fdatasync · log scale") and "limit 20 ms (vendor)" in text[0]
        assert all(len(row) <= 50 for row in text)


async def test_a_long_metric_keeps_the_limit_whole_at_80_columns() -> None:
    """After a WAL run the title names the judged load and the key: at 80 columns the limit stays whole
    (the scale goes unsaid) instead of being cut at "(etcd"."""
    app = ChartApp()
    async with app.run_test(size=(78, 12)) as pilot:
        chart = app.query_one(PercentileChart)
        chart.clear_history("fdatasync at 500/s steady (judged · c: 2 of 3)")
        chart.set_threshold(10, "etcd docs")
        chart.push(0.5, {"p50": 3.0})
        await pilot.pause()
        title = rows(chart)[0]
        assert title.startswith("fdatasync at 500/s steady (judged · c: 2 of 3)")
        assert title.rstrip().endswith("limit 10 ms (etcd docs)")


@pytest.mark.parametrize("width", [78, 118])
async def test_the_live_p99_and_the_whole_phase_p99_say_which_is_which_at_any_width(width: int) -> None:
    app = ChartApp()
    async with app.run_test(size=(width, 20)) as pilot:
        chart = app.query_one(PercentileChart)
        for step in range(4):
            chart.push(0.5 * (step + 1), {"p50": 0.325, "p90": 0.539, "p99": 0.748, "p99.9": 7.52,
                                          "p99 cumulative": 0.973})
        await pilot.pause()
        legend = rows(chart)[1].rstrip()
        live, _, whole = legend.partition(" · ")
        assert live.startswith("last 0.5 s: ") and "━ p99 748 µs" in live and "━ p50 325 µs" in live
        assert whole == "whole phase: ━ p99 973 µs"
        assert ("p99.9 7.52 ms" in live) == (width > 100)  # the tail, where there is room for it


@pytest.mark.parametrize("height", [9, 14])
async def test_a_short_chart_labels_its_top_row_over_the_limit(height: int) -> None:
    """newuser13 #5, newuser14 #10: at 120x40 while a run went on ext4 the chart (9 rows) drew its 16-20 ms
    p99 in an unlabelled row above `10ms`; the top row is labelled with the value the axis reaches."""
    app = ChartApp()
    async with app.run_test(size=(100, height)) as pilot:
        chart = app.query_one(PercentileChart)
        chart.set_threshold(10, "etcd docs")
        for step in range(20):
            chart.push(0.5 * (step + 1), {"p50": 0.3, "p90": 1.0, "p99": 16.0, "p99.9": 18.0,
                                          "p99 cumulative": 15.3})
        await pilot.pause()
        text = rows(chart)
        plot = [row for row in text if "┤" in row or "│" in row]
        top = plot[0].split("┤")[0].strip() if "┤" in plot[0] else ""
        assert top.endswith("ms") and float(top[:-2]) >= 18, text  # the top row says how high it reaches
        assert any(row.split("┤")[0].strip() == "10ms" and row.index("┤") for row in plot[1:]), text


async def test_the_time_axis_never_repeats_a_label() -> None:
    """newuser18 #8, 120x40: `0.5s  0.6s  0.6s  0.7s  0.7s  0.8s  0.8s  0.9s  0.9s  0.9s  1s` (ticks 0.05 s
    apart, each rounded to one decimal): every label is its tick's own value."""
    app = ChartApp()
    async with app.run_test(size=(118, 20)) as pilot:
        chart = app.query_one(PercentileChart)
        for step in range(11):
            chart.push(0.5 + 0.05 * step, {"p50": 1.0, "p99": 2.0})
        await pilot.pause()
        labels = rows(chart)[-1].split()
        assert len(labels) == len(set(labels)) > 3, labels
        assert "0.55s" in labels or "0.6s" in labels, labels
