"""Confidence intervals and the shift test behind verdicts and `runs compare`: they cover the truth as
often as they claim, and a change within run-to-run scatter is never called a regression."""

from __future__ import annotations

import math
import random

from diskdoctor.app.core.bench.uncertainty import (
    Interval,
    histogram_interval,
    order_statistic_interval,
    rank_shift,
    section_interval,
    settle_text,
    widest,
)
from diskdoctor.probes.latency_histogram import LatencyHistogram, rank_of


def _sorted_samples(seed: int, count: int) -> list[float]:
    generator = random.Random(seed)
    return sorted(generator.expovariate(1.0) for _ in range(count))


def test_the_p99_interval_covers_the_true_p99_about_95_times_in_100() -> None:
    true_p99 = -math.log(0.01)
    covered = 0
    for seed in range(300):
        samples = _sorted_samples(seed, 1500)
        estimate = samples[rank_of(99.0, len(samples)) - 1]
        interval = order_statistic_interval(len(samples), 99.0, estimate,
                                            lambda rank, s=samples: (s[rank - 1], s[rank - 1]))
        assert interval is not None and interval.high is not None
        covered += interval.low <= true_p99 <= interval.high
    assert 0.92 <= covered / 300 <= 0.98


def test_too_few_samples_leave_the_high_end_unbounded() -> None:
    samples = _sorted_samples(1, 100)  # 100 samples cannot bound a p99 from above
    interval = order_statistic_interval(100, 99.0, samples[98], lambda r: (samples[r - 1], samples[r - 1]))
    assert interval is not None and interval.high is None
    assert interval.side_of(1000.0) == "straddles"  # even far over the estimate: no PASS from 100 samples


def test_a_histogram_gives_the_bucket_range_at_a_rank() -> None:
    histogram = LatencyHistogram()
    histogram.record_many([1_000_000 + i * 1000 for i in range(1000)])
    low, high = histogram.bounds_at_rank(990)
    assert low <= 1_989_000 <= high and high - low < 0.01 * low
    assert histogram.bounds_at_rank(1) == (1_000_000.0, 1_000_000.0)


def test_sections_widen_the_interval_when_the_run_drifts() -> None:
    steady = section_interval(5.0, [5.0, 5.1, 4.9, 5.0, 5.05, 4.95, 5.0, 5.1, 4.9, 5.0])
    drifting = section_interval(5.0, [1.0, 1.5, 2.0, 6.0, 9.0, 12.0, 3.0, 1.0, 8.0, 7.0])
    assert steady is not None and drifting is not None
    assert steady.high is not None and drifting.high is not None
    assert drifting.high - drifting.low > 10 * (steady.high - steady.low)
    assert section_interval(5.0, [1.0, 2.0]) is None  # two parts say nothing about scatter


def test_the_widest_interval_wins_and_an_unbounded_end_stays_unbounded() -> None:
    narrow = Interval(5.0, 4.9, 5.1, "order statistics")
    wide = Interval(5.0, 2.0, 9.0, "sections")
    open_ended = Interval(5.0, 4.0, None, "order statistics")
    assert widest(narrow, wide) == Interval(5.0, 2.0, 9.0, "sections")
    combined = widest(narrow, open_ended)
    assert combined is not None and combined.high is None
    assert widest(None, None) is None


def test_where_an_interval_lies_against_a_threshold() -> None:
    assert Interval(5.0, 4.0, 6.0, "sections").side_of(10.0) == "below"
    assert Interval(12.0, 10.5, 14.0, "sections").side_of(10.0) == "above"
    assert Interval(9.0, 7.0, 11.0, "sections").side_of(10.0) == "straddles"


def test_the_rank_test_sees_a_shift_and_not_scatter() -> None:
    """Two sets of section p99s drawn from one spread: no shift; a set moved well beyond it: a shift."""
    generator = random.Random(7)
    same_a = [generator.uniform(1.0, 11.0) for _ in range(10)]
    same_b = [generator.uniform(1.0, 11.0) for _ in range(10)]
    test = rank_shift(same_a, same_b)
    assert test is not None and not test.significant
    shifted = rank_shift([1.0 + 0.1 * i for i in range(10)], [3.0 + 0.1 * i for i in range(10)])
    assert shifted is not None and shifted.significant and shifted.higher
    assert rank_shift([1.0, 2.0], [3.0, 4.0, 5.0]) is None


def _histogram(values: list[int]) -> LatencyHistogram:
    histogram = LatencyHistogram()
    histogram.record_many(values)
    return histogram


def test_a_drifting_run_gets_the_wider_sections_interval_and_a_steady_one_the_order_statistics() -> None:
    generator = random.Random(3)
    steady = [_histogram([int(generator.expovariate(1 / 1e6)) for _ in range(1000)]) for _ in range(10)]
    drifting = [_histogram([int(generator.expovariate(1 / (1e6 * (1 + part)))) for _ in range(1000)])
                for part in range(10)]
    whole_steady, whole_drifting = LatencyHistogram(), LatencyHistogram()
    for part in steady:
        whole_steady.merge(part)
    for part in drifting:
        whole_drifting.merge(part)
    quiet = histogram_interval(whole_steady, [steady])
    moving = histogram_interval(whole_drifting, [drifting])
    assert quiet is not None and moving is not None and moving.method == "sections"
    assert quiet.high is not None and quiet.low <= quiet.estimate <= quiet.high
    assert moving.high is not None and moving.high - moving.low > 2 * (quiet.high - quiet.low)


def test_repeats_widen_the_interval_by_their_spread() -> None:
    generator = random.Random(5)
    runs = [[_histogram([int(generator.expovariate(1 / (scale * 1e6))) for _ in range(1000)])
             for _ in range(5)] for scale in (1.0, 3.0, 1.5)]  # the host changed between the runs
    whole = LatencyHistogram()
    for run in runs:
        for part in run:
            whole.merge(part)
    together = histogram_interval(whole, runs)
    alone = histogram_interval(whole, None)
    assert together is not None and alone is not None and together.high is not None and alone.high is not None
    assert together.high - together.low > alone.high - alone.low


def test_what_would_settle_an_inconclusive_verdict() -> None:
    near = Interval(8.0, 6.0, 12.0, "sections")  # 4 ms of reach toward a threshold 2 ms away: 4x the samples
    text = settle_text(near, 10.0, 1000, 20.0, None)
    assert text is not None and text.startswith("a run about 77 s longer (about 96 s per load)")
    busy = settle_text(near, 10.0, 1000, 20.0, "other processes used 85% of the CPUs")
    assert busy is not None
    assert busy.endswith("or run it at a quieter moment (during this one other processes used 85% of the "
                         "CPUs)")
    on_it = settle_text(Interval(9.95, 6.0, 14.0, "sections"), 10.0, 1000, 20.0, None)
    assert on_it is not None and on_it.startswith("the p99 is too close to the threshold for a longer run")
    few = settle_text(Interval(1.0, 0.5, None, "order statistics"), 10.0, 100, 2.0, None)
    assert few is not None and "(about 10 s per load)" in few  # 380 samples bound a p99: 3.8x, +20%
    assert settle_text(Interval(5.0, 4.0, 6.0, "sections"), 10.0, 1000, 20.0, None) is None  # settled
