"""The TUI's "write a report" dialog: a file name (its suffix picks the format), written off the UI thread."""

from __future__ import annotations

import datetime as dt
import os
import re

from diskdoctor.probes.root import Root
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from ..formatting import counted
from .model import build_report
from .report_cli import render_report
from .writer import ReportWriteError, report_format, write_report_file


def default_report_name(hostname: str | None, now: dt.datetime) -> str:
    """diskdoctor-HOST-20261122-0930.html in the current folder (host name reduced to safe characters)."""
    host = re.sub(r"[^A-Za-z0-9._-]+", "_", hostname or "host").strip("._") or "host"
    return os.path.join(os.getcwd(), f"diskdoctor-{host}-{now:%Y%m%d-%H%M}.html")


class ReportDialog(ModalScreen[str | None]):
    """Asks where to write the report; returns the path written, or None when cancelled."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, root: Root, hostname: str | None) -> None:
        super().__init__()
        self.root = root
        self.hostname = hostname
        self.written: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("Write a report for a ticket", classes="dialog-title")
            yield Static("Host, storage stack, TRIM verdicts, findings and the newest saved run of each "
                         "filesystem. The name picks the format: .html (one self-contained file), .md "
                         "or .json.")
            yield Input(default_report_name(self.hostname, dt.datetime.now()), id="report-path")
            yield Static("", id="report-result")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Write", variant="primary", id="report-write")
                yield Button("Close", id="report-close")

    @on(Button.Pressed, "#report-write")
    @on(Input.Submitted, "#report-path")
    def write(self) -> None:
        """Check the name, then build and write the report in a worker."""
        path = self.query_one("#report-path", Input).value.strip()
        try:
            report_format(path)
        except ReportWriteError as err:
            self._say(str(err), error=True)
            return
        self.query_one("#report-write", Button).disabled = True
        self._say(f"Reading the host and writing {path}…")
        self.write_report(path)

    @work(thread=True, exclusive=True, group="report", exit_on_error=False)
    def write_report(self, path: str) -> None:
        """Read the host once, render, write atomically; the outcome goes back to the UI thread."""
        try:
            report = build_report(self.root)
            write_report_file(path, render_report(report, report_format(path)))
        except ReportWriteError as err:
            self.app.call_from_thread(self._finished, None, str(err))
            return
        except Exception as err:  # a probe bug must not leave the dialog stuck
            self.app.call_from_thread(self._finished, None, f"internal error: {err} (please report it)")
            return
        summary = (f"Wrote {path}: {counted(len(report.findings), 'finding')}, "
                   f"{counted(len(report.verdicts), 'TRIM verdict')}, {counted(len(report.runs), 'run')}.")
        self.app.call_from_thread(self._finished, path, summary)

    def _finished(self, path: str | None, message: str) -> None:
        self.written = path or self.written
        self.query_one("#report-write", Button).disabled = False
        self._say(message, error=path is None)
        self.query_one("#report-close", Button).focus()

    def _say(self, message: str, *, error: bool = False) -> None:
        self.query_one("#report-result", Static).update(Text(message, style="bold red" if error else "green"))

    @on(Button.Pressed, "#report-close")
    def action_cancel(self) -> None:
        self.dismiss(self.written)
