"""Percentile math of the log-linear histogram against exact sorted samples."""

from __future__ import annotations

import math

from diskdoctor.probes.latency_histogram import (
    PERCENTILES,
    LatencyHistogram,
    bucket_bounds,
    bucket_of,
    rank_of,
)
from hypothesis import given, settings
from hypothesis import strategies as st

LATENCIES = st.lists(st.integers(min_value=0, max_value=10**11), min_size=1, max_size=400)


def exact(samples: list[int], percent: float) -> int:
    ordered = sorted(samples)
    return ordered[rank_of(percent, len(ordered)) - 1]


def histogram_of(samples: list[int]) -> LatencyHistogram:
    histogram = LatencyHistogram()
    for value in samples:
        histogram.record(value)
    return histogram


@settings(max_examples=300, deadline=None)
@given(LATENCIES)
def test_percentiles_within_one_percent_of_exact(samples: list[int]) -> None:
    histogram = histogram_of(samples)
    for percent in PERCENTILES:
        truth, estimate = exact(samples, percent), histogram.percentile(percent)
        assert estimate is not None
        assert abs(estimate - truth) <= max(truth * 0.01, 0.5), (percent, truth, estimate)


@settings(max_examples=100, deadline=None)
@given(LATENCIES, LATENCIES)
def test_merge_equals_recording_everything(first: list[int], second: list[int]) -> None:
    merged = histogram_of(first)
    merged.merge(LatencyHistogram.from_json(histogram_of(second).to_json()))
    together = histogram_of(first + second)
    assert merged.counts == together.counts and merged.count == together.count
    assert (merged.minimum, merged.maximum) == (min(first + second), max(first + second))
    assert math.isclose(merged.mean() or 0, together.mean() or 0, rel_tol=1e-9)


@settings(max_examples=200, deadline=None)
@given(LATENCIES, st.integers(min_value=1, max_value=50))
def test_batch_recording_equals_recording_one_by_one(samples: list[int], repeat: int) -> None:
    """The engine's loops append raw samples and bucket them per interval: the histogram must not change."""
    batch = LatencyHistogram()
    batch.record_many(samples * repeat)
    batch.record_many([])
    single = histogram_of(samples * repeat)
    assert (batch.counts, batch.count, batch.minimum, batch.maximum) == \
        (single.counts, single.count, single.minimum, single.maximum)
    assert batch.total == single.total
    assert math.isclose(batch.total_squares, single.total_squares, rel_tol=1e-12)
    assert [batch.percentile(p) for p in PERCENTILES] == [single.percentile(p) for p in PERCENTILES]


@given(st.integers(min_value=0, max_value=2**50))
def test_every_value_falls_inside_its_bucket(value: int) -> None:
    low, high = bucket_bounds(bucket_of(value))
    assert low <= value <= high
    assert high - low <= max(low / 128, 0)


def test_mean_stdev_min_max_are_exact() -> None:
    histogram = histogram_of([1000, 2000, 3000, 4000])
    assert histogram.mean() == 2500
    assert math.isclose(histogram.stdev() or 0, math.sqrt(1_250_000))
    assert (histogram.minimum, histogram.maximum) == (1000, 4000)
    assert histogram.percentile(100) == 4000 and histogram.percentile(0.001) == 1000


def test_empty_histogram_has_no_percentiles() -> None:
    assert LatencyHistogram().percentile(99) is None and LatencyHistogram().mean() is None


def test_memory_stays_flat_for_many_samples() -> None:
    histogram = LatencyHistogram()
    for value in range(0, 10**9, 997):
        histogram.record(value)
    assert len(histogram.counts) < 3000 and histogram.count > 1_000_000
