"""Whether two runs' percentiles differ beyond run-to-run noise: their confidence intervals apart, and a rank
test on the two runs' sections (consecutive parts of each run), so `runs compare` tests two sample sets,
never two numbers."""

from __future__ import annotations

from dataclasses import dataclass

from ..bench.kind import Samples
from ..bench.uncertainty import Interval, ShiftTest, histogram_interval, rank_shift, tail_sections
from ..bench.wal import format_ms, interval_phrase

OLD_RUN = "saved before runs kept their sections"


@dataclass(frozen=True)
class NoiseTest:
    """The two runs' intervals (ms) and the rank test on their sections; `untested` says why there is none."""

    before: Interval | None
    after: Interval | None
    shift: ShiftTest | None
    sections: tuple[int, int]
    untested: str | None = None

    @property
    def apart(self) -> bool:
        """The two intervals do not overlap."""
        first, second = self.before, self.after
        if first is None or second is None:
            return False
        return ((first.high is not None and first.high < second.low)
                or (second.high is not None and second.high < first.low))

    @property
    def beyond_noise(self) -> bool:
        """The change is real: intervals apart, and the sections rank apart (when there are enough)."""
        return self.untested is None and self.apart and (self.shift is None or self.shift.significant)

    def text(self) -> str:
        """"95% interval 0.9 ms to 2.1 ms → 95% interval 6.1 ms to 9.8 ms; rank test on 10+10 sections
        p=0.001", or why the change was not tested."""
        if self.untested is not None:
            return f"not tested against noise: {self.untested}"
        rank = (f"rank test on {self.sections[0]}+{self.sections[1]} sections p={self.shift.p_value:.2g}"
                if self.shift is not None else "too few sections for a rank test")
        return f"{_short(self.before)} → {_short(self.after)}; {rank}"

    def to_json(self) -> dict[str, object]:
        """The `noise` object of a metric in `runs compare --json`."""
        return {"tested": self.untested is None, "untested": self.untested,
                "before": None if self.before is None else self.before.to_json(),
                "after": None if self.after is None else self.after.to_json(),
                "intervals_apart": self.apart,
                "rank_p_value": None if self.shift is None else round(self.shift.p_value, 4),
                "sections": list(self.sections), "beyond_noise": self.beyond_noise}


def _short(interval: Interval | None) -> str:
    return interval_phrase(interval) if interval is not None else "no interval"


def _ms(samples: Samples) -> Interval | None:
    found = histogram_interval(samples.histogram, samples.sections or None, samples.percentile)
    return None if found is None else found.scaled(1e-6)


def _section_values(samples: Samples) -> list[float]:
    return [part.percentile(samples.percentile) or 0.0 for run in samples.sections or []
            for part in tail_sections(run, samples.percentile)]


def noise_test(before: Samples, after: Samples) -> NoiseTest:
    """Test two runs' samples of one percentile."""
    if before.sections is None or after.sections is None:
        which = "both runs were" if before.sections is None and after.sections is None else \
            ("the baseline was" if before.sections is None else "the candidate was")
        return NoiseTest(None, None, None, (0, 0), f"{which} {OLD_RUN}")
    first, second = _section_values(before), _section_values(after)
    return NoiseTest(_ms(before), _ms(after), rank_shift(first, second), (len(first), len(second)))


def change_text(value_before: float | None, value_after: float | None) -> str:
    """"1.39 ms → 11.4 ms" for a flag line."""
    shown = [format_ms(value) if value is not None else "-" for value in (value_before, value_after)]
    return " → ".join(shown)
