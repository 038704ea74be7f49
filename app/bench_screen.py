"""The Benchmark screen: pick a filesystem and profile, watch the engine child's live figures, judge them."""

from __future__ import annotations

import contextlib
import subprocess
import time
from dataclasses import dataclass, replace
from typing import Any

from diskdoctor.probes.engine.protocol import Failed, Finished, Interval, PhaseChanged
from diskdoctor.probes.engine.runner import EngineRun
from diskdoctor.probes.engine.runtime import EngineConfig
from diskdoctor.probes.engine.workloads.compaction import CompactionParams
from diskdoctor.probes.engine.workloads.interference import InterferenceParams
from diskdoctor.probes.engine.workloads.randwrite import RandwriteParams
from diskdoctor.probes.engine.workloads.wal import WalResult
from diskdoctor.probes.fio_json import FioSyncStats
from diskdoctor.probes.fio_run import fio_available, run_fio
from diskdoctor.probes.latency_histogram import LatencyHistogram
from diskdoctor.probes.root import Root
from diskdoctor.probes.wal_params import (
    PROFILES,
    SYNC_METHODS,
    ParamError,
    WalParams,
    parse_duration,
    parse_size,
    profile_params,
)
from diskdoctor.probes.wal_target import Target, TargetError, describe_target
from diskdoctor.widgets import LatencyBars, LayerTimeTable, PercentileChart, StatusLine, TextField
from diskdoctor.widgets.fitted_footer import FittedFooter
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ScrollableContainer, Vertical, VerticalScroll
from textual.message import Message
from textual.timer import Timer
from textual.validation import Function
from textual.widgets import Button, Checkbox, Header, Input, Select, Static
from textual.widgets._select import SelectCurrent
from textual.worker import Worker, WorkerState

from . import bench_view as view
from . import bench_workloads as workloads
from .bench_record import BenchRecord
from .host_snapshot import HostSnapshot, SnapshotScreen
from .runs.autosave import save_run
from .screen_help import BENCH_HELP

LONGER_FACTOR = 4
WIDE_FROM = 160
FIO_TICK_S = 1.0
RUN_ACTIONS = frozenset({"start", "fio", "threshold", "again", "longer", "focus_directory"})
"""Actions that act on the form or start something: never on a capture (the form is disabled there)."""
NO_LIVE_HOST = ("Benchmarks write to this host's storage, so they need the live host; this session reads a "
                "capture (--sysroot). Start diskdoctor without --sysroot to run one.")


KINDS = {WalParams: "wal", CompactionParams: "compaction", RandwriteParams: "randwrite",
         InterferenceParams: "interference"}


def _valid_size(text: str) -> bool:
    """Empty (the profile's value) or a size such as 2300, 8k, 22m."""
    try:
        return not text.strip() or parse_size(text.strip()) > 0
    except ParamError:
        return False


def _valid_duration(text: str) -> bool:
    """Empty (run by size) or a duration such as 30, 500ms, 2m."""
    try:
        return not text.strip() or parse_duration(text.strip()) > 0
    except ParamError:
        return False


def _valid_threshold(text: str) -> bool:
    """A number of milliseconds above 0."""
    return view.threshold_ms("custom", text)[0] is not None


def _valid_jobs(text: str) -> bool:
    """A whole number of parallel processes, 1 or more."""
    return text.strip().isdigit() and int(text) >= 1


class BenchScreen(SnapshotScreen):
    """The benchmarks (WAL, compaction, randwrite, WAL under compaction): the engine runs in a child
    process; this screen only draws what it streams."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (WIDE_FROM, "-wide")]
    """The form needs one 160-column row and the figures half of one; narrower, everything stacks."""

    SCREEN_HELP = BENCH_HELP
    BINDINGS = [
        Binding("s", "start", "Start", tooltip="Start the benchmark with the settings above."),
        Binding("escape", "cancel", "Cancel", tooltip="Stop the run; its scratch directory is removed."),
        Binding("slash", "focus_directory", "Directory", key_display="/",
                tooltip="Type a directory to test (starts the field with /)."),
        Binding("t", "threshold", "Threshold", tooltip="Switch: etcd docs 10 ms, vendor 20 ms, custom."),
        Binding("f", "fio", "fio side by side", tooltip="Run the equivalent fio job on the same directory."),
        Binding("a", "again", "Run again", tooltip="Run again with the same settings in the same directory."),
        Binding("l", "longer", "Run longer", tooltip="Run again, four times as long."),
        Binding("q", "app.quit", "Quit", show=False, tooltip="Quit diskdoctor."),
    ]

    @dataclass
    class RunStarted(Message):
        """The target was checked and the engine child started."""

        target: Target
        params: object

    @dataclass
    class IntervalReady(Message):
        """The engine streamed one interval."""

        snapshot: Interval

    @dataclass
    class RunEnded(Message):
        """The run finished (`result`), failed or was cancelled (`problem`)."""

        result: object | None
        problem: str | None = None
        cancelled: bool = False
        saved: str | None = None
        """"saved as run ID" or why it could not be saved (None when saving was not attempted)."""

    @dataclass
    class FioEnded(Message):
        """The fio side-by-side run finished (`stats`) or failed (`problem`)."""

        stats: FioSyncStats | None
        problem: str | None = None

    def __init__(self, root: Root) -> None:
        super().__init__()
        self.root = root
        self.previous: Text | None = None
        """The last finished WAL run's verdict line, shown while the next one runs and after it."""
        self._fio_started = 0.0
        self._fio_timer: Timer | None = None
        self.params: object | None = None
        self.kind = "wal"
        self.live = workloads.LiveFigures("wal", PROFILES["etcd"])
        self.target: Target | None = None
        self.result: object | None = None
        self.fio: FioSyncStats | None = None
        self.total_sync = LatencyHistogram()
        self.total_write = LatencyHistogram()
        self.last_t = 0.0
        self.last_ops = 0
        self.last_progress = 0.0
        self._run: EngineRun | None = None
        self._fio_process: subprocess.Popen[str] | None = None
        self._cancel_requested = False
        self.busy = False
        self.saved_note: str | None = None
        self._run_settings: dict[str, Any] = {}

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="bench-form"):
            yield Select([], prompt="pick one", id="bench-fs")
            yield TextField(placeholder="/path/to/test", id="bench-dir", select_on_focus=False)
            yield Select([(value, value) for _, value in workloads.CHOICES], value="etcd",
                         allow_blank=False, id="bench-profile",
                         tooltip="a WAL profile, or another workload: compaction, 4k random writes, "
                                 "the WAL under compaction")
            yield TextField("2300", placeholder="2300", id="bench-bs",
                            tooltip="bytes per write, e.g. 2300 or 8k",
                            validators=[Function(_valid_size, "block size: bytes, e.g. 2300 or 8k")])
            yield TextField("22m", placeholder="22m", id="bench-size", tooltip="total bytes, e.g. 22m",
                            validators=[Function(_valid_size, "size: bytes, e.g. 22m or 1g")])
            yield TextField(placeholder="-", id="bench-duration", tooltip="seconds; overrides size",
                            validators=[Function(_valid_duration, "duration: seconds, e.g. 30 or 2m")])
            yield Select([(m, m) for m in SYNC_METHODS], value="fdatasync", allow_blank=False,
                         id="bench-sync")
            yield Checkbox("prealloc", True, id="bench-prealloc")
            yield TextField("1", placeholder="1", id="bench-jobs", tooltip="parallel compaction processes",
                            validators=[Function(_valid_jobs, "jobs: a whole number, 1 or more")])
            yield Checkbox("O_DIRECT", True, id="bench-direct")
            yield Button("Start", id="bench-start", variant="primary")
        yield Static("", id="bench-form-error")
        with ScrollableContainer(id="bench-body"):  # side by side; one scrolling column when narrow
            with Vertical(id="bench-left"):
                yield PercentileChart(id="bench-chart")
                yield LatencyBars(id="bench-histogram")
            with VerticalScroll(id="bench-right"):
                yield Static("", id="bench-progress-text")
                yield Static("", id="bench-stats")
                yield Static(view.LAYERS_LIVE_TITLE, id="bench-layers-title", classes="pane-title")
                yield LayerTimeTable(id="bench-layers")
                with Horizontal(id="bench-threshold-row"):
                    yield Select([(label, key) for key, label in view.THRESHOLDS], value="etcd",
                                 allow_blank=False, id="bench-threshold")
                    yield TextField("10", placeholder="ms", id="bench-threshold-custom", disabled=True,
                                    validators=[Function(_valid_threshold, "a number of ms above 0")])
                    yield Static("", id="bench-threshold-error")
                yield Static("", id="bench-previous")
                yield Static("", id="bench-verdict")
                yield Static("", id="bench-fio")
                with Horizontal(id="bench-after"):  # shown once a run has finished
                    yield Button("Run again", id="bench-again", tooltip="Same settings, same directory (a).")
                    yield Button("Run longer ×4", id="bench-longer",
                                 tooltip="Four times the size or duration (l).")
                    yield Button("fio side by side", id="bench-run-fio",
                                 tooltip="The equivalent fio job on the same directory (f).")
        yield StatusLine("Pick a filesystem or type a directory, then press s (or Start).", id="bench-status")
        yield FittedFooter()

    def on_mount(self) -> None:
        self.query_one("#bench-after").display = False
        self.query_one("#bench-jobs").display = self.query_one("#bench-direct").display = False
        self.query_one(LatencyBars).show_bands("latency histogram (whole run)", [])
        for selector, label in view.FIELD_LABELS.items():
            field = self.query_one(selector)
            (field.query_one(SelectCurrent) if isinstance(field, Select) else field).border_title = label
        self.rejudge()
        if not self.root.live:
            self.query_one("#bench-form").disabled = True
            self.query_one("#bench-threshold-row").disabled = True
            self._status(NO_LIVE_HOST)
            return
        self.take_snapshot(getattr(self.app, "snapshot", None))

    def show_snapshot(self, snapshot: HostSnapshot) -> None:
        """Offer the snapshot's mounted filesystems (the host is never read by this screen)."""
        if not self.root.live:
            return
        select = self.query_one("#bench-fs", Select)
        chosen = select.value
        select.set_options(view.filesystem_choices(snapshot.host))
        if isinstance(chosen, str) and any(value == chosen for _, value in select._options):
            select.value = chosen

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hotkeys never act on a disabled form (a capture); Cancel only while something runs."""
        if action in RUN_ACTIONS and not self.root.live:
            return False
        if action == "cancel":
            return self.busy
        if action in ("again", "longer", "fio"):
            return False if self.result is None else not self.busy or None
        if action == "start":
            return None if self.busy else True
        return True

    def choose_directory(self, directory: str) -> None:
        """Pick `directory` (from the stack or TRIM screen's "bench this"); the user then presses s."""
        select = self.query_one("#bench-fs", Select)
        if any(value == directory for _, value in select._options):
            select.value = directory
        self.query_one("#bench-dir", Input).value = directory
        self.set_focus(None)
        self._status(f"{directory} chosen: press s to start (or change the settings first).")

    def action_focus_directory(self) -> None:
        """Start typing a directory: the field gets focus with "/" in it."""
        field = self.query_one("#bench-dir", Input)
        field.value = "/"
        field.focus()
        field.cursor_position = 1

    @on(Input.Changed, "#bench-form Input")
    def check_field(self, event: Input.Changed) -> None:
        """Invalid input is shown at once, under the form, next to the red field."""
        problems = [failure.description for field in self.query("#bench-form Input").results(Input)
                    if field.display and field.validators
                    and (result := field.validate(field.value)) is not None
                    for failure in result.failures if failure.description]
        self.query_one("#bench-form-error", Static).update(Text("; ".join(problems), style="bold red"))
        self.query_one("#bench-form-error").display = bool(problems)

    @on(Select.Changed, "#bench-fs")
    def fill_directory(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            self.query_one("#bench-dir", Input).value = event.value

    @on(Select.Changed, "#bench-profile")
    def fill_profile(self, event: Select.Changed) -> None:
        choice = str(event.value)
        kind = workloads.workload_of(choice)
        if choice == "custom" or (kind == self.kind and kind != "wal"):
            return
        self._show_form(workloads.form_defaults(choice))
        params = PROFILES.get(choice)
        if params is not None:
            self.query_one("#bench-prealloc", Checkbox).value = params.prealloc

    def _show_form(self, defaults: workloads.FormDefaults) -> None:
        """Fill the form for a workload: its values, its sync menu, and the one extra control it uses."""
        self.kind = workloads.workload_of(str(self.query_one("#bench-profile", Select).value))
        for name in ("bs", "size", "duration"):
            field = self.query_one(f"#bench-{name}", Input)
            field.value = getattr(defaults, name)
            field.tooltip = defaults.tooltips.get(name, field.tooltip)
        self.query_one("#bench-bs", Input).disabled = not defaults.bs_enabled
        sync = self.query_one("#bench-sync", Select)
        sync.set_options([(option, option) for option in defaults.sync_options])
        sync.value = defaults.sync
        sync.disabled = len(defaults.sync_options) == 1
        self.query_one("#bench-jobs", Input).value = defaults.jobs
        for extra in ("prealloc", "jobs", "direct"):
            self.query_one(f"#bench-{extra}").display = extra == defaults.extra

    def _show_params(self, params: object) -> None:
        """Make the form say what is running (run longer and run again change it behind the user's back)."""
        if not isinstance(params, WalParams):
            if isinstance(params, RandwriteParams):
                self.query_one("#bench-duration", Input).value = f"{params.duration_s or 0:g}"
            return
        self.query_one("#bench-profile", Select).value = params.profile
        self.query_one("#bench-bs", Input).value = str(params.bs)
        mib, rest = divmod(params.size, 1 << 20)
        self.query_one("#bench-size", Input).value = "" if params.duration_s else (
            f"{mib}m" if not rest else str(params.size))
        self.query_one("#bench-duration", Input).value = f"{params.duration_s:g}" if params.duration_s else ""
        self.query_one("#bench-sync", Select).value = params.sync
        self.query_one("#bench-prealloc", Checkbox).value = params.prealloc

    def _form_params(self) -> object:
        profile = str(self.query_one("#bench-profile", Select).value)
        text = {name: self.query_one(f"#bench-{name}", Input).value.strip()
                for name in ("bs", "size", "duration")}
        values = workloads.FormValues(
            profile, parse_size(text["bs"], "block size") if text["bs"] else None,
            parse_size(text["size"]) if text["size"] else None,
            parse_duration(text["duration"]) if text["duration"] else None,
            str(self.query_one("#bench-sync", Select).value),
            self.query_one("#bench-prealloc", Checkbox).value,
            self.query_one("#bench-jobs", Input).value.strip(),
            self.query_one("#bench-direct", Checkbox).value)
        wal = None
        if workloads.workload_of(profile) in ("wal", "interference"):
            wal = profile_params("etcd" if profile in ("custom", "interference") else profile,
                                 bs=values.bs, size=values.size, duration_s=values.duration_s,
                                 sync=values.sync, prealloc=values.prealloc)
        params = workloads.params_from_form(values, wal)
        params.validate()  # type: ignore[attr-defined]
        return params

    @on(Button.Pressed, "#bench-start")
    @on(Input.Submitted, "#bench-form Input")
    def action_start(self) -> None:
        """Check the form and start a run with it."""
        if not self.root.live:
            return
        directory = self.query_one("#bench-dir", Input).value.strip()
        if not directory:
            self._status("Type a directory or pick a mounted filesystem first.")
            return
        try:
            params = self._form_params()
        except ParamError as err:
            self._status(str(err))
            return
        self.start_run(params, directory)

    def start_run(self, params: object, directory: str) -> None:
        """Start the engine child for `params` in `directory` (nothing happens while a run is going)."""
        if self.busy or not self.root.live:
            return
        self.busy, self._cancel_requested, self.saved_note = True, False, None
        self._run_settings = self._threshold_settings()
        if isinstance(self.focused, (Input, Button)):
            self.set_focus(None)  # so s, f, t, a, l and Esc reach the screen instead of the form
        self.query_one("#bench-after").display = False
        self._show_params(params)
        if isinstance(self.result, WalResult) and isinstance(self.params, WalParams) and self.target:
            self.previous = view.previous_line(self.params, self.target, self.result, self._threshold()[0])
        self.query_one("#bench-previous", Static).update(self.previous or "")
        self.result, self.fio, self.params = None, None, params
        self.kind = KINDS[type(params)]
        self.live = workloads.LiveFigures(self.kind, params)
        self.total_sync, self.total_write = LatencyHistogram(), LatencyHistogram()
        self.last_t, self.last_ops, self.last_progress = 0.0, 0, 0.0
        chart = self.query_one(PercentileChart)
        chart.set_series(workloads.INTERFERENCE_SERIES if self.kind == "interference" else None)
        chart.clear_history(workloads.metric_label(self.kind, params))
        self.query_one(LatencyBars).show_bands("latency histogram (whole run)", [])
        self.query_one("#bench-layers-title", Static).update(view.LAYERS_LIVE_TITLE)
        self.query_one(LayerTimeTable).show_layers([])
        for selector in ("#bench-verdict", "#bench-fio", "#bench-stats"):
            self.query_one(selector, Static).update("")
        self.refresh_bindings()
        self.query_one("#bench-progress-text", Static).update(view.progress_text(0.0, 0.0, 0, 0.0))
        self._status(f"Checking {directory}…")
        self.run_engine(params, directory)

    @work(thread=True, group="bench", exit_on_error=False)
    def run_engine(self, params: object, directory: str) -> None:
        """Worker: start the child, forward what it streams; it lives as long as the child (PDEATHSIG)."""
        try:
            target = describe_target(directory, params.scratch_bytes)  # type: ignore[attr-defined]
            run = EngineRun(EngineConfig(KINDS[type(params)], target.directory, params, list(target.layers)))
        except TargetError as err:
            self.post_message(self.RunEnded(None, str(err)))
            return
        self._run = run
        self.post_message(self.RunStarted(target, params))
        if self._cancel_requested:
            run.cancel()
        def forward(event: object) -> None:
            if isinstance(event, Interval) and (not event.job or event.job == "compaction"):
                self.post_message(self.IntervalReady(event))
            elif isinstance(event, PhaseChanged) and not event.job and event.detail:
                self.app.call_from_thread(self._status, f"{event.detail}… · Esc cancels")

        final = run.wait(forward)
        if isinstance(final, Finished):
            settings = self._run_settings
            record = BenchRecord(KINDS[type(params)], params, target, final.result,
                                 settings.get("threshold_ms"), settings.get("threshold_source"))
            saved, message = save_run(record)
            note = f"saved as run {saved.id}" if saved else message
            self.post_message(self.RunEnded(final.result, saved=note))
        elif isinstance(final, Failed):
            self.post_message(self.RunEnded(None, final.message, final.cancelled))

    @on(RunStarted)
    def show_started(self, message: RunStarted) -> None:
        self.target, self.params = message.target, message.params
        layers = " → ".join(message.target.layers) or "no block device"
        name = getattr(message.params, "profile", self.kind)
        self.query_one(StatusLine).say((f"Running {name} on {message.target.directory}", 0),
                                       ("Esc cancels", 1), (f"{message.target.fstype}; layers {layers}", 2))

    @on(IntervalReady)
    def show_interval(self, message: IntervalReady) -> None:
        snapshot = message.snapshot
        point = self.live.add(snapshot)
        if point is None:  # the compaction beside the WAL: its MB/s goes under the figures
            return
        if snapshot.t < self.last_t:  # a new phase (interference) starts its own clock and histogram
            self.last_t, self.last_ops = 0.0, 0
            self.total_sync, self.total_write = LatencyHistogram(), LatencyHistogram()
        self.total_sync.merge(snapshot.stream(self.live.stream))
        self.total_write.merge(snapshot.stream("write"))
        seconds = max(snapshot.t - self.last_t, 1e-9)
        ops_per_s = (snapshot.ops - self.last_ops) / seconds
        self.last_t, self.last_ops, self.last_progress = snapshot.t, snapshot.ops, snapshot.progress
        metric = workloads.metric_label(self.kind, self.params)
        if self.kind == "compaction":
            stats = self.live.throughput_text(snapshot)
        else:
            stats = view.stats_text(snapshot.stream(self.live.stream), self.live.total, metric,
                                    self.total_write if self.kind != "randwrite" else None)
            stats.append(self.live.beside_text())
        with self.app.batch_update():
            self.query_one(PercentileChart).push(*point)
            self.query_one(LatencyBars).show_bands("latency histogram (whole run)",
                                                   view.log_bands(self.total_sync))
            # Fixed-height panes: redraw them without a layout pass, so each interval costs the UI little.
            self.query_one("#bench-progress-text", Static).update(
                view.progress_text(snapshot.progress, snapshot.t, snapshot.ops, ops_per_s), layout=False)
            self.query_one("#bench-stats", Static).update(stats, layout=False)
            self.query_one(LayerTimeTable).show_layers(view.layer_rows(snapshot.layers))

    @on(RunEnded)
    def show_end(self, message: RunEnded) -> None:
        self.busy, self._run = False, None
        self.refresh_bindings()
        if message.result is None:
            if message.cancelled:
                where = self.target.directory if self.target else "the target"
                unit = "reads" if self.kind == "compaction" else "writes"
                self._status(f"Cancelled after {self.last_ops:,} {unit}; nothing was left in {where}.")
                self.query_one("#bench-progress-text", Static).update(
                    Text(f"cancelled at {self.last_progress:.0%} · {self.last_ops:,} {unit}", style="yellow"))
            else:
                self._status(f"Error: {message.problem or ''}")
                self.query_one("#bench-progress-text", Static).update(
                    Text(f"failed after {self.last_ops:,} operations: nothing of this run is judged",
                         style="red"))
                self.query_one("#bench-dir", Input).focus()  # the form is what needs changing
            return
        self.result, self.saved_note = message.result, message.saved
        self.query_one("#bench-after").display = True
        self.query_one("#bench-longer").display = self.kind in ("wal", "randwrite")
        if not isinstance(message.result, WalResult):
            self.query_one("#bench-run-fio").display = False
            self.query_one("#bench-progress-text", Static).update(view.progress_text(
                1.0, self.live.last_t, self.last_ops, 0.0))
            self.rejudge()
            return
        self.total_sync = message.result.sync
        self.query_one(LatencyBars).show_bands("latency histogram (whole run)",
                                               view.log_bands(self.total_sync))
        self.query_one("#bench-layers-title", Static).update(view.LAYERS_RUN_TITLE)
        self.query_one(LayerTimeTable).show_layers(view.layer_rows(message.result.layers))
        self.query_one("#bench-progress-text", Static).update(view.progress_text(
            1.0, message.result.duration_s, message.result.samples, message.result.ops_per_s or 0.0))
        self.query_one("#bench-run-fio").display = fio_available() is not None
        self.rejudge()  # the verdict, also on the status line so it is visible at any size

    def _show_record(self, threshold: float | None) -> None:
        """The end of a compaction, randwrite or interference run: its summary, as the CLI prints it."""
        if self.target is None or self.result is None:
            return
        judged = threshold if self.kind == "interference" else None
        record = BenchRecord(self.kind, self.params, self.target, self.result, judged)
        lines = record.summary_lines()
        self.query_one("#bench-verdict", Static).update(Text("\n".join(lines)))
        saved = f" · {self.saved_note} (key 5)" if self.saved_note else ""
        self._status(f"{lines[0]} · a again" + (" · l longer" if self.kind == "randwrite" else "") + saved)

    def _show_verdict(self, choice: str, threshold: float | None, problem: str | None) -> None:
        if self.result is None or self.params is None or self.target is None:
            return
        if not isinstance(self.result, WalResult):
            self._show_record(threshold)
            return
        if threshold is None:
            self._status(problem or "")
            return
        text, verdict = view.verdict_text(self.params, self.target, self.result, threshold,
                                          view.threshold_source(choice, threshold))
        self.query_one("#bench-verdict", Static).update(text)
        if self.fio is not None:
            self.query_one("#bench-fio", Static).update(
                view.comparison_text(self.params, self.result, self.fio, threshold))
        disagreement = view.fio_disagreement(self.result, self.fio, threshold) if self.fio else None
        in_ram = "in RAM: this says nothing about a disk" if view.ram_note(self.target.fstype) else ""
        judged, _, provenance = verdict.line().partition(": ")
        self.query_one(StatusLine).say((f"{'PASS' if verdict.passed else 'FAIL'} {judged}", 0), (in_ram, 1),
                                       (disagreement or "", 1), (provenance, 2), ("F1 help", 2),
                                       (f"{self.saved_note} (key 5)" if self.saved_note else "", 1),
                                       ("f fio side by side" if fio_available() and not self.fio else "", 3),
                                       ("t threshold · a again · l longer", 4))

    def _threshold(self) -> tuple[float | None, str | None]:
        choice = str(self.query_one("#bench-threshold", Select).value)
        return view.threshold_ms(choice, self.query_one("#bench-threshold-custom", Input).value)

    def _threshold_settings(self) -> dict[str, Any]:
        """The threshold picked now, as a saved run records it (none when the custom one is unusable)."""
        choice = str(self.query_one("#bench-threshold", Select).value)
        threshold, _ = view.threshold_ms(choice, self.query_one("#bench-threshold-custom", Input).value)
        if threshold is None:
            return {}
        return {"threshold_ms": threshold, "threshold_source": view.threshold_source(choice, threshold)}

    @on(Select.Changed, "#bench-threshold")
    def threshold_picked(self) -> None:
        """The custom box shows the picked threshold, and is editable only for "custom"."""
        choice = str(self.query_one("#bench-threshold", Select).value)
        field = self.query_one("#bench-threshold-custom", Input)
        field.disabled = choice != "custom" or not self.root.live
        if choice != "custom":
            field.value = f"{view.threshold_ms(choice, '')[0]:g}"
        self.rejudge()

    @on(Input.Changed, "#bench-threshold-custom")
    def rejudge(self) -> None:
        """Apply the picked threshold: the chart's limit line, and the verdict once a run has ended.

        An unusable custom value is shown at the field at once, and nothing is judged against it."""
        choice = str(self.query_one("#bench-threshold", Select).value)
        threshold, problem = self._threshold()
        error = self.query_one("#bench-threshold-error", Static)
        error.update(Text(problem or "", style="bold red"))
        error.display = problem is not None
        if threshold is None:
            return
        self.query_one(PercentileChart).set_threshold(threshold, view.LIMIT_LABELS.get(choice, ""))
        self._show_verdict(choice, threshold, problem)

    def action_threshold(self) -> None:
        """Cycle the threshold profile: etcd docs, vendor, custom."""
        keys = [key for key, _ in view.THRESHOLDS]
        select = self.query_one("#bench-threshold", Select)
        select.value = keys[(keys.index(str(select.value)) + 1) % len(keys)]

    def action_cancel(self) -> None:
        """Stop the engine (or fio); the child removes its scratch directory."""
        self._cancel_requested = True
        if self._run is not None:
            self._run.cancel()
        if self._fio_process is not None:
            with contextlib.suppress(OSError):
                self._fio_process.terminate()

    @on(Button.Pressed, "#bench-again")
    def action_again(self) -> None:
        if self.params and self.target:
            self.start_run(self.params, self.target.directory)

    @on(Button.Pressed, "#bench-longer")
    def action_longer(self) -> None:
        if not (self.params and self.target) or self.kind not in ("wal", "randwrite"):
            return
        if isinstance(self.params, RandwriteParams):
            self.start_run(replace(self.params, duration_s=(self.params.duration_s or 30) * LONGER_FACTOR),
                           self.target.directory)
            return
        params = self.params
        if params.duration_s:
            longer = profile_params("etcd", bs=params.bs, size=params.size, sync=params.sync,
                                    prealloc=params.prealloc, duration_s=params.duration_s * LONGER_FACTOR)
        else:
            longer = profile_params("etcd", bs=params.bs, size=params.size * LONGER_FACTOR, sync=params.sync,
                                    prealloc=params.prealloc)
        self.start_run(longer, self.target.directory)

    @on(Button.Pressed, "#bench-run-fio")
    def action_fio(self) -> None:
        """Run the equivalent fio job on the same directory and show it next to our figures."""
        if self.busy or self.params is None or self.target is None or self.result is None:
            self._status("Finish a run first; fio then runs the same job on the same directory.")
            return
        if not isinstance(self.params, WalParams):
            self._status("fio side by side runs here for the WAL; for this workload use "
                         f"`diskdoctor bench {self.kind} --fio`.")
            return
        if fio_available() is None:
            self._status("fio is not installed (apt-get install fio).")
            return
        self.busy, self._cancel_requested = True, False
        self.refresh_bindings()
        self._fio_started = time.monotonic()
        self._fio_tick()
        self._fio_timer = self.set_interval(FIO_TICK_S, self._fio_tick)
        self.run_fio_job(self.params, self.target.directory)

    def _fio_tick(self) -> None:
        """fio prints nothing until it ends: say how long it has run against how long our run took."""
        if not self.busy or not isinstance(self.result, WalResult) or self.target is None:
            return
        elapsed = time.monotonic() - self._fio_started
        self.query_one(StatusLine).say((f"Running fio on {self.target.directory}: {elapsed:.0f} s", 0),
                                       ("Esc cancels", 1),
                                       (f"our run of the same job took {self.result.duration_s:.1f} s", 2))

    @work(thread=True, group="bench-fio", exit_on_error=False)
    def run_fio_job(self, params: WalParams, directory: str) -> None:
        """Worker: fio in its own process; its scratch dir is removed however it ends."""
        def started(process: subprocess.Popen[str]) -> None:
            self._fio_process = process

        try:
            self.post_message(self.FioEnded(run_fio(params, directory, started=started)))
        except TargetError as err:
            self.post_message(self.FioEnded(None, str(err)))

    @on(FioEnded)
    def show_fio(self, message: FioEnded) -> None:
        self.busy, self._fio_process = False, None
        if self._fio_timer is not None:
            self._fio_timer.stop()
        self.refresh_bindings()
        if self._cancel_requested:
            self._status("fio cancelled; its scratch directory was removed.")
            return
        if message.stats is None or self.result is None or self.params is None:
            self._status(f"fio: {message.problem}")
            return
        self.fio = message.stats
        self.rejudge()  # the comparison, and whether fio's p99 lands on the other side of the threshold

    @on(Worker.StateChanged)
    def worker_failed(self, event: Worker.StateChanged) -> None:
        """A bug in a worker must not leave the screen stuck in "running"."""
        if event.state == WorkerState.ERROR and event.worker.group in ("bench", "bench-fio"):
            self.busy, self._run, self._fio_process = False, None, None
            self._status(f"internal error: {event.worker.error} (please report it)")

    def on_unmount(self) -> None:
        self.action_cancel()

    def _status(self, text: str) -> None:
        self.query_one(StatusLine).say(text)

