"""How sure a latency percentile is: distribution-free intervals from the samples a run holds, so a
verdict can say PASS or FAIL only when the whole interval is on one side of the threshold."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist, stdev

from diskdoctor.probes.host_text import visible
from diskdoctor.probes.latency_histogram import LatencyHistogram

CONFIDENCE = 0.95
"""The confidence level of every interval the tool states."""
EXACT_BINOMIAL_BELOW = 20_000
"""Up to this many samples the order-statistic ranks come from the exact binomial, above from its
normal approximation (both within a rank of each other there)."""
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042)
"""Student's t, two-sided 95%, for 1-30 degrees of freedom (any statistics table)."""

ValueAtRank = Callable[[int], "tuple[float, float]"]
"""(lowest, highest) value the sample of 1-based rank k can have (a histogram knows a bucket, not a value)."""


@dataclass(frozen=True)
class Interval:
    """A confidence interval for one percentile; `high` None means the samples cannot bound it above."""

    estimate: float
    low: float
    high: float | None
    method: str
    """"order statistics" (sampling noise), "sections" (also the drift between parts of the run) or
    "between runs" (the spread of repeated runs)."""

    def side_of(self, threshold: float) -> str:
        """"below", "above" or "straddles": where the whole interval lies against `threshold`."""
        if self.high is not None and self.high < threshold:
            return "below"
        if self.low >= threshold:
            return "above"
        return "straddles"

    def scaled(self, factor: float) -> Interval:
        """The same interval in another unit (ns * 1e-6: ms)."""
        return Interval(self.estimate * factor, self.low * factor,
                        None if self.high is None else self.high * factor, self.method)

    def to_json(self) -> dict[str, object]:
        """The interval as results and saved runs carry it (same unit as the estimate)."""
        return {"low": _rounded(self.low), "high": _rounded(self.high), "confidence": CONFIDENCE,
                "method": self.method}


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def _binomial_ranks(count: int, fraction: float, confidence: float) -> tuple[int, int | None]:
    """1-based ranks (l, u) with P(X_(l) <= q < X_(u)) >= confidence for the `fraction` quantile q."""
    alpha = (1.0 - confidence) / 2.0
    if count <= EXACT_BINOMIAL_BELOW:
        return _exact_ranks(count, fraction, alpha)
    spread = NormalDist().inv_cdf(1.0 - alpha) * math.sqrt(count * fraction * (1.0 - fraction))
    low = math.floor(count * fraction - spread)
    high = math.ceil(count * fraction + spread) + 1
    return max(low, 1), (high if high <= count else None)


def _exact_ranks(count: int, fraction: float, alpha: float) -> tuple[int, int | None]:
    """The ranks from the exact binomial CDF, walked once in log space (no overflow at any count)."""
    log_p, log_q = math.log(fraction), math.log1p(-fraction)
    cumulative, low, high = 0.0, 1, None
    log_choose = 0.0
    for k in range(count + 1):
        if k:
            log_choose += math.log(count - k + 1) - math.log(k)
        cumulative += math.exp(log_choose + k * log_p + (count - k) * log_q)
        if cumulative <= alpha:
            low = k + 1  # P(X <= k) <= alpha: the (k+1)-th sample is still below q often enough
        if cumulative >= 1.0 - alpha:
            high = k + 1
            break
    return max(low, 1), (high if high is not None and high <= count else None)


def order_statistic_interval(count: int, percentile: float, estimate: float, value_at_rank: ValueAtRank,
                             confidence: float = CONFIDENCE) -> Interval | None:
    """The distribution-free interval for a percentile from `count` independent samples, or None when
    there are none; its high end is None when too few samples lie above the percentile to bound it."""
    if count <= 0:
        return None
    low_rank, high_rank = _binomial_ranks(count, percentile / 100.0, confidence)
    low = min(value_at_rank(low_rank)[0], estimate)
    high = None if high_rank is None else max(value_at_rank(high_rank)[1], estimate)
    return Interval(estimate, low, high, "order statistics")


def section_interval(estimate: float, section_values: Sequence[float],
                     confidence: float = CONFIDENCE) -> Interval | None:
    """The sectioning interval (Asmussen & Glynn): the run's estimate ± t·s/√k over the percentile of
    each of its k consecutive parts, which also catches a host whose load drifted during the run."""
    if confidence != CONFIDENCE:
        raise ValueError("section intervals are tabled at 95% only")
    values = [value for value in section_values if math.isfinite(value)]
    if len(values) < 3:
        return None
    t_value = _T95[min(len(values) - 1, len(_T95)) - 1] if len(values) - 1 <= len(_T95) else 1.96
    half = t_value * stdev(values) / math.sqrt(len(values))
    # a whole run's percentile is never under the lowest of its sections' (a mixture's quantile lies
    # between its parts'): the symmetric interval of a skewed spread stops there, not at zero
    return Interval(estimate, max(estimate - half, min(values), 0.0), estimate + half, "sections")


def widest(*intervals: Interval | None) -> Interval | None:
    """The hull of the given intervals (an unbounded high end stays unbounded), named after the widest."""
    present = [interval for interval in intervals if interval is not None]
    if not present:
        return None
    unbounded = any(interval.high is None for interval in present)
    high = None if unbounded else max(interval.high for interval in present)  # type: ignore[type-var]
    widest_one = max(present, key=lambda i: math.inf if i.high is None else i.high - i.low)
    return Interval(present[0].estimate, min(interval.low for interval in present), high, widest_one.method)


@dataclass(frozen=True)
class ShiftTest:
    """Whether one set of section figures is higher than another beyond their scatter."""

    p_value: float
    higher: bool
    """Whether the candidate's figures rank above the baseline's."""

    @property
    def significant(self) -> bool:
        """At the tool's confidence level (two-sided)."""
        return self.p_value < 1.0 - CONFIDENCE


def rank_shift(baseline: Sequence[float], candidate: Sequence[float]) -> ShiftTest | None:
    """Mann-Whitney U test (normal approximation with tie correction) between two sample sets, e.g. the
    per-section p99s of two runs; None when either has fewer than 3 values."""
    first = [value for value in baseline if math.isfinite(value)]
    second = [value for value in candidate if math.isfinite(value)]
    n1, n2 = len(first), len(second)
    if n1 < 3 or n2 < 3:
        return None
    ranked = sorted([(value, 0) for value in first] + [(value, 1) for value in second])
    ranks = [0.0] * len(ranked)
    ties = 0.0
    start = 0
    while start < len(ranked):
        end = start
        while end + 1 < len(ranked) and ranked[end + 1][0] == ranked[start][0]:
            end += 1
        for index in range(start, end + 1):
            ranks[index] = (start + end) / 2.0 + 1.0
        size = end - start + 1
        ties += size ** 3 - size
        start = end + 1
    rank_sum = sum(rank for rank, (_, group) in zip(ranks, ranked, strict=False) if group == 1)
    u_value = rank_sum - n2 * (n2 + 1) / 2.0
    mean = n1 * n2 / 2.0
    total = n1 + n2
    variance = n1 * n2 / 12.0 * ((total + 1) - ties / (total * (total - 1)))
    if variance <= 0:
        return ShiftTest(1.0, False)
    z_value = (u_value - mean) / math.sqrt(variance)
    p_value = 2.0 * (1.0 - NormalDist().cdf(abs(z_value)))
    return ShiftTest(min(p_value, 1.0), u_value > mean)


PASS, FAIL, INCONCLUSIVE = "pass", "fail", "inconclusive"
"""A verdict's outcome: the whole interval under the threshold, at or over it, or across it."""
TAIL_SAMPLES = 2
"""A section must hold this many samples above the percentile (200 for a p99) to have a p99 of its own."""
SETTLE_MARGIN = 1.2
"""A longer run is suggested with this margin over the length the interval's width says (an estimate)."""
MAX_SETTLE_FACTOR = 20.0
"""Beyond this many times the run's length a longer run is no answer: the percentile sits on the threshold."""


def outcome_of(value: float, threshold: float, interval: Interval | None) -> str:
    """PASS, FAIL or INCONCLUSIVE of a latency against a threshold; without an interval (a run saved before
    intervals existed) the figure alone decides, as it did then."""
    if interval is None:
        return PASS if value < threshold else FAIL
    return {"below": PASS, "above": FAIL}.get(interval.side_of(threshold), INCONCLUSIVE)


def tail_sections(sections: Sequence[LatencyHistogram], percentile: float) -> list[LatencyHistogram]:
    """Consecutive sections merged until each holds enough samples to have its own `percentile`."""
    need = math.ceil(TAIL_SAMPLES / (1.0 - percentile / 100.0))
    parts: list[LatencyHistogram] = []
    current = LatencyHistogram()
    for section in sections:
        current.merge(section)
        if current.count >= need:
            parts.append(current)
            current = LatencyHistogram()
    if current.count and parts:
        parts[-1].merge(current)
    elif current.count:
        parts.append(current)
    return parts


def histogram_interval(total: LatencyHistogram, runs: Sequence[Sequence[LatencyHistogram]] | None,
                       percentile: float = 99.0) -> Interval | None:
    """The interval of `total`'s percentile: the order-statistic one from its samples, and (when the run's
    sections are known) the sectioning one over every run's sections and, from 3 repeats on, the one over
    the repeats' own figures; the widest of them, named after the one that set it. None without samples."""
    estimate = total.percentile(percentile)
    if estimate is None:
        return None
    found = [order_statistic_interval(total.count, percentile, estimate, total.bounds_at_rank)]
    if runs:
        pooled = [part for run in runs for part in tail_sections(run, percentile)]
        found.append(section_interval(estimate, [part.percentile(percentile) or 0.0 for part in pooled]))
        if len(runs) >= 3:
            totals = [_merged(run) for run in runs]
            between = section_interval(estimate, [t.percentile(percentile) or 0.0 for t in totals if t.count])
            found.append(None if between is None else Interval(between.estimate, between.low, between.high,
                                                               "between runs"))
    return widest(*found)


def _merged(sections: Sequence[LatencyHistogram]) -> LatencyHistogram:
    merged = LatencyHistogram()
    for section in sections:
        merged.merge(section)
    return merged


def samples_to_bound(percentile: float, confidence: float = CONFIDENCE) -> int:
    """The fewest independent samples whose order statistics bound `percentile` from above."""
    count = 16
    while _binomial_ranks(count, percentile / 100.0, confidence)[1] is None:
        count = math.ceil(count * 1.25)
    return count


def settle_factor(interval: Interval, threshold: float, samples: int,
                  percentile: float = 99.0) -> float | None:
    """How many times longer the run must be for its interval to clear the threshold (the width shrinks as
    one over the square root of the samples), None when no reasonable length would (the figure is on the
    threshold); only for an interval that straddles it."""
    estimate = interval.estimate
    gap = abs(threshold - estimate)
    if interval.high is None and estimate < threshold:
        factor = samples_to_bound(percentile) / max(samples, 1)
        reach = None
    else:
        reach = (interval.high - estimate) if estimate < threshold else (estimate - interval.low)  # type: ignore[operator]
        factor = (reach / gap) ** 2 if gap > 0 else math.inf
    factor *= SETTLE_MARGIN
    if reach is not None and reach <= 0:
        return None
    return factor if factor <= MAX_SETTLE_FACTOR else None


SETTLE_SECONDS = re.compile(r"about ([\d,]+) s per load\) would settle it")
"""How `settle_text` names the run length that would settle a verdict (read back for the fix command)."""


def settle_seconds(settle: str | None) -> float | None:
    """The seconds per load `settle_text` said would settle a verdict, None when it named none."""
    found = SETTLE_SECONDS.search(settle or "")
    return float(found[1].replace(",", "")) if found else None


def settle_text(interval: Interval | None, threshold: float, samples: int, duration_s: float | None,
                busy: str | None, percentile: float = 99.0) -> str | None:
    """What would settle an INCONCLUSIVE verdict: a run N s longer (from the interval's width), a quieter
    moment when other processes kept the host busy; None when the verdict is settled."""
    if interval is None or interval.side_of(threshold) != "straddles":
        return None
    factor = settle_factor(interval, threshold, samples, percentile)
    if factor is None:
        longer = ("the p99 is too close to the threshold for a longer run to settle it (it would take more "
                  f"than {MAX_SETTLE_FACTOR:g} times this run's length)")
    elif duration_s:
        longer = (f"a run about {math.ceil(duration_s * (factor - 1) + 0.5):,} s longer "
                  f"(about {math.ceil(duration_s * factor):,} s per load) would settle it")
    else:
        longer = f"a run about {factor:.1f} times as long would settle it"
    if busy:  # it names other processes: host strings, shown only made visible
        longer += f"; or run it at a quieter moment (during this one {visible(busy)})"
    return longer
