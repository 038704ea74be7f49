"""After a multi-load WAL run the chart's title says which load it shows and which one the verdict judged
(newuser15 #3: `(not judged · c: 2 of 3)` sat over a load whose own verdict in the table was `under`), in
the words of the `c` key (`Chart load`), and whole at 80 columns."""

from __future__ import annotations

from diskdoctor.app.tui.bench.phases import PhaseTrace, PhaseTraces
from diskdoctor.widgets import PercentileChart
from test_percentile_chart import ChartApp, rows


def three_loads() -> PhaseTraces:
    traces = PhaseTraces([PhaseTrace(50.0, "steady", "fdatasync from due at 50/s steady"),
                          PhaseTrace(500.0, "steady", "fdatasync from due at 500/s steady"),
                          PhaseTrace(None, "closed", "write+fdatasync in the closed loop (capacity)")])
    traces.judged = 0
    return traces


def test_each_load_says_which_it_is_and_which_the_verdict_judged() -> None:
    traces = three_loads()
    assert traces.title(0) == "fdatasync from due at 50/s steady (judged: load 1 of 3)"
    assert traces.title(1) == "fdatasync from due at 500/s steady (load 2 of 3; the verdict judged load 1)"
    assert traces.title(2) == "write+fdatasync in the closed loop (capacity) (load 3 of 3: not judged)"
    assert all("c:" not in traces.title(index) for index in range(3))


async def test_the_longest_load_title_is_whole_at_80_columns() -> None:
    app = ChartApp()
    async with app.run_test(size=(78, 14)) as pilot:
        chart = app.query_one(PercentileChart)
        chart.set_threshold(10, "etcd docs")
        title = three_loads().title(1)
        chart.clear_history(title)
        chart.push(0.5, {"p50": 0.5, "p99": 1.0, "p99 cumulative": 1.0})
        chart.finish(True, 1.14)
        await pilot.pause()
        assert rows(chart)[0].startswith(title), rows(chart)[0]
