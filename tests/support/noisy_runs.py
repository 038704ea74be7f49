"""Saved WAL runs with the samples a busy host gives: every part of a run stalls by its own amount (other
processes' bursts), so four identical runs land on p99s as far apart as the issue's 5.23, 1.39, 7.42 and
11.4 ms; and runs with a real, steady slowdown. Seeded: the same histograms every time."""

from __future__ import annotations

import datetime as dt
import math
import random

from diskdoctor.app.core.bench.record import BenchRecord
from diskdoctor.app.core.runs.record import SavedRun, new_run_id
from diskdoctor.probes.engine.workloads.wal import WalLevel, WalResult
from diskdoctor.probes.latency_histogram import LatencyHistogram
from diskdoctor.probes.wal_params import PROFILES

from .runs_support import HOST, STACK

RATE = 500.0
KEY = "run/sync@500/s steady"
ISSUE_SEEDS = {5.23: 211, 1.39: 327, 7.42: 383, 11.4: 308}
"""The seeds whose busy runs have the issue's p99s (5.23, 1.40, 7.42 and 11.2 ms)."""


def busy_sections(seed: int, stall_ms: float = 4.0, spread: float = 1.2, steady: bool = False,
                  parts: int = 10, per_part: int = 1000) -> list[LatencyHistogram]:
    """One run's consecutive parts: writes of ~0.3 ms, and in each part a share of them (0.5-3%) stalled by
    that part's own amount (lognormal around `stall_ms`; `steady`: the same in every part)."""
    generator = random.Random(seed)
    sections = []
    for _ in range(parts):
        stall = stall_ms if steady else math.exp(generator.gauss(math.log(stall_ms), spread))
        share = generator.uniform(0.005, 0.03)
        values = [int(stall * generator.uniform(0.5, 1.5) * 1e6) if generator.random() < share
                  else int(generator.lognormvariate(math.log(0.3e6), 0.3)) for _ in range(per_part)]
        section = LatencyHistogram()
        section.record_many(values)
        sections.append(section)
    return sections


def run_of_sections(sections: list[LatencyHistogram], day: int = 20, minute: int = 30) -> SavedRun:
    """A saved `bench wal` run whose one open-loop level (500/s) holds these parts, with its sections."""
    whole = LatencyHistogram()
    for section in sections:
        whole.merge(section)
    level = WalLevel(RATE, "steady", whole.count, whole.count, whole.count / RATE, whole, whole, whole,
                     LatencyHistogram(), scheduled_s=whole.count / RATE)
    result = WalResult.of_levels([level])
    saved_at = dt.datetime(2026, 11, day, 14, minute, tzinfo=dt.timezone.utc)
    record = BenchRecord("wal", PROFILES["etcd"], STACK.target, result, 10.0, sections={KEY: [sections]})
    return SavedRun(new_run_id("wal", saved_at), "wal", saved_at, HOST, STACK, record)


def issue_runs() -> list[SavedRun]:
    """The issue's four identical runs on a busy host, in its order (p99 5.23, 1.40, 7.42, 11.2 ms)."""
    return [run_of_sections(busy_sections(seed), minute=index)
            for index, seed in enumerate(ISSUE_SEEDS.values())]
