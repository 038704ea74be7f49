"""A log-linear latency histogram: fixed memory, percentiles within 1% of the exact sample."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

SUB_BITS = 7
"""128 linear sub-buckets per power of two: a bucket spans at most 1/128 of its lower bound."""
SUB_COUNT = 1 << SUB_BITS
EXACT_BELOW = SUB_COUNT * 2
"""Values below 256 (ns) get a bucket each."""
PERCENTILES = (1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0, 99.5,
               99.9, 99.95, 99.99)
"""fio's default percentile list."""


def bucket_of(value: int) -> int:
    """The bucket index of a non-negative integer value (nanoseconds)."""
    shift = value.bit_length() - SUB_BITS - 1
    return max(value, 0) if shift <= 0 else (shift << SUB_BITS) + (value >> shift)


def bucket_bounds(index: int) -> tuple[int, int]:
    """The smallest and largest value that fall in bucket `index`."""
    if index < EXACT_BELOW:
        return index, index
    shift = (index - EXACT_BELOW) // SUB_COUNT + 1
    low = (SUB_COUNT + (index - EXACT_BELOW) % SUB_COUNT) << shift
    return low, low + (1 << shift) - 1


def rank_of(percentile: float, count: int) -> int:
    """The 1-based nearest rank of `percentile` among `count` sorted samples (as fio and HdrHistogram)."""
    return min(count, max(1, math.ceil(percentile / 100.0 * count - 1e-9)))


@dataclass
class LatencyHistogram:
    """Counts per log-linear bucket plus exact count, min, max, sum and sum of squares."""

    counts: dict[int, int] = field(default_factory=dict)
    count: int = 0
    minimum: int | None = None
    maximum: int | None = None
    total: float = 0.0
    total_squares: float = 0.0

    def record(self, value: int) -> None:
        """Add one sample (nanoseconds); kept lean, it runs once per write and once per sync."""
        shift = value.bit_length() - SUB_BITS - 1
        index = value if shift <= 0 else (shift << SUB_BITS) + (value >> shift)
        counts = self.counts
        counts[index] = counts.get(index, 0) + 1
        self.count += 1
        self.total += value
        self.total_squares += value * value
        if self.count == 1:
            self.minimum = self.maximum = value
        elif value < self.minimum:  # type: ignore[operator]
            self.minimum = value
        elif value > self.maximum:  # type: ignore[operator]
            self.maximum = value

    def record_many(self, values: Iterable[int]) -> None:
        """Add a batch of samples (nanoseconds): counted at C speed, then bucketed once per distinct value.

        The timed loops only append to a list; this turns the batch into buckets at interval ends, so
        a write costs a list append instead of a Python-level bucket update (same buckets, same accuracy).
        Fast devices repeat the same few thousand nanosecond values, so the Python work stays small where
        the rate is high.
        """
        distinct = Counter(values)
        if not distinct:
            return
        counts, total, squares = self.counts, 0, 0
        for value, number in distinct.items():
            shift = value.bit_length() - SUB_BITS - 1
            index = value if shift <= 0 else (shift << SUB_BITS) + (value >> shift)
            counts[index] = counts.get(index, 0) + number
            total += value * number
            squares += value * value * number
        self.count += sum(distinct.values())
        self.total += total
        self.total_squares += squares  # exact integer sums, then float
        low, high = min(distinct), max(distinct)
        self.minimum = low if self.minimum is None else min(self.minimum, low)
        self.maximum = high if self.maximum is None else max(self.maximum, high)

    def merge(self, other: LatencyHistogram) -> None:
        """Add every sample of `other` to this histogram."""
        for index, number in other.counts.items():
            self.counts[index] = self.counts.get(index, 0) + number
        self.count += other.count
        self.total += other.total
        self.total_squares += other.total_squares
        if other.minimum is not None and (self.minimum is None or other.minimum < self.minimum):
            self.minimum = other.minimum
        if other.maximum is not None and (self.maximum is None or other.maximum > self.maximum):
            self.maximum = other.maximum

    def percentile(self, percentile: float) -> float | None:
        """The value at `percentile` (0-100): the bucket's midpoint, kept within the exact min/max."""
        if not self.count:
            return None
        wanted, seen = rank_of(percentile, self.count), 0
        if wanted == 1 or wanted == self.count:
            return float(self.minimum if wanted == 1 else self.maximum)  # type: ignore[arg-type]
        for index in sorted(self.counts):
            seen += self.counts[index]
            if seen >= wanted:
                low, high = bucket_bounds(index)
                middle = (low + high) / 2
                return float(min(max(middle, self.minimum or 0), self.maximum or middle))
        return float(self.maximum or 0)

    def bounds_at_rank(self, rank: int) -> tuple[float, float]:
        """The lowest and highest value the sample of 1-based `rank` can have (its bucket, kept within the
        exact min/max): what an order-statistic confidence interval needs from a histogram."""
        if not self.count:
            raise ValueError("an empty histogram has no ranks")
        rank = min(max(rank, 1), self.count)
        low_end, high_end = float(self.minimum or 0), float(self.maximum or 0)
        if rank == 1:
            return low_end, low_end
        if rank == self.count:
            return high_end, high_end
        seen = 0
        for index in sorted(self.counts):
            seen += self.counts[index]
            if seen >= rank:
                low, high = bucket_bounds(index)
                return max(float(low), low_end), min(float(high), high_end)
        return high_end, high_end

    def mean(self) -> float | None:
        """The exact arithmetic mean."""
        return self.total / self.count if self.count else None

    def stdev(self) -> float | None:
        """The population standard deviation (as fio reports it)."""
        if not self.count:
            return None
        mean = self.total / self.count
        return math.sqrt(max(self.total_squares / self.count - mean * mean, 0.0))

    def to_json(self) -> dict[str, object]:
        """A compact, JSON-friendly form (sparse buckets) for streaming over a pipe."""
        return {"counts": {str(k): v for k, v in self.counts.items()}, "count": self.count,
                "min": self.minimum, "max": self.maximum, "sum": self.total, "sumsq": self.total_squares}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> LatencyHistogram:
        """Rebuild a histogram streamed with `to_json`."""
        counts = data.get("counts") or {}
        if not isinstance(counts, dict):
            raise TypeError("histogram counts are not an object")
        minimum, maximum = data.get("min"), data.get("max")
        return cls({int(k): int(v) for k, v in counts.items()}, int(data.get("count") or 0),  # type: ignore[call-overload]
                   None if minimum is None else int(minimum),  # type: ignore[call-overload]
                   None if maximum is None else int(maximum),  # type: ignore[call-overload]
                   float(data.get("sum") or 0.0), float(data.get("sumsq") or 0.0))  # type: ignore[arg-type]

    def log_bands(self) -> list[tuple[float, int]]:
        """Sample counts per half-decade band (lower bound in ns, steps of x3.16): a coarse log view."""
        bands: dict[int, int] = {}
        for index, number in self.counts.items():
            low = max(bucket_bounds(index)[0], 1)
            edge = math.floor(math.log10(low) * 2)
            bands[edge] = bands.get(edge, 0) + number
        return [(10 ** (edge / 2), bands[edge]) for edge in sorted(bands)]


SUMMARY_KEYS = (("p50", 50.0), ("p90", 90.0), ("p99", 99.0), ("p99_9", 99.9))


def us_of(value_ns: float | None) -> float | None:
    """A latency in µs as a saved run records it (to the ns): what the screens then show from it too."""
    return None if value_ns is None else round(value_ns / 1000.0, 3)


def summary_us(histogram: LatencyHistogram) -> dict[str, object]:
    """min/p50/p90/p99/p99_9/max/mean/stdev in µs, plus fio's whole percentile list: the results' shape."""
    us = us_of
    summary: dict[str, object] = {"samples": histogram.count, "min": us(histogram.minimum)}
    summary.update({key: us(histogram.percentile(p)) for key, p in SUMMARY_KEYS})
    summary.update({"max": us(histogram.maximum), "mean": us(histogram.mean()),
                    "stdev": us(histogram.stdev())})
    summary["percentiles"] = {f"{p:g}": us(histogram.percentile(p)) for p in PERCENTILES}
    return summary
