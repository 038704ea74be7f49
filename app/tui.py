"""The Textual application: a shell of screens (modes) over one Root, switched with number keys."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable

from diskdoctor.probes.root import Root
from textual.app import App
from textual.binding import Binding
from textual.screen import Screen

from .advice_screen import AdviceScreen
from .bench_screen import BenchScreen
from .hangup import note_signal, start_watchdog
from .report.report_dialog import ReportDialog
from .runs.runs_screen import RunsScreen
from .stack_screen import StackScreen
from .trim_screen import TrimScreen

EXIT_INTERRUPTED = 130
NARROW_BELOW = 120
STACK_MODE = "stack"


def screen_factories(root: Root) -> dict[str, Callable[[], Screen[None]]]:
    """Every top-level screen by mode name (each built on first visit, then kept)."""
    return {STACK_MODE: lambda: StackScreen(root), "trim": lambda: TrimScreen(root),
            "bench": lambda: BenchScreen(root), "advice": lambda: AdviceScreen(root),
            "runs": lambda: RunsScreen()}


class DiskDoctorApp(App[None]):
    """diskdoctor's interactive UI."""

    CSS_PATH = "../assets/app.tcss"
    TITLE = "diskdoctor"
    BINDINGS = [
        Binding("ctrl+c", "interrupt", "Quit", show=False, priority=True),
        Binding("1", "show('stack')", "Stack", tooltip="The storage stack explorer."),
        Binding("2", "show('trim')", "TRIM", tooltip="Does TRIM reach the flash, and when is it trimmed?"),
        Binding("3", "show('bench')", "Benchmark", tooltip="WAL (write + fdatasync) benchmark."),
        Binding("4", "show('advice')", "Advice", tooltip="Every finding: evidence, why, fix, risk, verify."),
        Binding("5", "show('runs')", "Runs", tooltip="Saved benchmark runs: pick two to compare."),
        Binding("w", "write_report", "Report", tooltip="Write a report for a ticket (.html, .md, .json)."),
    ]
    DEFAULT_MODE = STACK_MODE
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW_BELOW, "-wide")]
    """Below NARROW_BELOW columns (an 80-column SSH session) the details go under the tree."""

    def __init__(self, root: Root) -> None:
        super().__init__()
        self.root_to_read = root
        self._stopping = False
        for mode, factory in screen_factories(root).items():
            self.add_mode(mode, factory)

    async def action_show(self, mode: str) -> None:
        """Switch to a top-level screen, keeping each screen's state for when the user comes back."""
        if mode != self.current_mode:
            await self.switch_mode(mode)

    def on_mount(self) -> None:
        """Hang-up and SIGTERM end the app through the event loop (with a watchdog if that stalls)."""
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGHUP, signal.SIGTERM):
            loop.add_signal_handler(signum, self._stop_on_signal, signum)

    def _stop_on_signal(self, signum: int) -> None:
        """The first signal starts a graceful exit and a watchdog; a repeat (the terminal and the
        binary's bootloader both send SIGHUP) changes nothing."""
        if self._stopping:
            return
        self._stopping = True
        note_signal(signum)
        start_watchdog(128 + signum)
        self.exit(return_code=128 + signum)

    def action_write_report(self) -> None:
        """Open the report dialog (the report reads the host once, off the UI thread)."""
        hostname, _ = self.root_to_read.read_attr("proc/sys/kernel/hostname")  # one tiny file: fine here
        self.push_screen(ReportDialog(self.root_to_read, hostname))

    def action_interrupt(self) -> None:
        """Ctrl-C quits at once, with the shell's exit code for an interrupt."""
        self.exit(return_code=EXIT_INTERRUPTED)
