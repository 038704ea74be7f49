"""What the Benchmark screen does per workload: the form's meaning, the parameters it makes, the chart's
series and the live figures, so the screen itself stays one flow for all four workloads."""

from __future__ import annotations

from diskdoctor.app.core.bench.kind import FormDefaults, FormValues
from diskdoctor.app.core.bench.kinds import KINDS, kind_of
from diskdoctor.app.core.bench.wal import figure_label, format_ms, short_load
from diskdoctor.probes.engine.protocol import Interval
from diskdoctor.probes.latency_histogram import LatencyHistogram
from diskdoctor.probes.wal_params import WalParams
from rich.text import Text


def choices() -> list[tuple[str, str]]:
    """The profile menu: every kind's entries, in the kinds table's order (the WAL profiles first)."""
    return [entry for kind in KINDS.values() for entry in kind.form.menu]


def workload_of(choice: str) -> str:
    """The engine workload behind a menu choice (a WAL profile's, for a choice no kind lists)."""
    return next((kind.name for kind in KINDS.values() if choice in (value for _, value in kind.form.menu)),
                "wal")


def form_defaults(choice: str) -> FormDefaults:
    """The form for a menu choice (a WAL profile keeps its own figures)."""
    return kind_of(workload_of(choice)).form.defaults(choice)


def params_from_form(values: FormValues, wal_params: WalParams | None) -> object:
    """The workload parameters; `wal_params` is the WAL run the WAL fields make (for wal and interference)."""
    return kind_of(workload_of(values.choice)).form.params(values, wal_params)


def judged_stream(kind: str, params: object) -> str:
    """The latency stream the chart and the histogram show."""
    return kind_of(kind).form.stream(params)


def metric_label(kind: str, params: object) -> str:
    """The call the chart's title names."""
    return kind_of(kind).form.label(params)


class LiveFigures:
    """The run so far as the screen shows it: whole-run histograms, MB/s, and the interference timeline."""

    def __init__(self, kind: str, params: object) -> None:
        self.kind, self.params = kind, params
        self.stream = judged_stream(kind, params)
        self.phased = kind_of(kind).form.phased
        self.total = LatencyHistogram()
        self.totals: dict[str, LatencyHistogram] = {}
        self.bytes_read = self.bytes_written = 0
        self.seconds = 0.0
        self.phase_offset = self.last_t = 0.0
        self.phase = ""
        self.compaction_mb_s = (0.0, 0.0)
        self.load: dict[str, object] = {}
        """The load of the intervals taken last (a WAL run's rate and arrivals; empty for other kinds)."""
        self.load_changed = False
        """Whether the last interval started a new load (its figures start afresh)."""

    def add(self, interval: Interval) -> tuple[float, dict[str, float | None]] | None:
        """Take one interval; returns (chart time, chart values), or None for the compaction beside."""
        if interval.job == "compaction":
            seconds = interval.seconds or 1e-9
            self.compaction_mb_s = (interval.bytes_read / seconds / 1e6,
                                    interval.bytes_written / seconds / 1e6)
            return None
        self.load_changed = bool(interval.load) and interval.load != self.load
        if self.load_changed:  # a WAL run's next load: its own whole-load percentiles
            self.load = dict(interval.load)
            self.total = LatencyHistogram()
        if interval.phase != self.phase:  # the interference timeline: the second phase follows the first
            self.phase_offset, self.phase = self.last_t, interval.phase
            if self.phased:
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
        if self.phased:
            label = "p99 alone" if interval.phase == "alone" else "p99 under compaction"
            return t, {label: ms["p99"]}
        ms["p99 cumulative"] = (self.total.percentile(99.0) or 0) / 1e6 or None
        return t, ms

    def mb_s(self) -> tuple[float, float]:
        """Read and write MB/s of the run so far (compaction's progress line)."""
        seconds = self.seconds or 1e-9
        return self.bytes_read / seconds / 1e6, self.bytes_written / seconds / 1e6

    def throughput_text(self, interval: Interval | None) -> Text:
        """Read and write MB/s of the last interval and of the run so far (compaction); without `interval`
        (the run has finished) the whole run's alone."""
        total = self.seconds or 1e-9
        columns = [("whole run", self.bytes_read / total, self.bytes_written / total)]
        if interval is not None:
            last = interval.seconds or 1e-9
            columns.insert(0, ("last interval", interval.bytes_read / last, interval.bytes_written / last))
        text = Text(f"{'MB/s':<9}" + "".join(f" {title:>16}" for title, _, _ in columns) + "\n", style="bold")
        text.append(f"{'read':<9}" + "".join(f" {read / 1e6:>16,.1f}" for _, read, _ in columns) + "\n")
        text.append(f"{'write':<9}" + "".join(f" {write / 1e6:>16,.1f}" for _, _, write in columns) + "\n")
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


def load_label(metric: str, load: dict[str, object]) -> str:
    """The chart's figure at a load, named as everywhere else: "fdatasync from due at 500/s steady", or
    "write+fdatasync in the closed loop (capacity)"."""
    rate, arrival = load.get("rate"), str(load.get("arrival") or "steady")
    if not isinstance(rate, (int, float)):
        return f"{figure_label(metric, None)} in the closed loop (capacity)"
    return f"{figure_label(metric, rate)} at {short_load(float(rate), arrival)}"
