"""Named latency streams: timed loops append raw nanoseconds; each interval end turns them into buckets."""

from __future__ import annotations

from collections.abc import Callable

from ..latency_histogram import LatencyHistogram

SECTIONS = 10
"""Consecutive parts a run is cut into to see its drift (sectioning: 10 is the textbook choice)."""


class LatencyStreams:
    """Raw samples per stream name for the current interval, and the whole run's histograms.

    A list append is the only per-operation cost; bucketing runs once per interval in C-speed batches
    (LatencyHistogram.record_many), with exactly the same buckets as recording one by one."""

    def __init__(self, *names: str) -> None:
        self._raw: dict[str, list[int]] = {name: [] for name in names}
        self.totals: dict[str, LatencyHistogram] = {name: LatencyHistogram() for name in names}

    def adder(self, name: str) -> Callable[[int], None]:
        """The bound append of stream `name`, for the timed loop."""
        return self._raw[name].append

    def flush(self) -> dict[str, LatencyHistogram]:
        """This interval's histograms (merged into the totals); the raw lists are emptied in place."""
        interval = {}
        for name, raw in self._raw.items():
            histogram = LatencyHistogram()
            histogram.record_many(raw)
            del raw[:]
            self.totals[name].merge(histogram)
            interval[name] = histogram
        return interval


def split_sections(intervals: list[LatencyHistogram], count: int = SECTIONS) -> list[LatencyHistogram]:
    """Merge consecutive interval histograms into up to `count` parts holding about equal sample counts."""
    total = sum(histogram.count for histogram in intervals)
    if not total:
        return []
    if len(intervals) <= count:
        return list(intervals)
    parts: list[LatencyHistogram] = []
    current, share, done = LatencyHistogram(), total / min(count, len(intervals)), 0
    for position, histogram in enumerate(intervals):
        current.merge(histogram)
        if done + current.count >= share * (len(parts) + 1) - 1e-9 or position == len(intervals) - 1:
            done += current.count
            parts.append(current)
            current = LatencyHistogram()
    return parts
