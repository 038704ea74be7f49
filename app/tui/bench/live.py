"""The live half of the Benchmark screen: each streamed interval drawn on the chart, histogram, progress,
figures and layer table, and the counts a cancelled or failed run reports."""

from __future__ import annotations

from typing import Any

from diskdoctor.app.core.bench.kinds import kind_of
from diskdoctor.app.core.bench.wal import figure_label
from diskdoctor.probes.engine.protocol import Interval
from diskdoctor.probes.engine.workloads.compaction import CompactionResult
from diskdoctor.probes.engine.workloads.wal import WalLevel, WalResult
from diskdoctor.probes.latency_histogram import LatencyHistogram
from diskdoctor.probes.wal_params import PROFILES, WalParams, load_text
from diskdoctor.widgets import LatencyBars, LayerTimeTable, PercentileChart
from rich.text import Text
from textual.screen import Screen
from textual.widgets import Static

from . import view, workloads
from .phases import PhaseTraces, level_text

HISTOGRAM_TITLE = "latency histogram (whole run)"
LOAD_HISTOGRAM_TITLE = "latency histogram (this load)"
"""While a WAL run goes, the histogram counts the running load's writes only (newuser14 #10)."""
WHOLE_LOAD = "whole load"
"""A WAL load's cumulative figures: the chart's legend and the figures table name them alike."""


class LivePanel:
    """What the running workload has done so far, drawn into `screen`'s chart and figure panes."""

    def __init__(self, screen: Screen[Any]) -> None:
        self.screen = screen
        self.kind, self.params = "wal", PROFILES["etcd"]
        self.figures = workloads.LiveFigures("wal", self.params)
        self.total_sync = LatencyHistogram()
        self.total_write = LatencyHistogram()
        self.last_t = 0.0
        self.last_ops = 0
        self.last_progress = 0.0
        self.phases = PhaseTraces()
        """Each load's chart and figures (a WAL run), to show the judged one after the run."""
        self.result: WalResult | None = None
        self.layered = True
        """Whether a block layer is under the run's directory (tmpfs has none: no layer times)."""

    def reset(self, kind: str, params: object) -> None:
        """A new run: empty chart, histogram, layers and figures."""
        self.kind, self.params = kind, params
        self.figures = workloads.LiveFigures(kind, params)
        self.total_sync, self.total_write = LatencyHistogram(), LatencyHistogram()
        self.last_t, self.last_ops, self.last_progress = 0.0, 0, 0.0
        self.phases, self.result = PhaseTraces(), None
        self.layered = True
        query = self.screen.query_one
        chart = query(PercentileChart)
        series = kind_of(kind).form.series
        chart.set_series(list(series) if series else None)
        chart.finish(False)
        chart.clear_history(workloads.metric_label(kind, params), self._whole_title())
        query(LatencyBars).show_bands(HISTOGRAM_TITLE, [])
        query("#bench-layers-title", Static).update(view.LAYERS_LIVE_TITLE)
        query(LayerTimeTable).show_layers([])
        query(LayerTimeTable).display = True
        query("#bench-layers-title").remove_class("-alone")
        query("#bench-stats", Static).update("")
        query("#bench-progress-text").remove_class("-finished")
        query("#bench-progress-text", Static).update(view.progress_text(
            0.0, 0.0, 0, 0.0, mb_s=(0.0, 0.0) if kind_of(kind).form.throughput else None))

    def started(self, params: object, layered: bool = True) -> None:
        """The child started with `params` (they name the chart's metric); with no block layer under the
        directory (tmpfs) the layer times say so at once instead of an empty table's headings."""
        self.params = params
        self.layered = layered
        query = self.screen.query_one
        title = view.LAYERS_LIVE_TITLE if layered else view.NO_LAYERS_TITLE
        query("#bench-layers-title", Static).update(title)
        query(LayerTimeTable).display = layered
        query("#bench-layers-title").set_class(not layered, "-alone")  # its own blank row under it

    def show(self, snapshot: Interval) -> None:
        """Draw one interval (the compaction beside the WAL only feeds the figures' MB/s line)."""
        point = self.figures.add(snapshot)
        if point is None:
            return
        if snapshot.t < self.last_t:  # a new phase (interference) starts its own clock and histogram
            self.last_t, self.last_ops = 0.0, 0
            self.total_sync, self.total_write = LatencyHistogram(), LatencyHistogram()
        self.total_sync.merge(snapshot.stream(self.figures.stream))
        self.total_write.merge(snapshot.stream("write"))
        seconds = max(snapshot.t - self.last_t, 1e-9)
        ops_per_s = (snapshot.ops - self.last_ops) / seconds
        self.last_t, self.last_ops, self.last_progress = snapshot.t, snapshot.ops, snapshot.progress
        metric = workloads.metric_label(self.kind, self.params)
        mb_s = None
        form = kind_of(self.kind).form
        if form.throughput:
            stats = self.figures.throughput_text(snapshot)
            mb_s = self.figures.mb_s()
        else:
            load = self.figures.load  # a WAL load's own latency, named as its chart and the verdict name it
            named = figure_label(metric, load.get("rate")) if load and not self.figures.phased else metric
            stats = view.stats_text(snapshot.stream(self.figures.stream), self.figures.total, named,
                                    self.total_write if form.shows_write else None, self._whole_title())
            stats.append(self.figures.beside_text())
        query = self.screen.query_one
        load = self.figures.load
        if load and not self.figures.phased:
            self.phases.add(load, workloads.load_label(metric, load), point, stats)
        with self.screen.app.batch_update():
            if self.figures.load_changed:  # the next load of a WAL run: its own chart and figures
                query(PercentileChart).clear_history(workloads.load_label(metric, load), WHOLE_LOAD)
            query(PercentileChart).push(*point)
            query(LatencyBars).show_bands(self._histogram_title(), view.log_bands(self.total_sync))
            # Fixed-height panes: redraw them without a layout pass, so each interval costs the UI little.
            query("#bench-progress-text", Static).update(
                view.progress_text(snapshot.progress, snapshot.t, snapshot.ops, ops_per_s, mb_s=mb_s,
                                   load=load_text(load.get("rate"), str(load["arrival"])) if load else None,
                                   loads=self._loads() if load and not self.figures.phased else None),
                layout=False)
            query("#bench-stats", Static).update(stats, layout=False)
            if self.layered:
                query(LayerTimeTable).show_layers(view.layer_rows(snapshot.layers))

    def _loads(self) -> tuple[int, int] | None:
        """(the load running, of how many) in a WAL run: its seconds and writes are the load's, its progress
        the run's."""
        params = self.params
        if not isinstance(params, WalParams) or not self.phases.traces:
            return None
        return len(self.phases.traces), len(params.rates) + int(params.capacity)

    def _histogram_title(self) -> str:
        """The running histogram named by what it counts: this load's writes, a phase's, or the run's."""
        if self.figures.load and not self.figures.phased:
            return LOAD_HISTOGRAM_TITLE
        return "latency histogram (whole phase)" if self.figures.phased else HISTOGRAM_TITLE

    def _whole_title(self) -> str:
        """What the cumulative figures cover, one name in the table and the chart's legend: a WAL run's
        load, an interference phase, or the whole run."""
        if self.figures.load and not self.figures.phased:
            return WHOLE_LOAD
        return "whole phase" if self.figures.phased else "whole run"

    def _level_stats(self, level: WalLevel) -> Text:
        """A finished load's figures table over the whole load: the histogram its chart drew (from when
        each write was due; the closed loop: each write and its sync), named as the chart names it."""
        metric = workloads.metric_label(self.kind, self.params)
        writes = self.total_write if kind_of(self.kind).form.shows_write else None
        return view.stats_text(None, level.latency, figure_label(metric, level.rate), writes, WHOLE_LOAD)

    def show_whole_run(self, result: object) -> None:
        """The end of a run: its progress in one line without the bar (a WAL run's verdict says its writes
        and time instead), its whole-run figures and layer times, and a WAL run's whole histogram."""
        query = self.screen.query_one
        query(PercentileChart).finish()  # the legend keeps the whole phase's figure, not the last interval's
        layers = getattr(result, "layers", None)  # interference keeps them per phase: its last interval stays
        if layers is not None:
            rows = view.layer_rows(layers)
            title = view.LAYERS_RUN_TITLE if rows else view.NO_LAYERS_TITLE
            query("#bench-layers-title", Static).update(title)
            query(LayerTimeTable).show_layers(rows)
            query(LayerTimeTable).display = bool(rows)
            query("#bench-layers-title").set_class(not rows, "-alone")  # its own blank row under it
        query("#bench-progress-text").add_class("-finished")  # one line: no bar over the verdict
        query("#bench-stats", Static).update(self._finished_stats(result), layout=False)
        if isinstance(result, CompactionResult):  # MB/s over the run's wall time, as its summary says
            query("#bench-progress-text", Static).update(view.progress_text(
                1.0, result.duration_s, self.last_ops, 0.0, finished=True,
                mb_s=(result.read_mb_s, result.write_mb_s)))
            return
        if not isinstance(result, WalResult):  # interference: the WAL beside the store, its own rate
            under = getattr(result, "under_compaction", None)
            ops, rate = (under.samples, under.ops_per_s or 0.0) if isinstance(under, WalResult) else \
                (self.last_ops, self.last_ops / self.figures.last_t if self.figures.last_t else 0.0)
            query("#bench-progress-text", Static).update(view.progress_text(
                1.0, self.figures.last_t, ops, rate, finished=True))
            return
        self.total_sync = result.sync
        query(LatencyBars).show_bands(HISTOGRAM_TITLE, view.log_bands(self.total_sync))
        query("#bench-progress-text").display = False  # the verdict says the judged load's writes and time
        self.result = result  # the screen's verdict then says which load is judged (judge)

    def _finished_stats(self, result: object) -> Text:
        """The figures table once the run has ended: the whole run's (or, for interference, the last
        phase's) column alone, the last interval's gone (it read as the judged figure)."""
        form = kind_of(self.kind).form
        if form.throughput:
            return self.figures.throughput_text(None)
        metric = workloads.metric_label(self.kind, self.params)
        total, title = self.figures.total, self._whole_title()
        if isinstance(result, WalResult):  # the judged figures themselves (judge shows the judged load's)
            if result.levels:
                return self._level_stats(result.levels[-1])  # the load drawn last
            total = result.sync
        return view.stats_text(None, total, metric, self.total_write if form.shows_write else None, title)

    def judge(self, level: WalLevel | None) -> None:
        """The verdict judged `level`: the chart, figures, histogram and layer times show it."""
        judged = self.phases.judge(level)
        if judged is not None and self.result is not None:
            self.show_phase(judged)

    @property
    def can_step(self) -> bool:
        """Whether a finished WAL run has other loads to show."""
        return self.result is not None and len(self.phases.traces) > 1

    def step_phase(self) -> None:
        """Show the next load of the finished run."""
        if self.can_step:
            self.phases.step()
            self.show_phase(self.phases.shown)

    def show_phase(self, index: int) -> None:
        """Draw the load at `index` of the finished run: its chart, figures, histogram and layer times."""
        trace, result = self.phases.traces[index], self.result
        query = self.screen.query_one
        chart = query(PercentileChart)
        chart.clear_history(self.phases.title(index), WHOLE_LOAD)
        for t, values in trace.points:
            chart.push(t, values)
        level = self.phases.level(result, index) if result is not None else None
        p99 = level.latency.percentile(99.0) if level is not None else None
        chart.finish(True, p99 / 1e6 if p99 is not None else None)  # the verdict's figure for this load
        if level is None:
            if trace.stats is not None:
                query("#bench-stats", Static).update(trace.stats, layout=False)
            return
        query("#bench-stats", Static).update(self._level_stats(level), layout=False)
        title = f"latency histogram (at {level_text(level)})"
        query(LatencyBars).show_bands(title, view.log_bands(level.latency))
        rows = view.layer_rows(level.layers)
        if rows:
            query("#bench-layers-title", Static).update(view.layers_title(level_text(level)))
            query(LayerTimeTable).show_layers(rows)
