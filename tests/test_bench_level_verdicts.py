"""Each load's own verdict in the Benchmark table and the CLI's `load` lines agrees with the headline
(newuser10 #2: `INCONCLUSIVE … at 50/s` above a table where every load said `under`)."""

from __future__ import annotations

from diskdoctor.app.core.bench.kinds import kind_of
from diskdoctor.app.core.bench.record import BenchRecord
from diskdoctor.app.core.bench.wal import run_summary
from diskdoctor.app.tui.bench import view
from diskdoctor.probes.engine.workloads.wal import WalLevel, WalResult
from diskdoctor.probes.latency_histogram import LatencyHistogram
from support.bench_fixed_run import PARAMS, TARGET


def _histogram(samples: list[int]) -> LatencyHistogram:
    histogram = LatencyHistogram()
    histogram.record_many(samples)
    return histogram


def _level(rate: float, count: int, p99_ns: int, tail: int) -> WalLevel:
    """A load of `count` writes around 0.4 ms whose last 2% sit at `p99_ns`, and `tail` of them far out."""
    fast = [400_000 + i % 100 * 1_000 for i in range(count - count // 50)]
    slow = [p99_ns] * (count // 50 - tail) + [40_000_000] * tail
    latency = _histogram(fast + slow)
    return WalLevel(rate, "steady", count, count, count / rate, latency, latency, latency, LatencyHistogram(),
                    scheduled_s=count / rate)


def two_loads() -> WalResult:
    """newuser10's run: 50/s with a p99 of ~3.8 ms on few samples (its interval reaches past 10 ms), and
    500/s with the higher p99 (~4.6 ms) on ten times the samples (its interval is under 10 ms)."""
    return WalResult.of_levels([_level(50.0, 250, 3_780_000, 2), _level(500.0, 2500, 4_640_000, 0)])


def rows_of(text: str) -> dict[str, str]:
    return {row.split("  ")[0].strip(): row.split()[-1] for row in text.splitlines()
            if row.startswith(("50/s", "500/s"))}


def test_the_table_gives_each_load_its_own_verdict_as_the_headline_judges_it() -> None:
    text, verdict = view.verdict_text(PARAMS, TARGET, two_loads(), 10.0, None, {})
    assert verdict.result == "inconclusive"
    assert text.plain.startswith("INCONCLUSIVE p99 fdatasync from due at 50/s steady 3.78 ms"), text.plain
    assert rows_of(text.plain) == {"50/s steady": "inconclusive", "500/s steady": "under"}, text.plain


def test_the_cli_load_lines_and_what_start_runs_say_the_same_rule() -> None:
    record = BenchRecord("wal", PARAMS, TARGET, two_loads(), 10.0, sections={})
    lines = run_summary(record)
    assert lines[0].startswith("INCONCLUSIVE p99 fdatasync from due at 50/s steady 3.78 ms"), lines
    loads = [line for line in lines if line.startswith("load")]
    assert "inconclusive across 10 ms" in loads[0] and "p99 under 10 ms" in loads[1], loads
    plan = view.plan_text("wal", "/var/lib/etcd").plain
    assert "worst p99 of the rates" not in plan
    assert "else is INCONCLUSIVE if any rate is" in plan and kind_of("wal").cli.description in plan


def with_capacity() -> WalResult:
    """The two loads, then a closed loop whose writes took ~2.5 µs with their sync (the level's latency)
    while the fdatasync calls alone took ~330 ns (its sync): newuser10 #4's tmpfs capacity."""
    both, call = _histogram([2_500] * 1000), _histogram([330] * 1000)
    capacity = WalLevel(None, "closed", 1000, 1000, 1.0, both, both, call, LatencyHistogram())
    loads = two_loads()
    return WalResult.of_levels([*loads.levels, capacity])


def test_each_capacity_figure_has_its_own_name_everywhere() -> None:
    """newuser10 #4: the run's details said `sync p50 331 ns`, its comparison `p50 fdatasync 2.52 µs` and
    the live chart `fdatasync p50 2.55 µs`: the sync call alone and each write with its sync, one name."""
    from diskdoctor.app.core.bench import run_metrics
    from diskdoctor.app.tui.bench import workloads

    result = with_capacity()
    record = BenchRecord("wal", PARAMS, TARGET, result, 10.0, sections={})
    [capacity_line] = [line for line in run_summary(record) if line.startswith("capacity")]
    assert "sync call p50 330 ns" in capacity_line, capacity_line  # the details and reports
    [row] = [row for row in view.levels_table(result, 10.0).plain.splitlines() if row.startswith("capacity")]
    assert "330 ns" in row and row.endswith("sync call, not judged"), row  # the Benchmark table
    at_capacity = BenchRecord("wal", PARAMS, TARGET, result.judged_at(result.levels[-1]), 10.0, sections={})
    p50 = run_metrics.wal_metrics(at_capacity)[0]  # what Runs compares at capacity
    assert (p50.label, p50.value) == ("p50 write+fdatasync", 0.0025), p50
    assert workloads.load_label("fdatasync", {"rate": None, "arrival": "closed"}) == \
        "write+fdatasync in the closed loop (capacity)"  # the live chart's title
    assert workloads.load_label("fdatasync", {"rate": 500.0, "arrival": "steady"}) == \
        "fdatasync from due at 500/s steady"
