"""The TRIM screen: a verdict per filesystem, the layers and schedule behind it, fixes, and trim now."""

from __future__ import annotations

from diskdoctor.probes.calendar_spec import describe_delta
from diskdoctor.probes.fstrim_run import FstrimResult
from diskdoctor.probes.host import Host, read_host
from diskdoctor.probes.root import Root
from diskdoctor.probes.trim_facts import TrimFacts, read_trim_facts
from diskdoctor.widgets import CardContent, FindingCard
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from .errors import UsageError
from .formatting import human_bytes
from .messages import HostLoadFailed, TrimLoaded
from .peak_window import PeakWindow
from .trim_dialogs import ConfirmTrim, PeakDialog, TrimProgress
from .trim_doctor import TrimVerdict, diagnose, layer_marker
from .trim_now import hold_confirmed_mount

COLUMNS = ("Mountpoint", "FS", "Verdict", "Discard", "Periodic trim", "Warnings")


def _schedule_cell(verdict: TrimVerdict, facts: TrimFacts) -> str:
    schedule = verdict.schedule
    if schedule.kind == "none":
        return "none"
    when = f", next {describe_delta(schedule.next_run - facts.clock.now)}" if schedule.next_run else ""
    return f"{schedule.kind}{when}"


def host_summary(facts: TrimFacts, peak: PeakWindow | None) -> Text:
    """Two lines on the host-wide trim machinery: timer state, cron jobs, peak window."""
    timer = facts.timer
    text = Text()
    text.append("fstrim.timer ", "bold")
    text.append(timer.state, "green" if timer.active and timer.systemd_running else "yellow")
    if not timer.systemd_running:
        text.append(" (systemd not running)", "yellow")
    if timer.calendars:
        text.append(f" · OnCalendar={', '.join(timer.calendars)}")
    if timer.dropins:
        text.append(f" · overridden in {', '.join(timer.dropins)}")
    scope = {"fstab": "fstab mounts only", "all": "all mounts"}.get(timer.service_scope, "?")
    text.append(f" · service trims {scope}")
    crons = [f"{c.source}{'' if c.runs else ' (skipped)'}" for c in facts.crons]
    text.append(f"\ncron: {', '.join(crons) if crons else 'no fstrim jobs'}")
    text.append(f" · peak window: {peak.text if peak else 'not set (p)'}")
    text.append(f" · times in {facts.clock.zone_name}, now = {facts.clock.source}", "dim")
    return text


def verdict_text(verdict: TrimVerdict, facts: TrimFacts) -> Text:
    """The pieces behind one verdict: layers top-down, discard mode, schedule, each with its source."""
    text = Text()
    text.append(verdict.summary + "\n\n", verdict.verdict.style)
    text.append("Layers, top to bottom (discard_max_bytes / granularity):\n", "bold")
    for layer in verdict.reach.layers:
        marker = layer_marker(verdict, layer.kname)
        text.append(f"  {layer.name:<20} {layer.kind:<6} {human_bytes(layer.discard_max_bytes):>7} / "
                    f"{human_bytes(layer.discard_granularity):<6}", "bold red" if marker else "")
        text.append(f"  {layer.source}", "dim")
        text.append(f"  ← {marker}\n" if marker else "\n", "bold red")
    text.append("Discard mode: ", "bold")
    text.append(f"{verdict.mode.text}  ")
    text.append(f"{verdict.mode.source}\n", "dim")
    schedule = verdict.schedule
    text.append("Periodic trim: ", "bold")
    if schedule.kind == "none":
        text.append(f"none: {schedule.covers_reason}")
        return text
    text.append(f"{schedule.kind}, {schedule.calendar}  ")
    text.append(f"{schedule.source}\n", "dim")
    text.append(f"  covers it because {schedule.covers_reason}\n")
    now = facts.clock.now
    if schedule.next_run:
        delay = schedule.random_delay.total_seconds()
        extra = f" + up to {int(delay // 60)} min" if delay else ""
        text.append(f"  next run {schedule.next_run:%a %Y-%m-%d %H:%M}{extra} "
                    f"({describe_delta(schedule.next_run - now)})\n")
    if schedule.last_run:
        text.append(f"  last run {schedule.last_run:%a %Y-%m-%d %H:%M} "
                    f"({describe_delta(schedule.last_run - now)})\n")
    if schedule.last_run_note:
        text.append(f"  note: {schedule.last_run_note}\n", "dim")
    text.rstrip()
    return text


class TrimScreen(Screen[None]):
    """Does TRIM reach the flash for each filesystem, and when is it trimmed?"""

    BINDINGS = [
        Binding("t", "trim_now", "Trim now", tooltip="Run fstrim on the selected filesystem (asks first)."),
        Binding("p", "peak", "Peak window", tooltip="Declare busy hours; trims inside them are flagged."),
        Binding("c", "copy_fixes", "Copy fixes", tooltip="Copy the fix commands to the clipboard."),
        Binding("r", "refresh", "Refresh"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, root: Root) -> None:
        super().__init__()
        self.root = root
        self.peak: PeakWindow | None = None
        self.verdicts: dict[str, TrimVerdict] = {}
        self.facts: TrimFacts | None = None
        self.host: Host | None = None
        self.selected: str | None = None

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static(id="trim-host")
        yield DataTable(id="trim-table", cursor_type="row", zebra_stripes=True)
        yield Static("Details", id="trim-details-title", classes="pane-title")
        with VerticalScroll(id="trim-details"):
            yield Static(id="trim-verdict")
            yield Vertical(id="trim-findings")
        yield Static("Reading the host…", id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "TRIM: does discard reach the flash, and when is it trimmed?"
        self.query_one("#trim-table", DataTable).add_columns(*COLUMNS)
        self.load()

    @work(thread=True, exclusive=True, group="trim", exit_on_error=False)
    def load(self) -> None:
        """Read the host and the trim facts off the UI thread."""
        try:
            host = read_host(self.root)
            facts = read_trim_facts(self.root, host)
            self.post_message(TrimLoaded(diagnose(host, facts, self.peak), facts, host))
        except Exception as err:  # a probe bug must never kill the app
            self.post_message(HostLoadFailed(f"could not read the TRIM facts: {err}"))

    @on(HostLoadFailed)
    def failed(self, message: HostLoadFailed) -> None:
        self.query_one("#status", Static).update(Text(message.reason))

    @on(TrimLoaded)
    def show(self, message: TrimLoaded) -> None:
        self.facts = message.facts
        self.host = message.host
        self.verdicts = {v.mountpoint: v for v in message.verdicts}
        self.query_one("#trim-host", Static).update(host_summary(message.facts, self.peak))
        table = self.query_one("#trim-table", DataTable)
        table.clear()
        for verdict in message.verdicts:
            problems = [f for f in verdict.findings if f.severity != "info"]
            table.add_row(Text(verdict.mountpoint), Text(verdict.fstype),
                          Text(verdict.verdict.upper(), verdict.verdict.style),
                          verdict.mode.mode, _schedule_cell(verdict, message.facts),
                          str(len(problems)) if problems else "-", key=verdict.mountpoint)
        if self.selected in self.verdicts:
            table.move_cursor(row=table.get_row_index(self.selected))
        elif message.verdicts:
            self._show_details(message.verdicts[0].mountpoint)
        bad = sum(1 for v in message.verdicts if v.verdict != "ok")
        self.query_one("#status", Static).update(
            f"{len(message.verdicts) - bad} of {len(message.verdicts)} filesystems OK · "
            "↑↓ choose · t trim now · p peak window · c copy fixes")
        table.focus()

    @on(DataTable.RowHighlighted, "#trim-table")
    def highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.row_key.value is not None:
            self._show_details(str(event.row_key.value))

    def _show_details(self, mountpoint: str) -> None:
        verdict = self.verdicts.get(mountpoint)
        if verdict is None or self.facts is None:
            return
        self.selected = mountpoint
        self.query_one("#trim-details-title", Static).update(
            Text(f"Details: {mountpoint} ({verdict.fstype} on {verdict.source})"))
        self.query_one("#trim-verdict", Static).update(verdict_text(verdict, self.facts))
        findings = self.query_one("#trim-findings", Vertical)
        findings.remove_children()
        findings.mount_all(FindingCard(CardContent(f.id, f.severity, f.text, f.fix, f.risk, f.verify))
                           for f in verdict.findings)

    def action_refresh(self) -> None:
        self.query_one("#status", Static).update("Reading the host…")
        self.load()

    def action_copy_fixes(self) -> None:
        verdict = self.verdicts.get(self.selected or "")
        lines = [line for f in (verdict.findings if verdict else []) for line in f.fix]
        if not lines:
            self.notify("No fix commands for this filesystem")
            return
        self.app.copy_to_clipboard("\n".join(lines) + "\n")
        self.notify(f"Copied {len(lines)} lines (your terminal must allow OSC 52 clipboard access)")

    def action_peak(self) -> None:
        def chosen(result: PeakWindow | None | bool) -> None:
            if result is False:
                return
            self.peak = result if isinstance(result, PeakWindow) else None
            self.action_refresh()

        self.app.push_screen(PeakDialog(self.peak), chosen)

    def action_trim_now(self) -> None:
        if not self.root.live:
            self.notify("Trim now works on the live host only, not on a --sysroot capture",
                        severity="warning")
            return
        mountpoint = self.selected
        if mountpoint is None:
            return

        def finished(result: FstrimResult | None) -> None:
            if result is not None:
                self.query_one("#status", Static).update(Text(
                    f"{mountpoint}: " + (f"fstrim reported {human_bytes(result.reported_bytes)} in "
                                         f"{result.elapsed_s:.1f} s" if result.ok else result.message)))

        verdict = self.verdicts[mountpoint]
        if verdict.verdict == "unsupported":
            self.notify(f"{mountpoint}: the device does not accept discard, so fstrim would fail",
                        severity="warning", markup=False)
            return

        try:  # the filesystem now at the path must be the one this screen shows (same mount ID)
            held = hold_confirmed_mount(self.host, mountpoint) if self.host else None
        except UsageError as err:
            self.notify(f"{err}; press r to read the host again", severity="error", markup=False)
            return
        if held is None:
            return

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.app.push_screen(TrimProgress(mountpoint, verdict.reach.leaves, held), finished)
            else:
                held.close()

        self.app.push_screen(ConfirmTrim(mountpoint), confirmed)
