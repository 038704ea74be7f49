"""The Textual application: a shell of screens (modes) over one Root and one shared host snapshot."""

from __future__ import annotations

import asyncio
import functools
import importlib
import itertools
import signal
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from diskdoctor.probes.root import Root
from diskdoctor.widgets.filter_bar import FilterBar
from diskdoctor.widgets.title_row import TitleRow
from textual import work
from textual.app import App
from textual.binding import Binding
from textual.screen import ModalScreen, Screen
from textual.worker import get_current_worker

from .commands import ScreenActionsProvider
from .early_host import EarlyHost, read_first_host, resume_collector
from .host_snapshot import HostSnapshot, SnapshotFailed, SnapshotReady
from .selection import Selection
from .stylesheet_reuse import ReusingStylesheet

if TYPE_CHECKING:
    from diskdoctor.probes.host import Host

    from ..core.trim.peak_window import PeakWindow
    from .advice_screen import AdviceScreen
    from .guides.quick_bench import QuickSizes

EXIT_INTERRUPTED = 130
NARROW_BELOW = 120
STACK_MODE = "stack"
BENCH_MODE = "bench"
ADVICE_MODE = "advice"
RUNS_MODE = "runs"
MONITOR_MODE = "monitor"
SCREENS = Binding.Group("screens", compact=True)
FOOTER_ONE_LINE_FROM = 189
"""The fewest columns every top-level screen's keys fit one footer line in (the most any needs; checked by
tests/test_chrome_steady.py): under it each takes two, so switching keeps the content's height."""
GUIDES_KEY = "ctrl+g"
"""The walkthroughs open with Ctrl-G anywhere: plain g goes to the first row of a list, as in less and k9s."""


class DiskDoctorApp(App[None]):
    """diskdoctor's interactive UI."""

    CSS_PATH = "../../assets/app.tcss"
    TITLE = "diskdoctor"
    COMMANDS = {ScreenActionsProvider}
    """One provider: the app's own commands first, then Textual's (theme, keys, screenshot, quit); two
    providers would race, and Textual's often came first."""
    SCREENS_BY_MODE: ClassVar[dict[str, tuple[str, str]]] = {
        STACK_MODE: ("Stack", "stack_screen:StackScreen"), "trim": ("TRIM", "trim_screen:TrimScreen"),
        BENCH_MODE: ("Benchmark", "bench.screen:BenchScreen"),
        ADVICE_MODE: ("Advice", "advice_screen:AdviceScreen"), RUNS_MODE: ("Runs", "runs_screen:RunsScreen"),
        MONITOR_MODE: ("Monitor", "monitor_screen:MonitorScreen")}
    """Every top-level screen by mode name: its title and where its class is (module:class). A screen's
    module is imported when the screen is first opened (the bench and advice screens' modules cost
    ~150 ms before the Stack screen could show), then the screen is kept."""
    BINDINGS = [
        Binding("ctrl+c", "interrupt", "Quit", show=False, priority=True),
        Binding("f1,question_mark", "help", "Help", key_display="F1",
                tooltip="What this screen shows, its keys and sources."),
        Binding("1", "show('stack')", "Stack screen", tooltip="Stack: the storage stack explorer.",
                group=SCREENS),
        Binding("2", "show('trim')", "TRIM screen", group=SCREENS,
                tooltip="TRIM: does discard reach the flash, and when is it trimmed?"),
        Binding("3", "show('bench')", "Benchmark screen", group=SCREENS,
                tooltip="Benchmark: storage benchmarks (WAL, compaction, randwrite, interference)."),
        Binding("4", "show('advice')", "Advice screen", group=SCREENS,
                tooltip="Advice: every finding, with its evidence, why, fix, risk and check."),
        Binding("5", "show('runs')", "Runs screen", group=SCREENS,
                tooltip="Runs: saved benchmark runs; pick two to compare."),
        Binding("6", "show('monitor')", "Monitor screen", group=SCREENS,
                tooltip="Monitor: live I/O per layer, who does it, iowait and steal."),
        Binding("w", "write_report", "Report", tooltip="Write a report for a ticket (.html, .md, .json)."),
        Binding(GUIDES_KEY, "guides", "Guides",
                tooltip="Guided walkthroughs: etcd speed, TRIM end to end, a slow node, Elasticsearch/Ceph."),
        Binding("escape,question_mark", "close_keys", show=False, priority=True),  # no palette entry
        Binding("escape", "clear_filter", show=False),  # Esc in a filtered list: every row again
    ]
    DEFAULT_MODE = STACK_MODE
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW_BELOW, "-wide")]
    """Below NARROW_BELOW columns (an 80-column SSH session) the details go under the tree."""

    def __init__(self, root: Root, early: EarlyHost | None = None) -> None:
        super().__init__()
        self.stylesheet = ReusingStylesheet(variables=self.get_css_variables())
        self.root_to_read = root
        self._early = early
        """The first host read, started before Textual (launch.py); taken by the first snapshot."""
        self._first_read = True
        self.snapshot: HostSnapshot | None = None
        """The latest host snapshot every screen draws (see host_snapshot.py)."""
        self.peak_window: PeakWindow | None = None
        self._generations = itertools.count(1)
        self._stopping = False
        self._advice: AdviceScreen | None = None
        self._guide_sizes: QuickSizes | None = None
        self._before_guide = STACK_MODE
        self.selection: Selection | None = None
        """The device or filesystem chosen last on any screen; the others show it (selection.py)."""
        for mode in self.SCREENS_BY_MODE:
            if mode not in (STACK_MODE, ADVICE_MODE, RUNS_MODE):
                self._add_screen(mode, lambda mode=mode: self.screen_class(mode)(root))  # type: ignore[misc]
        self._add_screen(STACK_MODE, self._stack_screen)
        self._add_screen(ADVICE_MODE, self._advice_screen)
        self._add_screen(RUNS_MODE, lambda: self.screen_class(RUNS_MODE)())

    def _add_screen(self, mode: str, make: Callable[[], Screen[None]]) -> None:
        """A top-level screen's mode, the screen titled with its name (its title row lights its key)."""

        def named() -> Screen[None]:
            screen = make()
            screen.title = self.SCREENS_BY_MODE[mode][0]
            return screen

        self.add_mode(mode, named)

    @classmethod
    def screen_keys(cls) -> list[tuple[str, str]]:
        """Each top-level screen's key and name, in key order: `("1", "Stack")` ... `("6", "Monitor")`."""
        return list(cls._screen_keys())

    @classmethod
    @functools.cache
    def _screen_keys(cls) -> tuple[tuple[str, str], ...]:
        """`screen_keys`, made once per class (every title change asks for them)."""
        keys = {binding.action: binding.key for binding in Binding.make_bindings(cls.BINDINGS)}
        return tuple((keys[f"show('{mode}')"], name) for mode, (name, _) in cls.SCREENS_BY_MODE.items())

    def format_title(self, title: str, sub_title: str) -> TitleRow:  # type: ignore[override]
        """Every screen's title row: the screens' keys and names as tabs at every width they fit in (the
        app's name before them from NAMED_FROM), then what the screen shows, which gives way first
        (title_row.py); a screen's title is its name (set by `_add_screen`, or its class's TITLE)."""
        return TitleRow(self.TITLE, self.screen_keys(), title, sub_title)

    def footer_lines(self, screen: Screen[object], width: int) -> int:
        """The lines every top-level screen's footer takes at `width` (fitted_footer.py asks): two under
        FOOTER_ONE_LINE_FROM, else one; 1 for any other screen (a walkthrough, the watch: its own need)."""
        where = f"{type(screen).__module__.removeprefix(__package__ + '.')}:{type(screen).__name__}"
        top_level = any(where == place for _, place in self.SCREENS_BY_MODE.values())
        return 2 if top_level and width < FOOTER_ONE_LINE_FROM else 1

    @property
    def guide_sizes(self) -> QuickSizes:
        """How much the walkthroughs' benchmarks write (tests make them smaller); the engine's modules
        load when a walkthrough first needs them."""
        if self._guide_sizes is None:
            from .guides.quick_bench import QuickSizes

            self._guide_sizes = QuickSizes()
        return self._guide_sizes

    @guide_sizes.setter
    def guide_sizes(self, sizes: QuickSizes) -> None:
        self._guide_sizes = sizes

    @classmethod
    def screen_class(cls, mode: str) -> type[Screen[None]]:
        """The class of a top-level screen, its module imported on first use."""
        module, _, name = cls.SCREENS_BY_MODE[mode][1].partition(":")
        return getattr(importlib.import_module(f"{__package__}.{module}"), name)  # type: ignore[no-any-return]

    def _stack_screen(self) -> Screen[None]:
        """The Stack screen, with the host already in when the early read finished while Textual started
        (its rows are then in the first frame)."""
        self._adopt_early_host()
        return self.screen_class(STACK_MODE)(self.root_to_read)

    def _adopt_early_host(self) -> None:
        """The early read's Host as the first snapshot if it is in (a failed read is the worker's to say)."""
        if self._early is None or self.snapshot is not None or not self._early.done():
            return
        try:
            host = self._early.take()
        except Exception:  # the worker takes the same error and says it
            return
        if host is not None:
            self.snapshot = HostSnapshot(next(self._generations), host, peak=self.peak_window)

    def _advice_screen(self) -> AdviceScreen:
        """The Advice screen, given the shared snapshot when it is already read (no second host read)."""
        snapshot = self.snapshot if self.snapshot is not None and self.snapshot.trim_facts else None
        from .advice_screen import AdviceScreen

        self._advice = AdviceScreen(self.root_to_read, host=snapshot.host if snapshot else None,
                                    trim=snapshot.trim_facts if snapshot else None)
        return self._advice

    async def action_show(self, mode: str) -> None:
        """Switch to a top-level screen, keeping each screen's state for when the user comes back."""
        if mode != self.current_mode:
            await self.switch_mode(mode)

    async def run_screen_action(self, mode: str, action: str) -> None:
        """Run a screen's action from the command palette: switch to its screen first."""
        if not mode:
            await self.run_action(action)
            return
        await self.action_show(mode)
        await self.screen.run_action(action)

    async def benchmark_directory(self, directory: str) -> None:
        """Open the benchmark screen with `directory` chosen (from a row of the stack or TRIM screen)."""
        await self.action_show(BENCH_MODE)
        screen = self.screen
        if isinstance(screen, self.screen_class(BENCH_MODE)):
            screen.choose_directory(directory)  # type: ignore[attr-defined]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Esc and ? close the Keys panel only while it is open; ? opens help only on a top-level screen."""
        if action == "close_keys":
            return bool(self.screen.query("HelpPanel"))  # by name: its import (Markdown) is ~30 ms
        if action == "help":
            return not isinstance(self.screen, ModalScreen)
        if action == "clear_filter":
            return self._applied_filter() is not None
        return True

    def _applied_filter(self) -> FilterBar | None:
        """The screen's `/` filter line when it holds a filter (Esc in its list clears it)."""
        return next((bar for bar in self.screen.query(FilterBar) if bar.value.strip()), None)

    def action_clear_filter(self) -> None:
        """Esc with the focus on a filtered list: the filter goes, every row shows again."""
        bar = self._applied_filter()
        if bar is not None:
            bar.action_clear_filter()

    def action_close_keys(self) -> None:
        self.action_hide_help_panel()

    def action_help(self) -> None:
        """Open the current screen's help."""
        from .help_screen import EXTRA_KEYS, HelpScreen, bindings_of, key_display
        from .screen_help import ScreenHelp

        screen = self.screen
        help_data = getattr(screen, "SCREEN_HELP", None) or ScreenHelp(
            title=type(screen).__name__.removesuffix("Screen"), shows=(type(screen).__doc__ or "").strip(),
            words=(), sources=())
        keys = [(key_display(b, self.get_key_display), b.tooltip or b.description)
                for b in bindings_of(screen, self.BINDINGS)]
        self.push_screen(HelpScreen(help_data, keys + list(EXTRA_KEYS)))

    def on_mount(self) -> None:
        """Hang-up and SIGTERM end the app through the event loop; the first snapshot is read; the cycle
        collector runs again after the first frame."""
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGHUP, signal.SIGTERM):
            loop.add_signal_handler(signum, self._stop_on_signal, signum)
        self.screen_change_signal.subscribe(self, self._mark_under_modal)
        self.call_after_refresh(resume_collector)  # paused by the early read's start, until the first frame
        self.refresh_snapshot()

    def on_unmount(self) -> None:
        """The cycle collector runs again however the app ended (one that stopped before its first frame)."""
        resume_collector()

    def _mark_under_modal(self, _screen: Screen[object]) -> None:
        """The screens under a dialog are marked `-under-modal`: their scrollbars are not drawn there (a
        thumb showed through beside the guides menu at 80x24), the table keeping its width."""
        stack = self.screen_stack
        top_is_modal = bool(stack) and isinstance(stack[-1], ModalScreen)
        for screen in stack[:-1]:
            screen.set_class(top_is_modal, "-under-modal")
        if stack:
            stack[-1].remove_class("-under-modal")

    def refresh_snapshot(self) -> None:
        """Read the host again off the UI thread; every screen gets the new snapshot."""
        early, self._early = self._early, None  # the early read serves the first snapshot only
        first, self._first_read = self._first_read, False
        self.read_snapshot(self.peak_window, early, self.snapshot.host if self.snapshot else None, first)

    @work(thread=True, exclusive=True, group="snapshot", exit_on_error=False, description="read the host")
    def read_snapshot(self, peak: PeakWindow | None, early: EarlyHost | None = None,
                      shown: Host | None = None, first: bool = False) -> None:
        """Worker: the Host first (the stack draws it at once; the early read's when there is one, already
        shown when it came in before the Stack screen), then TRIM facts and verdicts."""
        from diskdoctor.probes.host import read_host

        from ..core.snapshot import read_snapshot

        worker = get_current_worker()
        try:
            if early is not None:
                host = early.take()
            else:
                host = read_first_host(self.root_to_read) if first else read_host(self.root_to_read)
        except Exception as err:  # a probe bug must never kill the app
            self.post_message(SnapshotFailed(f"could not read the host: {err}"))
            return
        if worker.is_cancelled or host is None:
            return
        if host is not shown:
            self.post_message(SnapshotReady(HostSnapshot(next(self._generations), host, peak=peak)))
        try:
            read = read_snapshot(self.root_to_read, peak=peak, host=host)
            snapshot = HostSnapshot(next(self._generations), host, read.trim_facts, read.verdicts, peak=peak)
        except Exception as err:
            snapshot = HostSnapshot(next(self._generations), host, None, (),
                                    f"could not read the TRIM facts: {err}", peak)
        if not worker.is_cancelled:
            self.post_message(SnapshotReady(snapshot))

    def on_snapshot_ready(self, message: SnapshotReady) -> None:
        """Keep the newest snapshot and hand it to the screens being shown (others take it on resume)."""
        if self.snapshot is not None and message.snapshot.generation <= self.snapshot.generation:
            return
        self.snapshot = message.snapshot
        for screen in self.screen_stack:
            screen.post_message(SnapshotReady(message.snapshot))
        snapshot = message.snapshot
        if self._advice is not None and snapshot.trim_facts is not None:
            self._advice.show_snapshot(snapshot.host, snapshot.trim_facts)  # rules re-run off the UI thread

    def on_snapshot_failed(self, message: SnapshotFailed) -> None:
        for screen in self.screen_stack:
            screen.post_message(SnapshotFailed(message.reason))

    def _stop_on_signal(self, signum: int) -> None:
        """The first signal starts a graceful exit and a watchdog; a repeat (the terminal and the
        binary's bootloader both send SIGHUP) changes nothing."""
        if self._stopping:
            return
        self._stopping = True
        from ..core.process.hangup import note_signal, start_watchdog

        note_signal(signum)
        start_watchdog(128 + signum)
        self.exit(return_code=128 + signum)

    def action_guides(self) -> None:
        """The walkthrough menu."""
        from .guides.catalog import guides
        from .guides.guide_menu import GuideMenu

        def chosen(key: str | None) -> None:
            if key:
                self.call_later(self.action_open_guide, key)

        self.push_screen(GuideMenu(guides()), chosen)

    async def action_open_guide(self, key: str) -> None:
        """Open a walkthrough (the same one again keeps its answers; its screen is its own mode)."""
        from .guides.catalog import guide_by_key
        from .guides.guide_screen import GuideScreen

        mode = f"guide-{key}"
        if mode not in self._modes:
            guide = guide_by_key(key)
            self.add_mode(mode, lambda: GuideScreen(self.root_to_read, guide, self.guide_sizes))
        if not self.current_mode.startswith("guide-"):
            self._before_guide = self.current_mode
        await self.switch_mode(mode)

    async def leave_guide(self) -> None:
        """Back to the screen the walkthrough was opened from."""
        await self.switch_mode(self._before_guide)

    async def show_findings(self, ctx: object) -> None:
        """The Advice screen, judging a walkthrough's benchmark results too."""
        from .advice_screen import AdviceScreen
        from .guides.common_steps import bench_contexts

        await self.action_show(ADVICE_MODE)
        screen = self.screen
        if isinstance(screen, AdviceScreen):
            screen.bench = bench_contexts(ctx)  # type: ignore[arg-type]
            screen.load()

    def action_write_report(self) -> None:
        """Open the report dialog; it builds the report from the snapshot the screens show, off the UI
        thread (reading the host itself only when no snapshot is in yet)."""
        if self.snapshot is not None:
            hostname = self.snapshot.host.hostname
        else:
            hostname, _ = self.root_to_read.read_attr("proc/sys/kernel/hostname")  # one tiny file: fine
        from .report_dialog import ReportDialog

        self.push_screen(ReportDialog(self.root_to_read, hostname, self.snapshot))

    def action_interrupt(self) -> None:
        """Ctrl-C quits at once, with the shell's exit code for an interrupt."""
        self.exit(return_code=EXIT_INTERRUPTED)
