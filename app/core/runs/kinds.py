"""What each benchmark kind tells the saved-runs code: metrics to compare, curves to chart, a params line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from diskdoctor.probes.latency_histogram import LatencyHistogram

from ..bench.record import BenchRecord


@dataclass(frozen=True)
class Metric:
    """One figure of a run that can be compared with another run's; `judged` ones raise regression flags."""

    key: str
    label: str
    unit: str
    value: float | None
    lower_is_better: bool = True
    judged: bool = False


@dataclass(frozen=True)
class LatencyCurve:
    """A named latency distribution of a run, for percentile charts and histograms."""

    label: str
    histogram: LatencyHistogram


@dataclass(frozen=True)
class RunVerdict:
    """Pass or fail of a run against its threshold, as one line with the threshold's source."""

    passed: bool
    line: str


class RunKind(Protocol):
    """A benchmark kind; its record (params, result) round-trips through BenchRecord.to_json/from_json."""

    name: str
    title: str

    def metrics(self, record: BenchRecord) -> list[Metric]:
        """The figures compared between runs, most important first."""

    def curves(self, record: BenchRecord) -> list[LatencyCurve]:
        """Latency distributions to chart (the judged one first); empty for throughput-only kinds."""

    def params_text(self, record: BenchRecord) -> str:
        """Every parameter of the run as one line."""
