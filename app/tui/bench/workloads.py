"""What the Benchmark screen does per workload: the form's meaning, the parameters it makes, the chart's
series and the live figures, so the screen itself stays one flow for all four workloads."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from diskdoctor.app.core.bench.wal import format_ms
from diskdoctor.probes.engine.protocol import Interval
from diskdoctor.probes.engine.workloads.compaction import CompactionParams
from diskdoctor.probes.engine.workloads.interference import DEFAULT_COMPACTION, PHASE_S, InterferenceParams
from diskdoctor.probes.engine.workloads.randwrite import SYNC_CHOICES, RandwriteParams
from diskdoctor.probes.latency_histogram import LatencyHistogram
from diskdoctor.probes.wal_params import PROFILES, SYNC_LABELS, SYNC_METHODS, ParamError, WalParams
from rich.text import Text

CHOICES = [("etcd WAL", "etcd"), ("postgres WAL", "postgres-wal"), ("custom WAL", "custom"),
           ("compaction", "compaction"), ("randwrite 4k", "randwrite"),
           ("WAL under compaction", "interference")]
"""The profile menu: the WAL profiles, then the other workloads."""
COMPACTION_SYNC = "range+fdatasync"
INTERFERENCE_SERIES = [("p99 alone", "p99 alone", "chart--p90"),
                       ("p99 under compaction", "p99 under compaction", "chart--p99")]


def workload_of(choice: str) -> str:
    """The engine workload behind a menu choice."""
    return choice if choice in ("compaction", "randwrite", "interference") else "wal"


@dataclass(frozen=True)
class FormDefaults:
    """What the form shows for a choice: values, the sync menu, and which extra control is in use."""

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


def form_defaults(choice: str) -> FormDefaults:
    """The form for a menu choice (a WAL profile keeps its own figures)."""
    kind = workload_of(choice)
    if kind == "compaction":
        return FormDefaults("1m", "64m", "", (COMPACTION_SYNC,), COMPACTION_SYNC, "jobs", "1", False,
                            {"size": "size of each of the 4 input and output files", "bs": "1 MiB writes",
                             "duration": "seconds: keep compacting (outputs become inputs)"})
    if kind == "randwrite":
        return FormDefaults("4k", "256m", "30", SYNC_CHOICES, "fdatasync", "direct",
                            tooltips={"size": "file size; writes go to random blocks in it",
                                      "bs": "bytes per write", "duration": "seconds"})
    wal = PROFILES.get(choice, PROFILES["etcd"])
    duration = f"{PHASE_S:g}" if kind == "interference" else ""
    return FormDefaults(str(wal.bs), f"{wal.size >> 20}m", duration, SYNC_METHODS, wal.sync,
                        "jobs" if kind == "interference" else "prealloc", "2",
                        tooltips={"size": "total bytes of each WAL run (or the file a timed run rewrites)",
                                  "bs": "bytes per write", "duration": "seconds of each WAL run"})


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


def params_from_form(values: FormValues, wal_params: WalParams | None) -> object:
    """The workload parameters; `wal_params` is the WAL run the WAL fields make (for wal and interference)."""
    kind = workload_of(values.choice)
    if kind == "wal":
        return wal_params
    if kind == "randwrite":
        return RandwriteParams(bs=values.bs or 4096, size=values.size or 256 << 20,
                               duration_s=values.duration_s or 30.0, sync=values.sync, direct=values.direct)
    try:
        jobs = int(values.jobs)
    except ValueError:
        raise ParamError(f"jobs {values.jobs!r} is not a whole number") from None
    if kind == "compaction":
        return CompactionParams(file_size=values.size or 64 << 20, jobs=jobs, duration_s=values.duration_s)
    return InterferenceParams(wal_params or PROFILES["etcd"], replace(DEFAULT_COMPACTION, jobs=jobs))


def judged_stream(kind: str, params: object) -> str:
    """The latency stream the chart and the histogram show."""
    if kind == "compaction":
        return "write"
    if kind == "randwrite":
        return "sync" if getattr(params, "sync", "") != "none" else "write"
    return "sync"


def metric_label(kind: str, params: object) -> str:
    """The call the chart's title names."""
    if kind == "compaction":
        return "1 MiB write"
    if kind == "randwrite":
        return "fdatasync" if getattr(params, "sync", "") != "none" else "4k write"
    wal = params.wal if isinstance(params, InterferenceParams) else params
    return SYNC_LABELS[wal.sync]  # type: ignore[union-attr]


class LiveFigures:
    """The run so far as the screen shows it: whole-run histograms, MB/s, and the interference timeline."""

    def __init__(self, kind: str, params: object) -> None:
        self.kind, self.params = kind, params
        self.stream = judged_stream(kind, params)
        self.total = LatencyHistogram()
        self.totals: dict[str, LatencyHistogram] = {}
        self.bytes_read = self.bytes_written = 0
        self.seconds = 0.0
        self.phase_offset = self.last_t = 0.0
        self.phase = ""
        self.compaction_mb_s = (0.0, 0.0)

    def add(self, interval: Interval) -> tuple[float, dict[str, float | None]] | None:
        """Take one interval; returns (chart time, chart values), or None for the compaction beside."""
        if interval.job == "compaction":
            seconds = interval.seconds or 1e-9
            self.compaction_mb_s = (interval.bytes_read / seconds / 1e6,
                                    interval.bytes_written / seconds / 1e6)
            return None
        if interval.phase != self.phase:  # the interference timeline: the second phase follows the first
            self.phase_offset, self.phase = self.last_t, interval.phase
            if self.kind == "interference":
                self.total = LatencyHistogram()
        for name, histogram in interval.streams.items():
            self.totals.setdefault(name, LatencyHistogram()).merge(histogram)
        histogram = interval.stream(self.stream)
        self.total.merge(histogram)
        self.bytes_read += interval.bytes_read
        self.bytes_written += interval.bytes_written
        self.seconds += interval.seconds
        t = self.phase_offset + interval.t
        self.last_t = t
        ms = {name: (None if v is None else v / 1e6) for name, v in
              (("p50", histogram.percentile(50.0)), ("p90", histogram.percentile(90.0)),
               ("p99", histogram.percentile(99.0)), ("p99.9", histogram.percentile(99.9)))}
        if self.kind == "interference":
            label = "p99 alone" if interval.phase == "alone" else "p99 under compaction"
            return t, {label: ms["p99"]}
        ms["p99 cumulative"] = (self.total.percentile(99.0) or 0) / 1e6 or None
        return t, ms

    def mb_s(self) -> tuple[float, float]:
        """Read and write MB/s of the run so far (compaction's progress line)."""
        seconds = self.seconds or 1e-9
        return self.bytes_read / seconds / 1e6, self.bytes_written / seconds / 1e6

    def throughput_text(self, interval: Interval) -> Text:
        """Read and write MB/s of the last interval and of the run so far (compaction)."""
        seconds, total = interval.seconds or 1e-9, self.seconds or 1e-9
        text = Text(f"{'MB/s':<9} {'last interval':>16} {'whole run':>16}\n", style="bold")
        text.append(f"{'read':<9} {interval.bytes_read / seconds / 1e6:>16,.1f} "
                    f"{self.bytes_read / total / 1e6:>16,.1f}\n")
        text.append(f"{'write':<9} {interval.bytes_written / seconds / 1e6:>16,.1f} "
                    f"{self.bytes_written / total / 1e6:>16,.1f}\n")
        file_sync = self.totals.get("file_sync") or LatencyHistogram()
        text.append(f"file sync (fdatasync per output file): p50 {_ms(file_sync.percentile(50))} · p99 "
                    f"{_ms(file_sync.percentile(99))} · {file_sync.count:,} files")
        return text

    def beside_text(self) -> Text:
        """What the compaction beside the WAL did in its last interval (interference)."""
        if self.phase != "under_compaction":
            return Text("")
        read, write = self.compaction_mb_s
        return Text(f"\ncompaction beside: read {read:,.0f} MB/s · write {write:,.0f} MB/s", style="dim")


def _ms(value_ns: float | None) -> str:
    return "-" if value_ns is None else format_ms(value_ns / 1e6)
