"""The TUI's "write a report" dialog: a file name (its suffix picks the format), written off the UI thread."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import re
from typing import Any

from diskdoctor.probes.host_text import visible
from diskdoctor.probes.root import Root
from diskdoctor.widgets.fit_text import path_ellipsis
from rich.cells import cell_len
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.strip import Strip
from textual.widgets import Button, Input, Static
from textual.widgets.input import Selection

from ..report.model import build_report
from ..report.render import render_report
from ..report.writer import (
    ReportWriteError,
    default_report_dir,
    make_report_dir,
    report_format,
    write_report_file,
)
from .host_snapshot import HostSnapshot


def default_report_name(hostname: str | None, now: dt.datetime, folder: str | None) -> str:
    """diskdoctor-HOST-20261122-0930.html in the reports folder beside the saved runs (the current folder
    where there is none); the host name reduced to safe characters."""
    host = re.sub(r"[^A-Za-z0-9._-]+", "_", hostname or "host").strip("._") or "host"
    return os.path.join(folder or os.getcwd(), f"diskdoctor-{host}-{now:%Y%m%d-%H%M}.html")


class NameField(Input):
    """The report's name: focused, all of it selected (typing replaces it), and, when it is wider than the
    field, shown from its start with the cursor there (at 80 columns the field showed
    `kdoctor/reports/diskdoctor-…`, a name starting mid-word); End goes to its end. While the whole name is
    selected (or the field is not focused), a name too wide is shown cut at its folders by the one path
    rule, its file name and the extension that picks the format whole (newuser20 #11: the `.html` was past
    the field's end); the value stays whole, and editing shows it as typed."""

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        selected = self.has_focus and sorted(self.selection) == [0, len(self.value)]
        if y != 0 or not self.value or width <= 0 or cell_len(self.value) <= width or (
                self.has_focus and not selected):
            return super().render_line(y)
        shown = Text(path_ellipsis(self.value, width), no_wrap=True, overflow="ignore", end="")
        if selected:
            shown.stylize(self.get_component_rich_style("input--selection"))
            if self._cursor_visible:
                shown.stylize(self.get_component_rich_style("input--cursor"), 0, 1)
        options = self.app.console_options.update_width(width + 1)
        strip = Strip(list(self.app.console.render(shown, options))).extend_cell_length(width + 1)
        return strip.crop(0, width + 1).apply_style(self.rich_style)

    def _on_focus(self, event: events.Focus) -> None:
        super()._on_focus(event)
        self.call_after_refresh(self._show_start)

    def _show_start(self) -> None:
        """The cursor at the start, the whole name still selected, where the name does not fit the field."""
        width = self.scrollable_content_region.width
        if width and self.has_focus and self.content_width > width:
            self.selection = Selection(len(self.value), 0)
            self.scroll_to(0, animate=False, immediate=True)


NOTIFY_SECONDS = 10
"""The notice naming the report's full path stays long enough to copy it (over the footer, it hides no
figure meanwhile)."""
TOAST_GUTTER = 4
"""A notice is as wide as the screen at most (app.tcss), 4 columns of it edge and padding."""
WRITTEN_TITLE = "Report written"
"""The notice's title, followed by what the report holds; its text is the path (folder lines, then the
file name, when the path is wider than the screen)."""


class ReportDialog(ModalScreen[str | None]):
    """Asks where to write the report; returns the path written, or None when cancelled. Every outcome is
    said: an error in the dialog; a written report, or a close without one, in a notice."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, root: Root, hostname: str | None, snapshot: HostSnapshot | None = None) -> None:
        super().__init__()
        self.root = root
        self.hostname = hostname
        self.snapshot = snapshot
        """The host snapshot the screens show: the report is built from it, so it says what they say."""
        self.written: str | None = None
        self.replace_path: str | None = None
        """A path the user was told exists: writing it again replaces it (the TUI's --force)."""
        self.report_dir = default_report_dir()
        """Where the proposed name goes; created on the first write there (a typed folder must exist)."""
        self._dismissed = False
        """Dismissed (by Close, Esc or a written report): nothing more to do or say here."""
        self.clock = dt.datetime.now
        """The time a proposed name carries: when the dialog opens, and again when the report is written."""
        self._proposed = ""
        """The name the dialog proposed (not one the user typed): it is renamed to the write time."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("Write a report for a ticket", classes="dialog-title")
            yield Static("Host, storage stack, TRIM verdicts, findings and the newest saved run of each "
                         "filesystem. The name picks the format: .html (one self-contained file), .md "
                         "or .json.")
            self._proposed = default_report_name(self.hostname, self.clock(), self.report_dir)
            yield NameField(self._proposed, id="report-path")
            yield Static("", id="report-where")  # the field shows the name's start; this, the whole path
            yield Static("", id="report-result")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Write", variant="primary", id="report-write")
                yield Button("Close", id="report-close")

    @on(Button.Pressed, "#report-write")
    @on(Input.Submitted, "#report-path")
    def write(self) -> None:
        """Check the name, then build and write the report in a worker (a proposed name left as it was
        carries the time the report is written, not the time the dialog or the app opened)."""
        field = self.query_one("#report-path", Input)
        if self._proposed and field.value == self._proposed:
            self._proposed = default_report_name(self.hostname, self.clock(), self.report_dir)
            field.value = self._proposed
        path = self._typed_path()
        if not path:
            self._said_error("Give a file name ending in .html, .md or .json.")
            return
        try:
            report_format(path)
        except ReportWriteError as err:
            self._said_error(str(err))
            return
        if os.path.isdir(path):
            self._said_error(f"{visible(path)} is a folder: end the name with a file name, e.g. "
                             f"{visible(os.path.join(path, 'report.html'))}")
            return
        force = path == self.replace_path
        if os.path.lexists(path) and not force:
            self.replace_path = path
            self.query_one("#report-write", Button).label = "Replace"
            self._said_error(f"{visible(path)} already exists: Enter or Replace overwrites it, or change "
                             "the name.")
            return
        self.query_one("#report-write", Button).disabled = True
        doing = "Writing" if self.snapshot is not None else "Reading the host and writing"
        self._say(f"{doing} {visible(path)}…")
        self.write_report(path, force)

    def _typed_path(self) -> str:
        """The name typed, as the full path it will be written to (~ expanded, relative to the current
        folder), or "" when nothing is typed."""
        typed = self.query_one("#report-path", Input).value.strip()
        return os.path.abspath(os.path.expanduser(typed)) if typed else ""

    def on_mount(self) -> None:
        self.name_changed()

    @on(Input.Changed, "#report-path")
    def name_changed(self) -> None:
        """The whole path the name stands for, wrapped under the field (at 80 columns the field shows only
        its start); a new name is a new question: the next write never replaces a file without asking
        again."""
        path = self._typed_path()
        folder, name = os.path.split(path)
        where = Text.assemble(("folder ", "dim"), visible(folder), ("\nfile   ", "dim"), visible(name))
        self.query_one("#report-where", Static).update(where if path else "")
        if self.replace_path is not None and self._typed_path() != self.replace_path:
            self.replace_path = None
            self.query_one("#report-write", Button).label = "Write"

    @work(exclusive=True, group="report", exit_on_error=False, description="write a report")
    async def write_report(self, path: str, force: bool = False) -> None:
        """Build the report (in a thread: it may read the host), render it and write it atomically; then
        say the outcome here, on the UI side."""
        path_written, message = await asyncio.to_thread(self._build_and_write, path, force)
        self._finished(path_written, message)

    def _build_and_write(self, path: str, force: bool) -> tuple[str | None, str]:
        """(path, what the report holds) once written, or (None, why not): never raises."""
        try:
            if self.report_dir is not None and os.path.dirname(path) == os.path.abspath(self.report_dir):
                make_report_dir(self.report_dir)
            report = build_report(self.root, **snapshot_parts(self.snapshot))
            write_report_file(path, render_report(report, report_format(path)), force=force)
        except ReportWriteError as err:
            return None, str(err)
        except Exception as err:  # a probe bug must not leave the dialog stuck
            return None, f"internal error: {err} (please report it)"
        summary = (f"{_count(len(report.findings), 'finding')}, "
                   f"{_count(len(report.verdicts), 'TRIM verdict')}, {_count(len(report.runs), 'run')}.")
        if report.skipped_runs:
            left = "it is" if report.skipped_runs == 1 else "they are"
            summary += (f" Skipped {_count(report.skipped_runs, 'file')} of the runs folder (left as {left}; "
                        "named in the report's notes).")
        return path, summary

    def _finished(self, path: str | None, message: str) -> None:
        """Say the outcome: an error in the dialog, which stays open on the name to change; a written report
        in a notice naming the whole path and what it holds, and the dialog closes (keys typed next go to
        the screen, not to a dialog whose work is done)."""
        self.written = path or self.written
        if path is None:
            self.query_one("#report-write", Button).disabled = False
            self._said_error(message)
            return
        self._say(f"Wrote {os.path.abspath(path)}: {message}")
        width = self.app.size.width - TOAST_GUTTER
        self.app.clear_notifications()  # an older notice would stack above this one, over the status line
        self.app.notify(written_notice(path, width), title=f"{WRITTEN_TITLE}: {message}",
                        timeout=NOTIFY_SECONDS, markup=False)
        if not self._dismissed:
            self._dismissed = True
            self.dismiss(path)

    def _said_error(self, message: str) -> None:
        """Show what is wrong and give the name field the focus back, since that is what must change."""
        self._say(message, error=True)
        self.query_one("#report-path", Input).focus()

    def _say(self, message: str, *, error: bool = False) -> None:
        self.query_one("#report-result", Static).update(Text(message, style="bold red" if error else "green"))

    @on(Button.Pressed, "#report-close")
    def action_cancel(self) -> None:
        """Close, saying that nothing was written; while a write is under way the dialog stays (it closes
        itself once the report is written, or shows why not)."""
        if self._dismissed:
            return
        if self.query_one("#report-write", Button).disabled:
            self._say("Still writing: this closes when the report is written, or says why it is not.")
            return
        self._dismissed = True
        if self.written is None:
            self.app.notify("No report written.", timeout=5)
        self.dismiss(self.written)

    def on_key(self, event: events.Key) -> None:
        """Typing with a button focused edits the name (Ctrl-U, a path and Enter once went to the Close
        button: nothing was written and nothing said)."""
        field = self.query_one("#report-path", Input)
        typed = event.is_printable and event.key != "space"  # Space still presses the focused button
        if self.focused is field or not (typed or event.key in ("ctrl+u", "backspace")):
            return
        event.stop()
        event.prevent_default()
        field.focus()
        if event.key == "ctrl+u":
            field.action_delete_left_all()
        elif event.key == "backspace":
            field.action_delete_left()
        elif event.character:
            field.insert_text_at_cursor(event.character)


def written_notice(path: str, width: int) -> str:
    """The written report's folder and file name on lines of their own, so the notice never breaks the
    path inside a word (a folder longer than the notice breaks after one of its slashes); the whole path on
    one line where it fits."""
    if len(os.path.abspath(path)) <= width:
        return os.path.abspath(path)
    folder, name = os.path.split(os.path.abspath(path))
    parts = [part + "/" for part in folder.strip("/").split("/") if part]
    lines, line = [], "/"
    for part in parts:
        if len(line) + len(part) > width and line != "/":
            lines.append(line)
            line = ""
        line += part
    return "\n".join([*lines, line, name])


def snapshot_parts(snapshot: HostSnapshot | None) -> dict[str, Any]:
    """build_report's host, TRIM facts and verdicts from a snapshot (the facts and verdicts only once they
    are in; until then the report reads them itself)."""
    if snapshot is None:
        return {}
    if snapshot.trim_facts is None:
        return {"host": snapshot.host}
    return {"host": snapshot.host, "trim": snapshot.trim_facts, "verdicts": list(snapshot.trim_verdicts)}


def _count(number: int, noun: str) -> str:
    """'1 run', '2 runs'."""
    return f"{number} {noun}{'' if number == 1 else 's'}"
