"""The WAL summary's figures are those of the load its verdict cites, live and in a saved run."""

from __future__ import annotations

import random

from diskdoctor.app.core.bench.wal import result_document, result_verdict
from diskdoctor.probes.engine.workloads.wal import WalLevel, WalResult
from diskdoctor.probes.latency_histogram import LatencyHistogram
from diskdoctor.probes.wal_params import PROFILES
from diskdoctor.probes.wal_target import Target

MS = 1_000_000
TARGET = Target("/var/lib/etcd", "/var/lib/etcd", "ext4", "vda", ("vda",))


def _histogram(values_ms: list[float]) -> LatencyHistogram:
    histogram = LatencyHistogram()
    for value in values_ms:
        histogram.record(int(value * MS))
    return histogram


def _level(rate: float, values_ms: list[float], seconds: float) -> WalLevel:
    latency = _histogram(values_ms)
    return WalLevel(rate, "steady", len(values_ms), len(values_ms), seconds, latency, latency, latency,
                    _histogram([0.01] * len(values_ms)), scheduled_s=seconds)


def test_the_summary_counts_and_percentiles_are_the_failing_loads_not_the_worst_unsettled_one() -> None:
    """50/s: 400 writes whose p99 (20 ms) rests on 6 samples (unsettled); 500/s: 10,000 writes, one in
    twenty at 18 ms (a p99 that surely fails). The verdict cites 500/s, and so must every figure beside it."""
    draw = random.Random(7)
    slow = [1.0] * 394 + [20.0] * 6
    fails = [draw.uniform(0.5, 1.5) for _ in range(9_500)] + [18.0] * 500
    levels = [_level(50.0, slow, 8.0), _level(500.0, fails, 20.0)]
    result = WalResult.of_levels(levels)
    assert result.headline is levels[0]  # the engine's pick: the worst p99
    params = PROFILES["etcd"]
    verdict = result_verdict(params, result, 10.0, sections={})
    assert verdict.result == "fail" and "500/s" in verdict.metric
    document = result_document(params, TARGET, result, 10.0, sections={})
    assert document["samples"] == 10_000 and document["load"]["rate"] == 500.0  # type: ignore[index]
    assert document["sync_latency_us"]["p99"] == levels[1].latency.percentile(99.0) / 1000  # type: ignore[index]
    saved = WalResult.from_json(document)  # a saved run opens with the same headline
    assert saved.headline is not None and saved.headline.rate == 500.0 and saved.samples == 10_000
