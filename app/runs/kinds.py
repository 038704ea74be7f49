"""What every benchmark kind tells the saved-runs code: how to load its objects, its metrics, its curves."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from diskdoctor.probes.latency_histogram import LatencyHistogram

if TYPE_CHECKING:
    from .record import SavedRun


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
    """Pass or fail of a run against its kind's threshold, as one line with the threshold's source."""

    passed: bool
    line: str


class RunKind(Protocol):
    """A benchmark kind: its params and result types round-trip through their own to_json/from_json."""

    name: str
    title: str

    def decode_params(self, data: dict[str, object]) -> object:
        """The typed params object from its `to_json` form."""

    def decode_result(self, data: dict[str, object]) -> object:
        """The typed result object from its `to_json` form."""

    def metrics(self, run: SavedRun) -> list[Metric]:
        """The figures compared between runs, most important first."""

    def curves(self, run: SavedRun) -> list[LatencyCurve]:
        """Latency distributions to chart (the judged one first)."""

    def params_text(self, run: SavedRun) -> str:
        """Every parameter of the run as one line."""

    def verdict(self, run: SavedRun) -> RunVerdict | None:
        """The run's verdict with the settings it was saved with, or None when the kind has none."""

    def document(self, run: SavedRun) -> dict[str, object]:
        """The result as the kind's own `bench KIND --json` prints it (what advisor rules judge)."""
