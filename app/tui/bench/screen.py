"""The Benchmark screen: pick a filesystem and profile, watch the engine child's live figures, judge them.

The pieces live beside it: the form (bench_form), the threshold row (bench_threshold), the engine run
(bench_run), the live panes (bench_live) and fio side by side (bench_fio_run); this module wires them."""

from __future__ import annotations

import os
import subprocess
from dataclasses import replace

from diskdoctor.app.base.filesystem_words import filesystem_on
from diskdoctor.app.base.formatting import binary_size
from diskdoctor.app.base.units import AT_LEAST, compared, format_threshold
from diskdoctor.app.core.bench.caveats import HOST_LOAD, Caveats
from diskdoctor.app.core.bench.kinds import kind_of
from diskdoctor.app.core.bench.outcome import verdict_word
from diskdoctor.app.core.bench.profile_name import run_title
from diskdoctor.app.core.bench.record import BenchRecord
from diskdoctor.app.core.bench.uncertainty import settle_seconds
from diskdoctor.app.core.bench.verdict import run_findings
from diskdoctor.app.core.bench.wal import format_ms, judged_result
from diskdoctor.app.core.runs.store import RunStore, RunStoreError
from diskdoctor.app.text import bench_advice
from diskdoctor.app.text.runs import headline_parts
from diskdoctor.probes.engine.workloads.interference import InterferenceResult
from diskdoctor.probes.engine.workloads.randwrite import RandwriteParams
from diskdoctor.probes.engine.workloads.wal import WalResult
from diskdoctor.probes.fio_json import FioSyncStats
from diskdoctor.probes.fio_run import fio_available
from diskdoctor.probes.host_text import visible
from diskdoctor.probes.root import Root
from diskdoctor.probes.wal_params import ParamError, WalParams, load_text, profile_params
from diskdoctor.probes.wal_target import Target
from diskdoctor.widgets import LatencyBars, LayerTimeTable, PercentileChart, StatusLine
from diskdoctor.widgets.figures_text import FiguresText
from diskdoctor.widgets.filter_bar import FilterBar, filter_note, matches
from diskdoctor.widgets.fit_text import path_ellipsis
from diskdoctor.widgets.fitted_footer import FittedFooter
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ScrollableContainer, Vertical, VerticalScroll
from textual.reactive import var
from textual.widgets import Button, Checkbox, Header, Input, Select, Static, Tabs
from textual.worker import Worker, WorkerState

from ..host_snapshot import HostSnapshot, SnapshotScreen
from ..screen_help import BENCH_CAPTURE_HELP, BENCH_HELP
from ..selection import Selection, choose, chosen, looked_at
from . import fio_run as bench_fio_run
from . import fio_view, view, workloads
from . import run as bench_run
from .folded import FoldedForm
from .form import BenchForm, editing_words, focused_field, label_fields, one_leading_slash, shown_bytes
from .live import HISTOGRAM_TITLE, LivePanel
from .messages import ContentionReady, EarlierRuns, FioEnded, IntervalReady, RunEnded, RunStarted
from .parked import ParkedRun
from .run import RunController
from .saved_note import saved_forms
from .threshold import ThresholdRow

__all__ = ["NO_LIVE_HOST", "BenchScreen"]
LONGER_FACTOR = 4
WIDE_FROM = 160
VERDICT_SCROLL_TRIES = 5
VERDICT_SCROLL_RETRY_S = 0.1
FOLD_BELOW = 45
"""Shorter terminals fold the form into one line while a run goes and after it, so its figures and verdict
fit (e fetches the settings back)."""
NARROW_CHART_ROWS = 14
"""The chart's rows in one column (assets/app.tcss: .-narrow #bench-chart)."""
RUNNING_CHART_MIN = 9
"""While a run goes in one column, the chart gives up rows down to this so the live figures and the layer
times fit (five plot rows still show the trend against the threshold)."""
FIT_CHART_FROM = 36
"""A terminal this tall or taller fits the running view by shortening the chart; on a shorter one (80x24)
the histogram waits for the run's end and the chart leaves room for the progress and the live p99."""
SHORT_CHART_MIN = 6
"""The chart's fewest rows (title, legend, two plot rows, the time axis) on a short terminal while it runs."""
RIGHT_RULE_ROWS = 1
"""The rule over the figures column in one column (assets/app.tcss: .-narrow #bench-right)."""
STATS_TO_P99_ROWS = 4
"""The live figures' rows down to the p99 (heading, p50, p90, p99)."""
RUN_ACTIONS = frozenset({"start", "fio", "threshold", "again", "longer", "focus_directory", "workload",
                         "settings", "phase", "cancel", "filter"})
"""Actions that act on the form, a run or its figures: never on a capture (there is none of them there)."""
READY_HINT = "Pick a filesystem or type a directory, then press s (or Start)."
WORKLOAD_WORDS = "Workload"
"""The footer's words for ], the workload tab to the right (number keys switch screens), as lazygit's tabs;
[, the one to its left, is listed in F1 only: `[ ] Workload` read as an unticked checkbox beside the form's
`▐X▌` (newuser22 #7), and `Next workload` was cut to `Next` in a footer of short labels. `Workload`, not
`Load` (newuser18 #7: on this screen a load is a WAL rate)."""
NO_LIVE_HOST = "A capture (--sysroot): no benchmarks here, they need the live host"
"""The status line on a capture; the whole story is in the column (view.capture_text)."""


SUGGESTED_PATH_CELLS = 24
"""A suggested target's path on the status line is cut to this (it is whole in the directory field)."""
SELECTED_ON = {"stack": "Stack", "trim": "TRIM", "monitor": "Monitor", "advice": "Advice", "runs": "Runs"}
"""The screen a selection came from, as the status line names it."""

DIRECTORY_SET = "Directory set: Enter starts; type seconds here first (shift+Tab: size)."
"""What Enter in the directory field says once it has moved the focus to the seconds field."""


class BenchScreen(SnapshotScreen):
    """The benchmarks (WAL, compaction, randwrite, WAL under compaction): the engine runs in a child
    process; this screen only draws what it streams."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (WIDE_FROM, "-wide")]
    """The form needs one 160-column row and the figures half of one; narrower, everything stacks."""
    LIVE_ONLY_ACTIONS = RUN_ACTIONS  # F1 and the command palette leave them out on a capture

    SCREEN_HELP = BENCH_HELP
    BINDINGS = [
        Binding("s", "start", "Start", tooltip="Start the benchmark with the settings above."),
        Binding("escape", "cancel", "Cancel", tooltip="Stop the run; its scratch directory is removed."),
        Binding("right_square_bracket", "workload(1)", WORKLOAD_WORDS, key_display="]",
                tooltip="The workload tab to the right: wal, compaction, randwrite, interference."),
        Binding("left_square_bracket", "workload(-1)", "Previous workload", key_display="[", show=False,
                tooltip="The workload tab to the left: wal, compaction, randwrite, interference."),
        Binding("d", "focus_directory", "Directory",
                tooltip="Move to the directory field (nothing is typed; a path already there stays)."),
        Binding("slash", "filter", "Filter", key_display="/",
                tooltip="Keep the earlier runs listed that contain the words typed (as / on every list)."),
        Binding("t", "threshold", "Threshold", tooltip="Switch: etcd docs 10 ms, vendor 20 ms, custom."),
        Binding("e", "settings", "Edit",
                tooltip="Show the settings form again (folded on a short terminal while a run goes and after "
                        "it), or fold it back into its one line."),
        Binding("pagedown", "scroll_body(1)", "Scroll down", show=False,
                tooltip="Scroll the chart, figures and verdict (one column below 160 columns)."),
        Binding("pageup", "scroll_body(-1)", "Scroll up", show=False,
                tooltip="Scroll the chart, figures and verdict back up."),
        Binding("c", "phase", "Chart load", tooltip="Show the run's next load on the chart, figures, "
                "histogram and layer times (after a run they show the load the verdict judged)."),
        # the advisor's usual fix (run longer) before fio: a narrow footer leaves out the last declared first
        Binding("l", "longer", "Run longer",
                tooltip="Run again as long as would settle an INCONCLUSIVE verdict, else 4 times as long."),
        Binding("a", "again", "Run again", tooltip="Run again with the same settings in the same directory."),
        Binding("f", "fio", "fio side by side", tooltip="Run the equivalent fio job on the same directory."),
        Binding("q", "app.quit", "Quit", tooltip="Quit diskdoctor."),
    ]
    busy: var[bool] = var(False)
    """Whether a run (or fio) goes: Start, the directory key and the workload keys wait for its end."""
    RunStarted = RunStarted
    IntervalReady = IntervalReady
    RunEnded = RunEnded
    FioEnded = FioEnded
    ContentionReady = ContentionReady

    def __init__(self, root: Root) -> None:
        super().__init__()
        self.root = root
        self.previous: Text | None = None
        """The last finished WAL run's verdict line, shown while the next one runs and after it."""
        self.params: object | None = None
        self.kind = "wal"
        """The workload of the run shown (the form may already be set for another)."""
        self.target = None
        self.result: object | None = None
        self.record: BenchRecord | None = None
        self._judged: BenchRecord | None = None
        """The record judged against the picked threshold (its verdict says what the longer button runs)."""
        self.fio: object | None = None
        self.saved_note: str | None = None
        self._offered: Selection | None = None
        """The selection last offered as the target (offered once; the user may change it)."""
        self._suggested: str | None = None
        """The mountpoint filled in as a suggestion (a later suggestion may replace it; a typed one stays)."""
        self._origin: tuple[str, str] | None = None
        """The directory this screen filled in and where it came from ("suggested from TRIM's cursor",
        "chosen on Runs"); any other directory in the field was typed."""
        self._said: str | None = None
        """The directory the status line last named (a change message arriving late for it, after a run's
        verdict took the line, leaves the verdict)."""
        self._problem_form: tuple[object, ...] | None = None
        self._target_said: str | None = READY_HINT
        """What `_say_target` last put on the status line (the first hint before it)."""
        """What the form said when the status line showed a problem with it (the problem goes once the form
        says something else; a change message arriving late, for values set before, leaves it)."""
        self.running_parts: tuple[tuple[str, int], ...] = ()
        """What the status line says while a run goes (the host's contention is added as it comes)."""
        self._contention: tuple[tuple[str, int], ...] = ()
        self._phase = ""
        self._pin_verdict = False
        """Whether a finished run's verdict is being kept at the top of the one column (until the user
        scrolls)."""
        """The engine's phase while a run goes ("preparing", "closed loop (capacity)"), kept beside the
        progress on the status line."""
        self.filter_text = ""
        """The `/` filter's text: the earlier runs listed keep the rows containing every word of it."""
        self._earlier: EarlierRuns | None = None
        """The saved runs on the form's filesystem (shown under what Start runs, before the first run)."""
        self.live = LivePanel(self)
        self.parked_run = ParkedRun(self)
        """The run shown, set aside while the form describes another one (another workload, directory or
        setting): what Start runs shows instead, as before any run."""
        self._form_kind = "wal"
        """The workload the form was last set to (back on the shown run's tab, the form says that run)."""
        self.engine = RunController(self, self._phase_status)
        self.fio_run = bench_fio_run.FioController(self, self._fio_tick)

    @property
    def _fio_process(self) -> subprocess.Popen[str] | None:
        """The fio process running now (None when none is)."""
        return self.fio_run.process

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield BenchForm()
        with ScrollableContainer(id="bench-body"):  # side by side; one scrolling column when narrow
            with Vertical(id="bench-left"):
                yield PercentileChart(id="bench-chart")
                yield LatencyBars(id="bench-histogram")
            with VerticalScroll(id="bench-right"):
                # a finished run's verdict and its advice first (newuser8: under the progress and the live
                # figures it was on row 24 at 200x60), then its layer times (moved up once it ends, see
                # _layer_times_first), the figures and the threshold
                yield FiguresText("", id="bench-verdict", labels=(HOST_LOAD,))  # its wrap under the value
                yield FiguresText("", id="bench-advice")
                yield FiguresText("", id="bench-fio")
                yield Static("", id="bench-progress-text")
                yield Static("", id="bench-stats")
                yield Static(view.LAYERS_LIVE_TITLE, id="bench-layers-title", classes="pane-title")
                yield LayerTimeTable(id="bench-layers")
                yield FiguresText("", id="bench-plan")  # before the first run: what Start runs
                yield FiguresText("", id="bench-previous")
                yield ThresholdRow()  # under what Start runs, the figures and the verdict it judges
                with Horizontal(id="bench-after"):  # shown once a run has finished
                    yield Button("Run again", id="bench-again", tooltip="Same settings, same directory (a).")
                    yield Button("Run longer", id="bench-longer",
                                 tooltip="As long as would settle an INCONCLUSIVE verdict, else four times "
                                         "the size or duration (l).")
                    yield Button("fio side by side", id="bench-run-fio",
                                 tooltip="The equivalent fio job on the same directory (f).")
        yield FilterBar(id="bench-filter")  # the earlier runs' `/` filter, as on every other screen's list
        yield StatusLine(READY_HINT, id="bench-status")
        yield FittedFooter()

    def on_mount(self) -> None:
        self.sub_title = "Database-style writes, measured live"
        for selector in ("#bench-after", "#bench-advice", "#bench-fio"):
            self.query_one(selector).display = False
        self._show_live_panes(False)
        self.query_one(LatencyBars).show_bands(HISTOGRAM_TITLE, [])
        label_fields(self.query_one(ThresholdRow))
        self.rejudge()
        if not self.root.live:  # nothing that looks as if it could run (newuser9 saw a whole usable form)
            self.sub_title = "Needs the live host"
            self.SCREEN_HELP = BENCH_CAPTURE_HELP  # F1 says what this page has here, not a live run's keys
            self.query_one(BenchForm).display = False
            self.query_one(BenchForm).disabled = True
            self.query_one(ThresholdRow).display = False
            self.query_one(ThresholdRow).disabled = True
            self._status(NO_LIVE_HOST)
            return
        self.take_snapshot(getattr(self.app, "snapshot", None))

    def on_screen_resume(self) -> None:
        """The filesystem chosen on another screen is the target offered (never while a run goes); with
        none chosen, the one left under Stack's or TRIM's cursor is suggested."""
        selection = chosen(self.app)
        if self.busy or not self.root.live:
            return
        if selection is None or selection.by == "bench" or not selection.mountpoint:
            self._suggest(looked_at(self.app))
            return
        if selection == self._offered:
            return
        self._offered = selection
        form = self.query_one(BenchForm)
        screen = SELECTED_ON.get(selection.by, selection.by)
        on_it = form.mountpoint_of(form.directory) == selection.mountpoint
        if selection.directory and selection.directory != selection.mountpoint:
            # a run's own directory (newuser8: Runs gave its filesystem); a directory typed on it stays
            typed_on_it = on_it and self._origin_of(form.directory) == "typed"
            if form.directory == selection.directory or typed_on_it:
                return
            if os.path.isdir(selection.directory):
                self.choose_directory(selection.directory, screen)
            else:
                self.choose_directory(selection.mountpoint, screen,
                                      f"{path_ellipsis(visible(selection.directory), SUGGESTED_PATH_CELLS)} "
                                      "is gone: its filesystem")
            return
        # A directory already typed on the chosen filesystem stays: the run goes where the user said.
        if not on_it:
            self.choose_directory(selection.mountpoint, screen)

    def _suggest(self, looked: Selection | None) -> None:
        """Fill in the filesystem the user left under the cursor on Stack or TRIM, and say it is only a
        suggestion (newuser7 was told `pick one` with /mnt/newuser7 highlighted on TRIM): never over a
        directory the user typed or picked, and never made the selection until a run starts there."""
        form = self.query_one(BenchForm)
        if looked is None or not looked.mountpoint or looked == self._offered:
            return
        if form.directory and form.directory != self._suggested:
            return  # the user's own choice stays
        self._offered, self._suggested = looked, looked.mountpoint
        where = SELECTED_ON.get(looked.by, looked.by)
        self._origin = (looked.mountpoint, f"suggested from {where}'s cursor")
        form.choose(looked.mountpoint)
        self.set_focus(None)
        self._say_target()

    def _origin_of(self, directory: str) -> str:
        """Where the directory in the field came from: what this screen filled in, else "typed"."""
        return self._origin[1] if self._origin is not None and self._origin[0] == directory else "typed"

    def _say_target(self) -> None:
        """Say what s would run on and where it came from ("typed", "suggested from TRIM's cursor", "chosen
        on Runs"), at once whenever the directory changes (newuser8 typed one and was still told the
        suggestion); never while a run goes or on a capture."""
        if self.busy or not self.root.live:
            return
        form = self.query_one(BenchForm)
        directory = self._said = form.directory
        self._problem_form = None
        field = focused_field(self.focused)
        editing = [(editing_words(field[1]), 1)] if field is not None else []  # where a key typed goes, after
        # what the target is (a problem leads the line: "/no/such (typed): no such directory · editing …")
        if not directory:
            self.query_one(StatusLine).say(*((words, 0) for words, _ in editing), (READY_HINT, 0))
            self._target_said = self.query_one(StatusLine).plain
            return
        origin = self._origin_of(directory)
        path = path_ellipsis(visible(directory), SUGGESTED_PATH_CELLS)  # whole in the field above
        if not form.valid_directory(directory):
            self.query_one(StatusLine).say((f"{path} ({origin}): no such directory", 0), *editing,
                                           ("type another or pick a filesystem", 2))
            self._target_said = self.query_one(StatusLine).plain
            return
        other = "or pick another filesystem" if origin.startswith("suggested") else \
            "or change the settings first"
        self.query_one(StatusLine).say((f"{path} ({origin}): press s to start", 0), *editing, (other, 2))
        self._target_said = self.query_one(StatusLine).plain

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The status line names the field a key would go into (newuser24 #11)."""
        if focused_field(event.widget) is not None:
            self.call_after_refresh(self._say_target_again)

    def _say_target_again(self) -> None:
        """The target's line again, with the field now focused, only if the status line still says it (never
        over a form problem, a hint such as DIRECTORY_SET, a run's progress or its result)."""
        if self.query_one(StatusLine).plain == self._target_said:
            self._say_target()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self.on_descendant_focus(event)  # type: ignore[arg-type]

    def on_screen_suspend(self) -> None:
        """Help (F1) or another screen covers this one: when it comes back, focus stays where the user left
        it. Textual would otherwise focus the first field when none had focus, and the next hotkey pressed
        on the screen (/, s, t) would land in that field instead."""
        self.AUTO_FOCUS = ""

    def show_snapshot(self, snapshot: HostSnapshot) -> None:
        """Offer the snapshot's mounted filesystems (the host is never read by this screen)."""
        if self.root.live:
            self.query_one(BenchForm).set_filesystems(snapshot.host)

    def watch_busy(self, busy: bool) -> None:
        """While a run goes Start is greyed and the footer offers what works then (newuser9: `s Start esc
        Cancel` mid-run); after it, Start again."""
        if self.is_mounted:
            self.query_one("#bench-start", Button).disabled = busy
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hotkeys never act on a disabled form (a capture); Cancel only while something runs, and what
        would change the form or start another run only while nothing does."""
        if action in RUN_ACTIONS and not self.root.live:
            return False
        if action == "cancel":
            return self.busy
        if action in ("start", "focus_directory", "workload"):
            return not self.busy
        if action == "filter":  # the earlier runs are listed under what Start runs, before a run
            return self.query_one("#bench-plan").display
        if action == "threshold":
            return self.query_one(ThresholdRow).display
        if action == "settings":  # unfold, or fold back what a run folded (newuser14 #6: no `e` at 80)
            return self.query_one(BenchForm).folded or (self._can_fold() and not self.busy)
        if action in ("phase", "again", "longer", "fio") and self.parked_run.parked:
            return False  # the run they act on is set aside: the form describes another
        if action == "phase":
            return not self.busy and self.live.can_step
        if action == "longer" and not kind_of(self.kind).form.can_lengthen:
            return False  # as its button: a compaction or interference run has no longer version
        if action in ("again", "longer", "fio"):
            return False if self.result is None else not self.busy or None
        return True

    def choose_directory(self, directory: str, screen: str | None = None, note: str = "") -> None:
        """Pick `directory` (from "bench this", or the selection made on `screen`); the user then presses s.
        A target taken from another screen's selection says so: the user never benchmarked there before."""
        origin = f"chosen on {screen}" if screen else "chosen"
        self._origin = (one_leading_slash(directory.strip()), f"{origin}; {note}" if note else origin)
        self.query_one(BenchForm).choose(directory)
        if self.query_one(BenchForm).folded:  # the folded line names the new directory, not the last run's
            self._fold_form()
        self.set_focus(None)
        self._say_target()

    def action_workload(self, step: int) -> None:
        """Pick the workload tab `step` places to the right (left when negative), wrapping round."""
        tabs = self.query_one("#bench-workloads", Tabs)
        if step > 0:
            tabs.action_next_tab()
        else:
            tabs.action_previous_tab()

    def action_focus_directory(self) -> None:
        """Start typing a directory: the value there is selected, so typing replaces it (a suggestion, a Runs
        pick or a path typed before alike)."""
        if self.query_one(BenchForm).folded:  # (e folds an open form back: only unfold here)
            self.action_settings()
        self.query_one(BenchForm).focus_directory()

    def action_filter(self) -> None:
        """Open the `/` filter line of the earlier runs."""
        self.query_one(FilterBar).open()

    @on(FilterBar.Filter)
    def _filter_changed(self, message: FilterBar.Filter) -> None:
        self.filter_text = message.text
        self._show_plan()

    def _filtered_earlier(self) -> list[tuple[str, str, str]]:
        """The earlier runs the filter keeps (every one without a filter), counted on the filter line."""
        runs = self._earlier.runs if self._earlier is not None else []
        kept = [run for run in runs if matches(self.filter_text, *run)]
        self.query_one(FilterBar).counted(len(kept), len(runs))
        return kept

    def action_settings(self) -> None:
        """Unfold the form, or fold it back into its one line (as a run on a short terminal folded it)."""
        form = self.query_one(BenchForm)
        if form.folded:
            form.fold(None)
        elif self._can_fold():
            self._fold_form()
        self.refresh_bindings()

    def _can_fold(self) -> bool:
        """Whether the form may fold: on a short terminal, once a run has been shown."""
        return self.params is not None and not self.parked_run.parked and self.size.height < FOLD_BELOW

    def _fold_form(self) -> None:
        """Fold the form into the one line of what it says now (a directory since picked on Runs included);
        settings it cannot read yet stay unfolded, to be fixed."""
        form = self.query_one(BenchForm)
        try:
            form.fold(FoldedForm(form.params(), form.directory))
        except ParamError:
            form.fold(None)

    def action_scroll_body(self, pages: int) -> None:
        """Page the chart, figures and verdict (one scrolling column on a narrow terminal)."""
        self._pin_verdict = False  # the user scrolls: the verdict no longer pulls the column back
        narrow = self.has_class("-narrow")
        body = self.query_one("#bench-body" if narrow else "#bench-right")
        if pages > 0:
            body.scroll_page_down(animate=False)
        else:
            body.scroll_page_up(animate=False)

    @on(Input.Submitted, "#bench-form Input")
    def field_entered(self, event: Input.Submitted) -> None:
        """Enter in a field starts the run, except in the directory field: there it accepts the directory and
        moves to the seconds field, so seconds can still be typed and a second Enter starts (newuser11's Enter
        there started a 100 s run; newuser23 #14: the hint's shift+Tab from Start reached a checkbox, and the
        `5` typed there switched to Runs)."""
        if event.input.id != "bench-dir":
            self.action_start()
            return
        invalid = event.validation_result is not None and not event.validation_result.is_valid
        if invalid and self.root.live and not self.busy:  # the field's own check: no such directory
            self._form_problem("; ".join(event.validation_result.failure_descriptions))  # type: ignore[union-attr]
        elif self.root.live and not self.busy and self._form_params() is not None:  # a problem says so now
            seconds = self.query_one("#bench-duration", Input)
            if seconds.display and not seconds.disabled:
                seconds.focus()
                self._status(DIRECTORY_SET)
            else:
                self.query_one("#bench-start", Button).focus()
                self._status("Directory set: Enter or s starts.")

    @on(Button.Pressed, "#bench-start")
    def action_start(self) -> None:
        """Check the form and start a run with it."""
        if self.root.live and (params := self._form_params()) is not None:
            self.start_run(params, self.query_one(BenchForm).directory)

    def _form_params(self) -> object | None:
        """The form's run parameters, or None after saying on the form what is missing or wrong."""
        form = self.query_one(BenchForm)
        if not form.directory:
            self._form_problem("Type a directory or pick a mounted filesystem first.")
            return None
        try:
            return form.params()
        except ParamError as err:
            self._form_problem(str(err))
            return None

    def start_run(self, params: object, directory: str) -> None:
        """Start the engine child for `params` in `directory` (nothing happens while a run is going)."""
        if self.busy or not self.root.live:
            return
        if self.focused is not None:
            # so s, f, t, a, l and Esc reach the screen instead of the form, and the footer offers the run's
            # and the result's keys; before Start is disabled below, which would hand its focus to the
            # directory field (after a size fitted to the free space, Start had focus: the run ended with
            # `esc Leave field` in the footer; newuser22 #6: so did one started from the filesystem menu)
            self.set_focus(None)
        self.busy, self.saved_note = True, None
        self.parked_run.ran(None)
        self.query_one("#bench-after").display = False
        self._layer_times_first(False)
        self._threshold_by_verdict(False)
        self._show_live_panes(True)
        self.query_one("#bench-progress-text").remove_class("-note")  # back to its fixed two lines
        self.query_one(BenchForm).show_params(params)
        self.query_one("#bench-body").scroll_home(animate=False)
        if isinstance(self.result, WalResult) and isinstance(self.params, WalParams) and self.target:
            self.previous = view.previous_line(self.params, self.target, self.result,
                                               self.query_one(ThresholdRow).picked()[0],
                                               self.record.sections if self.record else None)
        self.query_one("#bench-previous", Static).update(self.previous or "")
        self.query_one("#bench-previous").display = self.previous is not None
        self.result, self.record, self.fio, self.params = None, None, None, params
        self.kind = bench_run.kind_of(params)
        self.live.reset(self.kind, params)
        self._show_judging()
        for selector in ("#bench-verdict", "#bench-advice", "#bench-fio"):  # no blank rows at the top
            self.query_one(selector, Static).update("")
            self.query_one(selector).display = False
        self.refresh_bindings()
        self._status(f"Checking {directory}…")
        self.engine.start(params, directory, self.query_one(ThresholdRow).settings())

    @on(RunStarted)
    def show_started(self, message: RunStarted) -> None:
        self.target, self.params = message.target, message.params
        self._show_live_panes(True)
        self.live.started(message.params, bool(message.target.layers))
        self._choose_target(message.target)
        if self.size.height < FOLD_BELOW:  # room for the run's figures and verdict on a short terminal
            self.query_one(BenchForm).fold(FoldedForm(message.params, message.target.directory))
            self.refresh_bindings()
        target = message.target
        layers = (f"{target.fstype}; layers {' → '.join(target.layers)}" if target.layers
                  else filesystem_on(target.fstype, None))
        name = run_title(message.params, self.kind)
        durable = Caveats(None, view.not_durable(message.target), None).durability_text()
        self._contention, self._phase = (), ""
        self.running_parts = ((f"Running {name} on {message.target.directory}", 0), ("Esc cancels", 1),
                              (durable or "", 1), (layers, 2))
        self.query_one(StatusLine).say(*self.running_parts)

    def _choose_target(self, target: Target) -> None:
        """The filesystem a run starts or finishes on is the one selection: Stack's cursor (on the device
        under it), TRIM's row, Monitor and Advice follow it."""
        choose(self.app, None, target.mountpoint or target.directory, "bench")

    @on(ContentionReady)
    def show_contention(self, message: ContentionReady) -> None:
        """The host's contention so far, beside what the run says, while it goes."""
        if self.busy and self.running_parts:
            self._contention = ((message.text, 1 if message.busy else 3),)
            self._say_running()

    @on(IntervalReady)
    def show_interval(self, message: IntervalReady) -> None:
        self.live.show(message.snapshot)
        self.call_after_refresh(self._fit_running_chart)
        self._say_running()

    def _say_running(self) -> None:
        """While a run goes, the status line says what runs where, which load of how many, the progress and
        the writes so far (at any size: the pane may be below the fold), whatever else is said beside it (the
        host's contention arriving every 2 s took the progress away in newuser12's second load)."""
        if not (self.busy and self.running_parts):
            return
        head, *rest = self.running_parts
        if not self.live.last_t and not self.live.last_ops:  # no interval yet: "preparing" or the like
            self.query_one(StatusLine).say(head, (self._phase, 0), *rest, *self._contention)
            return
        unit = kind_of(self.kind).form.progress_unit
        done = f"{self.live.last_progress:.0%} · {self.live.last_ops:,} {unit}"
        self.query_one(StatusLine).say(head, (self._load_of(), 0), (self._phase, 2), (done, 0), *rest,
                                       *self._contention)

    def _load_of(self) -> str:
        """"load 2 of 3" while a WAL run with more than one load goes ("" otherwise): the load the engine
        said it started, else the loads drawn so far."""
        params = self.params
        if not isinstance(params, WalParams) or self.live.figures.phased:
            return ""
        loads = [load_text(rate, params.arrival) for rate in params.rates]
        loads += [load_text(None, "closed")] if params.capacity else []
        now = loads.index(self._phase) + 1 if self._phase in loads else len(self.live.phases.traces)
        return f"load {min(now, len(loads))} of {len(loads)}" if len(loads) > 1 and now else ""

    def _fit_running_chart(self) -> None:
        """In one column while a run goes, a shorter chart (down to RUNNING_CHART_MIN rows) so the live
        figures and where the time goes fit above the status line (newuser11 at 120x40 had to PgDn)."""
        chart, body = self.query_one(PercentileChart), self.query_one("#bench-body")
        histogram = self.query_one(LatencyBars)
        if not self.busy or not self.has_class("-narrow"):
            chart.styles.min_height = chart.styles.height = None
            histogram.display = True
            return
        if self.size.height < FIT_CHART_FROM:  # 80x24: the progress and the live p99 under a short chart
            histogram.display = False  # the whole run's histogram comes back when the run ends
            pane = self.query_one("#bench-progress-text")
            progress = pane.outer_size.height + pane.styles.margin.bottom
            wanted = max(SHORT_CHART_MIN, body.size.height - RIGHT_RULE_ROWS - progress - STATS_TO_P99_ROWS)
            if body.size.height and chart.outer_size.height != wanted:
                chart.styles.min_height = chart.styles.height = wanted
            return
        histogram.display = True
        now = chart.outer_size.height
        overflow = body.virtual_size.height - body.size.height
        wanted = max(RUNNING_CHART_MIN, min(NARROW_CHART_ROWS, now - overflow))
        if wanted != now and now and body.size.height:
            chart.styles.min_height = chart.styles.height = wanted

    @on(RunEnded)
    def show_end(self, message: RunEnded) -> None:
        """The run's result (or why it stopped), shown while the form says what it says now (a size fitted to
        the free space included)."""
        self._show_end(message)
        self.parked_run.ran(self.query_one(BenchForm).values())

    def _show_end(self, message: RunEnded) -> None:
        self.busy = False
        chart = self.query_one(PercentileChart)
        chart.styles.min_height = chart.styles.height = None  # the whole chart again after the run
        self.query_one(LatencyBars).display = True  # and the histogram, left out while it ran at 80x24
        self.engine.ended()
        self.refresh_bindings()
        if message.result is None:
            self._show_stopped(message)
            return
        if self.target is not None:  # a row chosen elsewhere while it ran gives way to the result's target
            self._choose_target(self.target)
        self.result, self.saved_note = message.result, message.saved
        self.record = message.record or BenchRecord(self.kind, self.params, self.target, message.result)
        self._judged = None
        self.query_one("#bench-after").display = self.query_one("#bench-verdict").display = True
        self._layer_times_first(True)
        self._threshold_by_verdict(True)
        self._label_longer()
        self.live.show_whole_run(message.result)
        self.query_one("#bench-run-fio").display = fio_available() is not None
        self.rejudge()  # the verdict, also on the status line so it is visible at any size
        self.query_one("#bench-right").scroll_home(animate=False)  # the verdict heads the column
        if self.has_class("-narrow"):  # one scrolling column: the verdict at the top (PgUp: the chart)
            # after the layout that sizes the verdict, advice and buttons just filled in
            self._pin_verdict = True
            self.call_after_refresh(self.call_after_refresh, self._show_verdict_first)

    def _layer_times_first(self, first: bool) -> None:
        """After a run, "Where the time goes" follows the verdict and its advice, before the figures table
        (they explain the verdict, and show with it at 120x40); while a run goes it follows the figures."""
        right = self.query_one("#bench-right")
        title, table = self.query_one("#bench-layers-title"), self.query_one(LayerTimeTable)
        right.move_child(title, after=self.query_one("#bench-fio" if first else "#bench-stats"))
        right.move_child(table, after=title)

    def _threshold_by_verdict(self, by_verdict: bool) -> None:
        """After a run the threshold row follows the verdict it judges, where the verdict pinned at the top
        of the column keeps it in view (newuser22 #2: at 120x40, at the column's end, only its top border
        showed over the status line); before a run and while one goes it follows what Start runs."""
        right, row = self.query_one("#bench-right"), self.query_one(ThresholdRow)
        right.move_child(row, after=self.query_one("#bench-verdict" if by_verdict else "#bench-previous"))
        row.set_class(by_verdict, "-by-verdict")

    def _show_verdict_first(self, tries: int = VERDICT_SCROLL_TRIES) -> None:
        """Scroll the one column so the verdict is at its top; again a moment later while the advice and
        buttons under it are still being sized (the column cannot scroll that far before they are)."""
        body = self.query_one("#bench-body")
        if self.busy or self.result is None or not self._pin_verdict:
            return
        if self.focused is not None and body in self.focused.ancestors:
            self.set_focus(None, scroll_visible=False)  # a focused field in the column would pull it back
        verdict = self.query_one("#bench-verdict")  # its advice, the figures and layer times follow it
        body.scroll_to_widget(verdict, top=True, animate=False)
        if tries > 1 and verdict.region.y != body.region.y:
            self.set_timer(VERDICT_SCROLL_RETRY_S, lambda: self._show_verdict_first(tries - 1))

    def _show_stopped(self, message: RunEnded) -> None:
        """A cancelled or failed run: what it did, and nothing judged."""
        unit = kind_of(self.kind).form.progress_unit
        progress = self.query_one("#bench-progress-text", Static)
        if message.cancelled:
            where = self.target.directory if self.target else "the target"
            self._status(f"Cancelled after {self.live.last_ops:,} {unit}; nothing was left in {where}.")
            done = f"{self.live.last_progress:.0%} · {self.live.last_ops:,} {unit}"
            progress.update(Text(f"cancelled at {done}", style="yellow"))
            return
        if message.fit_size:  # set before the problem is shown: the problem stays for the fitted form
            self.query_one("#bench-size", Input).value = shown_bytes(message.fit_size)
            self._form_problem(message.fit_note or "")
            progress.add_class("-note")  # the whole trade-off, however many lines it takes
            progress.update(Text(message.problem or "", style="yellow"))
            self.query_one("#bench-start").focus()  # s or Enter runs the fitted size
            return
        self._form_problem(f"Error: {message.problem or ''}")
        progress.update(Text(f"failed after {self.live.last_ops:,} operations: nothing of this run is judged",
                             style="red"))
        self.query_one("#bench-dir", Input).focus()  # the form is what needs changing

    def _show_record(self, threshold: float | None, source: str | None) -> None:
        """The end of a compaction, randwrite or interference run: its summary, as the CLI prints it."""
        if self.target is None or self.result is None or self.record is None:
            return
        judged = threshold if kind_of(self.kind).judged else None
        record = replace(self.record, threshold=judged,
                         threshold_source=source if judged is not None else None)
        lines = record.summary_lines()
        self.query_one("#bench-verdict", Static).update(Text("\n".join(lines)))
        self._show_advice(record)
        comparison, warning = fio_view.comparison(self.params, self.result, self.fio, judged)
        self._show_fio(comparison)
        self.query_one(StatusLine).say((lines[0], 0), (warning or "", 1),
                                       (saved_forms(self.saved_note), 1),
                                       ("f fio side by side" if fio_available() and not self.fio else "", 3),
                                       ("a again" + (" · l longer" if kind_of(self.kind).form.can_lengthen
                                                     else ""), 2))

    def _show_verdict(self, choice: str, threshold: float | None, problem: str | None) -> None:
        if self.result is None or self.params is None or self.target is None:
            return
        source = view.threshold_source(choice, threshold) if threshold is not None else None
        if not isinstance(self.result, WalResult):
            self._show_record(threshold, source)
            return
        if threshold is None:
            self._status(problem or "")
            return
        caveats = self.record.caveats() if self.record is not None else None
        text, verdict = view.verdict_text(self.params, self.target, self.result, threshold,  # type: ignore[arg-type]
                                          source, self.record.sections if self.record else None, caveats)
        self.query_one("#bench-verdict", Static).update(text)
        sections = self.record.sections if self.record else None
        self.live.judge(judged_result(self.params, self.result, threshold, source, sections).headline)  # type: ignore[arg-type]
        if self.record is not None:
            self._show_advice(replace(self.record, threshold=threshold, threshold_source=source))
        fio = self.fio if isinstance(self.fio, FioSyncStats) else None
        if fio is not None:
            self._show_fio(view.comparison_text(self.params, self.result, fio, threshold))  # type: ignore[arg-type]
        disagreement = view.fio_disagreement(self.result, fio, threshold) if fio else None
        in_ram = "in RAM: this says nothing about a disk" if view.ram_note(self.target.fstype) and \
            caveats is None else ""  # the caveats' [not durable] says it otherwise
        tags = f" {caveats.tags()}".rstrip() if caveats is not None else ""
        provenance = verdict.line().partition(": ")[2]
        statistic, _, measured = verdict.metric.partition(" ")  # "p99", "fdatasync from due at 500/s steady"
        word = verdict_word(verdict)
        figure = format_ms(verdict.value_ms) if word == "INCONCLUSIVE" else \
            compared(verdict.value_ms, verdict.threshold_ms, below=verdict.passed)
        sign = "vs" if word == "INCONCLUSIVE" else ("<" if verdict.passed else AT_LEAST)
        head = f"{word} {statistic} {figure} {sign} {format_threshold(verdict.threshold_ms)}{tags}"
        self.query_one(StatusLine).say((head, 0), (in_ram, 1), (disagreement or "", 1), (measured, 2),
                                       (provenance, 3), ("F1 help", 2),
                                       (saved_forms(self.saved_note), 1),
                                       ("f fio side by side" if fio_available() and not self.fio else "", 3),
                                       ("t threshold · a again · l longer", 4))

    def _show_fio(self, comparison: Text) -> None:
        """fio's figures beside ours, under the verdict (nothing, not a blank row, before fio has run)."""
        fio = self.query_one("#bench-fio", Static)
        fio.update(comparison)
        fio.display = bool(comparison.plain)

    def _show_advice(self, record: BenchRecord) -> None:
        """The advisor's finding for a WAL or interference run, in the Advice screen's words and colours."""
        advice = self.query_one("#bench-advice", Static)
        findings = run_findings(record)
        advice.display = kind_of(record.workload).judged
        advice.update(bench_advice.advice_text(findings) if advice.display else "")
        self._judged = record
        self._label_longer()

    @on(ThresholdRow.Changed)
    def rejudge(self) -> None:
        """Apply the picked threshold: the chart's limit line, and the verdict once a run has ended.

        An unusable custom value is shown at the field at once, and nothing is judged against it."""
        row = self.query_one(ThresholdRow)
        row.show_problem()
        threshold, problem = row.picked()
        self._show_judging()
        if threshold is None or self.parked_run.parked:  # a run set aside is judged again when it comes back
            return
        self._show_verdict(row.choice, threshold, problem)

    def _show_live_panes(self, shown: bool) -> None:
        """The progress, figures and layer times once a run starts; before it, what Start runs instead (an
        empty layer table put the threshold row under its headings, and blank panes filled the column).
        The chart and histogram wait for the first run too: empty, they took 17 rows at 120x40 and cut what
        Start runs mid-sentence (newuser7)."""
        for selector in ("#bench-progress-text", "#bench-stats", "#bench-layers-title", "#bench-layers"):
            self.query_one(selector).display = shown
        charted = shown or self.params is not None
        self.query_one("#bench-left").display = charted
        # only a finished run's verdict (an empty verdict's margin put blank rows above the figures)
        self.query_one("#bench-verdict").display = not self.busy and self.result is not None
        self.query_one("#bench-body").set_class(not charted, "-before-run")  # no rule beside a hidden chart
        self.query_one("#bench-previous").display = self.previous is not None
        self.query_one("#bench-plan").display = not shown
        self._show_plan()

    def on_resize(self) -> None:
        """What Start runs is laid again for the new size (which earlier runs fit, said on its title)."""
        self.call_after_refresh(self._show_plan)

    def _show_plan(self) -> None:
        """What Start runs, for the workload the form is set to, and the runs saved on that filesystem
        before (before the first run only: the column's room is for the run once there is one)."""
        plan = self.query_one("#bench-plan", Static)
        if not plan.display:
            return
        if not self.root.live:
            plan.update(view.capture_text())
            return
        form = self.query_one(BenchForm)
        kind = workloads.workload_of(str(self.query_one("#bench-profile", Select).value))
        text = view.plan_text(kind, form.directory)
        if self._earlier is not None and self._earlier.directory == form.directory:
            kept = self._filtered_earlier()
            note = filter_note(self.filter_text, len(kept), len(self._earlier.runs), "runs") \
                if self.filter_text else ""
            earlier = view.earlier_runs_text(kept, form.directory, note)
            plan.update(text + Text("\n\n") + earlier)
            self.call_after_refresh(self._keep_earlier_together, text, earlier)
        else:
            plan.update(text)
        if form.directory and (self._earlier is None or self._earlier.directory != form.directory):
            self.load_earlier(form.directory, form.mountpoint_of(form.directory))

    def _keep_earlier_together(self, plan_text: Text, earlier: Text) -> None:
        """The earlier runs' heading never sits alone on the column's last row with its runs below the fold
        (newuser13, compaction at 80): the blank row above it goes, so the heading and its first run show.
        Runs below the fold are said on the title line, as every list says them (newuser17 #2: at 80x24
        the heading sat at the fold, its rows below, and nothing said so)."""
        plan = self.query_one("#bench-plan", Static)
        column = self.query_one("#bench-body" if self.has_class("-narrow") else "#bench-right")
        width = plan.content_region.width
        if not plan.display or width <= 0 or self._earlier is None:
            return
        top, bottom = plan.content_region.y + column.scroll_offset.y, column.region.bottom
        lines = len(plan_text.wrap(self.app.console, width))
        gap = 0 if top + lines + 1 == bottom - 1 else 1
        kept = self._filtered_earlier()
        rows = [len(row.wrap(self.app.console, width)) for row in view.earlier_run_rows(kept)]
        rows = [lines - 1 for lines in rows]  # (each row's newline wraps to an empty line of its own)
        under = 2 if self.filter_text else 1  # the heading (and the filter's note) above the first row
        note = view.earlier_fold_note(self._fitting(top + lines + gap + under, rows, bottom), len(rows))
        if note:  # the note may wrap the title: count again with it
            lines = len(view.with_title_note(plan_text, note).wrap(self.app.console, width))
            note = view.earlier_fold_note(self._fitting(top + lines + gap + under, rows, bottom), len(rows))
        plan.update(view.with_title_note(plan_text, note) + Text("\n" * (gap + 1)) + earlier)

    @staticmethod
    def _fitting(row: int, heights: list[int], bottom: int) -> int:
        """How many of the rows of `heights` lines each, the first on screen row `row`, start above `bottom`
        (a row's wrapped tag, `[host busy]`, may be below it)."""
        shown = 0
        for lines in heights:
            if row >= bottom:
                break
            row += lines
            shown += 1
        return shown

    @work(thread=True, exclusive=True, group="bench-earlier", exit_on_error=False,
          description="read the runs saved on this filesystem")
    def load_earlier(self, directory: str, mountpoint: str | None) -> None:
        """Worker: the saved runs on the filesystem holding `directory` (every run file is parsed)."""
        try:
            runs = RunStore().scan().newest_first()
        except RunStoreError:
            runs = []
        here = [run for run in runs if run.stack.target.directory == directory
                or (mountpoint is not None and run.stack.target.mountpoint == mountpoint)]
        listed = [(run.when(), run.kind, " ".join(part for part, _ in headline_parts(run) if part))
                  for run in here[:view.EARLIER_RUNS]]
        self.post_message(EarlierRuns(directory, listed))

    @on(EarlierRuns)
    def _earlier_runs(self, message: EarlierRuns) -> None:
        self._earlier = message
        self._show_plan()

    def _show_judging(self) -> None:
        """The threshold row and the chart's limit line only where something is judged against them.

        The chart's limit follows the workload it draws (before any run: the form's); the row shows while the
        run on screen or the next Start is a WAL or interference run, so compaction and randwrite, which
        have no verdict, never look judged."""
        form_kind = workloads.workload_of(str(self.query_one("#bench-profile", Select).value))
        charted = self.kind if self.params is not None and not self.parked_run.parked else form_kind
        row = self.query_one(ThresholdRow)
        row.display = self.root.live and (kind_of(charted).judged or kind_of(form_kind).judged)
        threshold, _ = row.picked()
        chart = self.query_one(PercentileChart)
        if not kind_of(charted).judged:
            chart.set_threshold(None)
        elif threshold is not None:  # an unusable custom value leaves the last usable limit drawn
            chart.set_threshold(threshold, view.LIMIT_LABELS.get(row.choice, ""))
        self.refresh_bindings()

    def action_phase(self) -> None:
        """Show the finished run's chart: in one column, where the verdict heads the screen, the first c
        brings the chart of the load shown (the judged one) into view; then each c shows the next load, the
        chart kept in view (newuser14 #1: c stepped loads off screen, under a rule or a histogram's tail)."""
        if self.busy:
            return
        self._pin_verdict = False  # the verdict no longer pulls the column back over the chart
        if self.has_class("-narrow"):
            body = self.query_one("#bench-body")
            if body.scroll_y > 0:
                body.scroll_home(animate=False)  # the chart's title says the load and "judged: load 1 of 3"
                return
        self.live.step_phase()
        if self.has_class("-narrow"):
            self.query_one("#bench-body").scroll_home(animate=False)

    def action_threshold(self) -> None:
        """Cycle the threshold profile: etcd docs, vendor, custom."""
        self.query_one(ThresholdRow).cycle()

    def action_cancel(self) -> None:
        """Stop the engine (or fio); the child removes its scratch directory."""
        self.engine.cancel()
        self.fio_run.cancel()

    @on(Button.Pressed, "#bench-again")
    def action_again(self) -> None:
        if self.params and self.target:
            self.start_run(self.params, self.target.directory)

    @on(Button.Pressed, "#bench-longer")
    def action_longer(self) -> None:
        longer = self._longer()
        if longer is not None and self.target:
            self.start_run(longer[0], self.target.directory)

    def _label_longer(self) -> None:
        """The longer button shown when the run can be lengthened, saying what it runs ("Run 10 s per load",
        as the advice's fix for an INCONCLUSIVE verdict does)."""
        longer = self._longer()
        self.query_one("#bench-longer").display = longer is not None
        if longer is not None:
            self.query_one("#bench-longer", Button).label = longer[1]

    def _longer(self) -> tuple[WalParams | RandwriteParams, str] | None:
        """The run the longer button starts, and its words ("Run 10 s", "Run 88 MiB"): for an INCONCLUSIVE
        verdict the length that would settle it (as Advice's fix says), else four times this run's."""
        if not (self.params and self.target) or not kind_of(self.kind).form.can_lengthen:
            return None
        record = self._judged or self.record  # judged against the threshold picked now
        verdict = record.verdict() if record is not None else None
        settle = settle_seconds(getattr(verdict, "settle", None)) if verdict is not None and \
            verdict_word(verdict) == "INCONCLUSIVE" else None
        if isinstance(self.params, RandwriteParams):
            seconds = settle or (self.params.duration_s or 30) * LONGER_FACTOR
            return replace(self.params, duration_s=seconds), f"Run {seconds:g} s"
        params = self.params
        assert isinstance(params, WalParams)
        if params.duration_s or settle:
            seconds = settle or (params.duration_s or 0) * LONGER_FACTOR
            longer = profile_params("etcd", bs=params.bs, size=params.size, sync=params.sync,
                                    prealloc=params.prealloc, duration_s=seconds)
            return longer, f"Run {seconds:g} s" + (" per load" if longer.rates else "")
        longer = profile_params("etcd", bs=params.bs, size=params.size * LONGER_FACTOR, sync=params.sync,
                                prealloc=params.prealloc)
        return longer, f"Run {binary_size(longer.size)}"

    @on(Button.Pressed, "#bench-run-fio")
    def action_fio(self) -> None:
        """Run the equivalent fio job on the same directory and show it next to our figures."""
        if self.busy or self.params is None or self.target is None or self.result is None:
            self._status("Finish a run first; fio then runs the same job on the same directory.")
            return
        if fio_available() is None:
            self._status("fio is not installed (apt-get install fio).")
            return
        self.busy = True
        self.refresh_bindings()
        self.fio_run.start(self.kind, self.params, self.target.directory)

    def _fio_tick(self, elapsed_s: float) -> None:
        """fio prints nothing until it ends: say how long it has run against how long our run took."""
        if not self.busy or self.result is None or self.target is None:
            return
        if isinstance(self.result, InterferenceResult):
            ours = self.result.alone.duration_s + self.result.under_compaction.duration_s
        else:
            ours = float(getattr(self.result, "duration_s", 0.0))
        took = f"our run of the same job took {view.elapsed_text(ours)}"
        self.query_one(StatusLine).say((f"Running fio on {self.target.directory}: {elapsed_s:.0f} s", 0),
                                       ("Esc cancels", 1), (took, 2))

    @on(FioEnded)
    def show_fio(self, message: FioEnded) -> None:
        self.busy = False
        self.fio_run.ended()
        self.refresh_bindings()
        if self.fio_run.cancel_requested:
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
        if event.state == WorkerState.ERROR and event.worker.group in (bench_run.WORKER_GROUP,
                                                                        bench_fio_run.WORKER_GROUP):
            self.busy = False
            self.query_one(LatencyBars).display = True  # left out while a run went at 80x24
            self.engine.ended()
            self.fio_run.ended()
            self._status(f"internal error: {event.worker.error} (please report it)")

    def on_unmount(self) -> None:
        self.action_cancel()

    def _phase_status(self, text: str) -> None:
        """A phase of the run ("closed loop (capacity)… · Esc cancels"), said now and kept beside the
        progress."""
        self._phase = text.partition("…")[0]
        if self.busy and self.running_parts:  # keeps what the run is, its load and its progress
            self._say_running()
        else:
            self._status(text)

    def _status(self, text: str) -> None:
        self.query_one(StatusLine).say(text)
        self._problem_form = None

    def _form_problem(self, text: str) -> None:
        """A problem with what the form says: on the status line until the form says something else."""
        self._status(text)
        self._problem_form = self.query_one(BenchForm).values()
        self._said = self.query_one(BenchForm).directory  # a late change message for it leaves the problem

    @on(Input.Changed, "#bench-form Input")
    @on(Select.Changed, "#bench-form Select")
    @on(Checkbox.Changed, "#bench-form Checkbox")
    def _form_changed(self, event: Input.Changed | Select.Changed | Checkbox.Changed) -> None:
        """Once the form is changed, the problem shown for its old values is gone from the status line; a
        directory typed or picked from the filesystem menu is named there at once."""
        if event.control.id == "bench-profile":
            self._back_to_run_tab(workloads.workload_of(str(event.value)))
            self._show_judging()
        if event.control.id in ("bench-profile", "bench-dir"):
            self._show_plan()
        form = self.query_one(BenchForm)
        if event.control.id == "bench-fs" and isinstance(event.value, str) and self.focused is not None \
                and (self.focused is event.control or event.control in self.focused.ancestors):
            self._origin = (event.value, "picked from the filesystem menu")
        if (event.control.id == "bench-dir" and form.directory != self._said) or \
                (self._problem_form is not None and not self.busy and form.values() != self._problem_form):
            self._say_target()
        self._follow_form()

    def _back_to_run_tab(self, kind: str) -> None:
        """Back on the tab of the run set aside, the form says that run again (its seconds, size and load,
        not the tab's defaults), so the run comes back as it was, as a k9s or lazygit view keeps its place."""
        came_back = kind != self._form_kind and kind == self.kind
        self._form_kind = kind
        if came_back and self.parked_run.parked and self.parked_run.form is not None and not self.busy:
            self.query_one(BenchForm).restore(self.parked_run.form)

    def _follow_form(self) -> None:
        """The finished run stays on screen while the form says what it ran; once the form describes another
        run (another workload's tab, directory or setting: newuser15 saw `]` keep the WAL run's verdict
        and chart under the compaction tab) what Start runs shows instead, as before any run, and the run
        comes back when the form says it again (it is saved: key 5 lists it, and so does what Start runs)."""
        if self.busy or self.params is None or not self.root.live:
            return
        form = self.query_one(BenchForm)
        if self.parked_run.differs(form.values()):
            if self.parked_run.parked:
                return
            self._pin_verdict = False
            self.parked_run.park(form.folded)
            self._threshold_by_verdict(False)  # under what Start runs, as before any run
            form.fold(None)  # the form that Start runs, whole
            self._earlier = None  # read again: the run just saved is among them
            self._show_judging()
            self._show_plan()
            self._say_target()
            self.refresh_bindings()
        elif self.parked_run.parked:
            if self.parked_run.unpark() and self._can_fold():
                self._fold_form()
            self._threshold_by_verdict(self.result is not None)
            self.rejudge()  # its verdict on the status line again, its judged load on the chart
            if self.has_class("-narrow") and self.result is not None:  # the verdict heads the column again
                self._pin_verdict = True
                self.call_after_refresh(self._show_verdict_first)
            self.refresh_bindings()
