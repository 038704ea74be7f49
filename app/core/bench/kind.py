"""What one kind of benchmark is to the app: every per-kind hook (document, verdict, summary, saved-run
metrics, whether the bench rules judge it, its CLI options, its form), gathered in one WorkloadKind."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from diskdoctor.probes.engine.workloads import Workload
from diskdoctor.probes.latency_histogram import LatencyHistogram

from .finished import FinishedRun


@dataclass(frozen=True)
class Samples:
    """The samples behind a percentile metric, so `runs compare` can test two runs' samples, not two numbers:
    the whole histogram (ns), its percentile, and the run's sections (one list per repeat; None: a run saved
    before sections were kept)."""

    histogram: LatencyHistogram
    percentile: float
    sections: list[list[LatencyHistogram]] | None


@dataclass(frozen=True)
class Metric:
    """One figure of a run that can be compared with another run's; `judged` ones raise regression flags."""

    key: str
    label: str
    unit: str
    value: float | None
    lower_is_better: bool = True
    judged: bool = False
    samples: Samples | None = None
    """For a judged latency percentile: its samples (a change is a regression only beyond their noise)."""


@dataclass(frozen=True)
class LatencyCurve:
    """A named latency distribution of a run, for percentile charts and histograms."""

    label: str
    histogram: LatencyHistogram


@dataclass(frozen=True)
class FormDefaults:
    """What the Benchmark screen's form shows for a choice: values, the sync menu, and which extra control
    is in use."""

    bs: str
    size: str
    duration: str
    sync_options: tuple[str, ...]
    sync: str
    extra: str
    """"prealloc" (WAL, interference), "jobs" (compaction) or "direct" (randwrite)."""
    jobs: str = "1"
    bs_enabled: bool = True
    tooltips: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class FormValues:
    """The form's text, as typed, and its switches."""

    choice: str
    bs: int | None
    size: int | None
    duration_s: float | None
    sync: str
    prealloc: bool
    jobs: str
    direct: bool


@dataclass(frozen=True)
class CliOptions:
    """`diskdoctor bench KIND`: its help, its options, and the parameters they make."""

    help: str
    description: str
    add_options: Callable[[argparse.ArgumentParser], None]
    params: Callable[[argparse.Namespace], Any]
    """The workload parameters the options ask for (ParamError for unusable values)."""
    threshold_option: str = "threshold_ms"
    """The option holding the run's threshold (compaction: its minimum write MB/s)."""


@dataclass(frozen=True)
class Form:
    """The kind on the Benchmark screen: its menu entries, the form they fill, and the live chart."""

    menu: tuple[tuple[str, str], ...]
    """(label, choice) entries of the profile menu."""
    defaults: Callable[[str], FormDefaults]
    params: Callable[[FormValues, Any], Any]
    """The parameters from the form's values (and the WAL run the WAL fields make, for wal kinds)."""
    stream: Callable[[Any], str]
    """The latency stream the chart and the histogram show, for these parameters."""
    label: Callable[[Any], str]
    """The call the chart's title names."""
    progress_unit: str = "writes"
    can_lengthen: bool = False
    """Whether `l` (run again, longer) applies: a fixed-size run that can be timed instead."""
    uses_wal_fields: bool = False
    series: tuple[tuple[str, str, str], ...] | None = None
    """The live chart's own series (name, label, style class); None: the percentile lines."""
    throughput: bool = False
    """The live figures are MB/s read and written (the chart still follows the judged call)."""
    shows_write: bool = True
    """The live figures show write()'s latency beside the judged call's."""
    phased: bool = False
    """The run has named phases (alone, then under compaction) that progress lines and charts show."""


def _no_fio(_params: Any, _directory: str) -> Any:
    return None


@dataclass(frozen=True)
class WorkloadKind:
    """One row of the kinds table: the engine workload that runs it and every hook the app calls for it."""

    engine: Workload
    title: str
    """How saved runs name it ("WAL write + sync latency")."""
    document: Callable[[FinishedRun], dict[str, object]]
    """The `bench KIND --json` document."""
    verdict: Callable[[FinishedRun], Any]
    """Pass or fail (None without a threshold); it has `passed`, `line()` and `to_json()`."""
    summary: Callable[[FinishedRun], list[str]]
    metrics: Callable[[FinishedRun], list[Metric]]
    """The saved-run figures compared between runs, most important first."""
    curves: Callable[[FinishedRun], list[LatencyCurve]]
    """Latency distributions to chart (the judged one first); empty for throughput-only kinds."""
    params_text: Callable[[FinishedRun], str]
    fio_from_json: Callable[[Any], Any]
    cli: CliOptions
    form: Form
    details: Callable[[FinishedRun], list[str]] | None = None
    """The summary without its PASS/FAIL line, where the CLI puts the run's findings; None: the summary."""
    rules: tuple[str, ...] = ()
    """The ids of the bench rules that judge its document, in the order the Benchmark screen lists them."""
    headline: str | None = None
    """The finding id that is the run's own verdict (judged kinds)."""
    threshold_unit: str = "ms"
    """"ms" (a latency threshold charts can draw) or "MB/s"."""
    fio: Callable[[Any, str], Any] = _no_fio
    """fio's equivalent job on the same directory (its parameters and the directory)."""
    record_schema: dict[str, Any] | None = None
    """The JSON Schema of its saved record, for a kind docs/schemas/run.schema.json does not list (None:
    any object; the listed kinds keep the file's own)."""
    benchmark: bool = True
    """A benchmark `bench KIND` runs; False for a run recorded another way (`watch`: a traced process)."""

    @property
    def name(self) -> str:
        """The workload's name, as the engine, the CLI and saved runs spell it."""
        return self.engine.name

    @property
    def judged(self) -> bool:
        """Whether the advisor's bench rules judge its runs."""
        return bool(self.rules)
