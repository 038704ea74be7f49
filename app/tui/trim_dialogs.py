"""Modal dialogs of the TRIM screen: confirm and watch a "trim now", and set the peak window."""

from __future__ import annotations

import time

from diskdoctor.probes.fstrim_run import FstrimResult, HeldMount, run_fstrim
from diskdoctor.probes.host_text import CONTROL_NOTE, shell_quote, spells_control_characters
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from ..base.errors import UsageError
from ..core.trim.peak_window import EXAMPLE, PeakWindow, parse_peak_window
from ..core.trim.rules import TRIM_NOW_RISK
from ..core.trim.trim_now import result_text

TICK_S = 0.2


class ConfirmTrim(ModalScreen[bool]):
    """States the production risk and the exact command; returns True only on an explicit yes."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, mountpoint: str) -> None:
        super().__init__()
        self.mountpoint = mountpoint

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(f"Trim {self.mountpoint} now?"), classes="dialog-title")
            command = f"fstrim --verbose {shell_quote(self.mountpoint)}"
            note = f"\n{CONTROL_NOTE}" if spells_control_characters(command) else ""
            yield Static(Text(f"Runs: {command}{note}\n\nRisk: {TRIM_NOW_RISK} fstrim cannot be paused once "
                              "it starts."))
            with Horizontal(classes="dialog-buttons"):
                yield Button("Trim now", variant="warning", id="confirm")
                yield Button("Cancel", variant="primary", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#cancel", Button).focus()

    @on(Button.Pressed, "#confirm")
    def confirm(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(False)


class TrimProgress(ModalScreen[FstrimResult | None]):
    """Runs fstrim in a worker thread and shows the elapsed time live, then the result."""

    BINDINGS = [Binding("escape", "close", "Close")]

    def __init__(self, mountpoint: str, disks: tuple[str, ...], held: HeldMount) -> None:
        super().__init__()
        self.mountpoint = mountpoint
        self.disks = disks
        self.held = held
        self.result: FstrimResult | None = None
        self.started = time.monotonic()

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(f"fstrim --verbose {shell_quote(self.mountpoint)}"), classes="dialog-title")
            yield Static("starting…", id="trim-progress")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Close", id="close", disabled=True)

    def on_mount(self) -> None:
        self.set_interval(TICK_S, self._tick)
        self.run_trim()

    def _tick(self) -> None:
        if self.result is None:
            elapsed = time.monotonic() - self.started
            self.query_one("#trim-progress", Static).update(f"trimming… {elapsed:.1f} s elapsed")

    @work(thread=True, exclusive=True, group="fstrim", exit_on_error=False, description="run fstrim")
    def run_trim(self) -> None:
        """fstrim blocks for as long as the trim takes, so it runs off the UI thread."""
        try:
            result = run_fstrim(self.mountpoint, watch=self.disks, held=self.held)
        finally:
            self.held.close()
        self.app.call_from_thread(self._finished, result)

    def _finished(self, result: FstrimResult) -> None:
        self.result = result
        text = ("Done. " if result.ok else "") + result_text(result)
        self.query_one("#trim-progress", Static).update(Text(text))
        close = self.query_one("#close", Button)
        close.disabled = False
        close.focus()

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        if self.result is not None:
            self.dismiss(self.result)
        else:
            self.notify("fstrim is still running; it cannot be interrupted safely", severity="warning")


class PeakDialog(ModalScreen[PeakWindow | None | bool]):
    """Asks for busy hours; returns a PeakWindow, None to clear it, or False when cancelled."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, current: PeakWindow | None) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("Peak window (host local time)", classes="dialog-title")
            yield Static(f"Trims scheduled inside it are flagged. {EXAMPLE}; empty clears it.")
            yield Input(value=self.current.text if self.current else "", placeholder="Mon-Fri 08:00-20:00",
                        id="peak-input")
            yield Static("", id="peak-error")

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        if not event.value.strip():
            self.dismiss(None)
            return
        try:
            self.dismiss(parse_peak_window(event.value))
        except UsageError as err:
            self.query_one("#peak-error", Static).update(Text(str(err)))

    def action_cancel(self) -> None:
        self.dismiss(False)
