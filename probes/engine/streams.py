"""Named latency streams: timed loops append raw nanoseconds; each interval end turns them into buckets."""

from __future__ import annotations

from collections.abc import Callable

from ..latency_histogram import LatencyHistogram


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
