"""The Advice screen: every finding grouped by filesystem or device, with evidence, why, fix, risk, verify."""

from __future__ import annotations

from dataclasses import dataclass

from diskdoctor.probes.etcd_metrics import discover as discover_etcd_metrics
from diskdoctor.probes.host import Host
from diskdoctor.probes.root import Root
from diskdoctor.probes.trim_facts import TrimFacts
from diskdoctor.widgets import FindingCard
from diskdoctor.widgets.fit_text import middle_ellipsis
from diskdoctor.widgets.fitted_footer import FittedFooter
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from ..core.advice.advise import advise, load_advice_input
from ..core.bench.context import BenchContext
from ..core.findings.finding import Finding
from ..core.findings.order import grouped
from ..text.advice import summary_line
from .cards import card_content
from .messages import HostLoadFailed
from .screen_help import ADVICE_HELP

SUBJECT_MIN_CELLS = 16
COLUMNS = (("Sev", "sev"), ("Subject", "subject"), ("Finding", "id"), ("Title", "title"))


@dataclass
class AdviceReady(Message):
    """Findings for one snapshot, in display order, and the root they describe."""

    findings: list[Finding]
    label: str


class AdviceScreen(Screen[None]):
    """What to change on this host: findings grouped by subject, most severe first."""

    SCREEN_HELP = ADVICE_HELP
    BINDINGS = [
        Binding("c", "copy_fixes", "Copy", tooltip="Copy the selected finding's fix commands."),
        Binding("r", "refresh", "Refresh", tooltip="Read the host again and re-run every rule."),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, root: Root, *, host: Host | None = None, trim: TrimFacts | None = None,
                 bench: tuple[BenchContext, ...] = ()) -> None:
        super().__init__()
        self.root = root
        self.host, self.trim, self.bench = host, trim, bench
        self.findings: list[Finding] = []

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static(id="advice-summary")
        with Horizontal(id="advice-body"):
            yield DataTable(id="advice-table", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="advice-details"):
                yield Static("Details", classes="pane-title", id="advice-details-title")
                yield FindingCard(card_content(_placeholder()), id="advice-card")
        yield Static("Reading the host…", id="status")
        yield FittedFooter()

    def on_mount(self) -> None:
        self.sub_title = "Advice: what to change, with evidence and exact commands"
        table = self.query_one("#advice-table", DataTable)
        for label, key in COLUMNS:
            table.add_column(label, key=key)
        self.load()

    def show_snapshot(self, host: Host, trim: TrimFacts) -> None:
        """Re-run the rules on a snapshot the app already loaded (no second read of the host)."""
        self.host, self.trim = host, trim
        self.load()

    @work(thread=True, exclusive=True, group="advice", exit_on_error=False, description="load the findings")
    def load(self) -> None:
        """Read what the rules need (reusing a given host and TRIM facts) and run them off the UI thread."""
        try:
            etcd, _notes = discover_etcd_metrics(self.root)  # a local etcd's own commit p99 (live only)
            advice = load_advice_input(self.root, bench=self.bench, host=self.host, trim=self.trim,
                                       etcd_metrics=etcd)
            self.post_message(AdviceReady(advise(advice), advice.host.root_label))
        except Exception as err:  # a probe or rule bug must never kill the app
            self.post_message(HostLoadFailed(f"could not run the advisor: {err}"))

    @on(HostLoadFailed)
    def failed(self, message: HostLoadFailed) -> None:
        self.query_one("#status", Static).update(Text(message.reason))

    @on(AdviceReady)
    def ready(self, message: AdviceReady) -> None:
        groups = grouped(message.findings)
        self.findings = [finding for group in groups for finding in group.findings]
        summary = Text(summary_line(self.findings), "bold")
        summary.append(f" · {message.label}", "dim")
        self.query_one("#advice-summary", Static).update(summary)
        table = self.query_one("#advice-table", DataTable)
        table.clear()
        self.query_one("#advice-card", FindingCard).display = False
        index = 0
        for group in groups:
            for position, finding in enumerate(group.findings):
                table.add_row(Text(finding.severity.value.upper(), finding.severity.style),
                              Text(middle_ellipsis(group.subject, self._subject_cells()) if position == 0
                                   else "", "bold"), Text(finding.id),
                              Text(finding.title), key=str(index))
                index += 1
        self.query_one("#status", Static).update(
            "↑↓ choose · c copy the fix commands · r read the host again")
        if self.findings:
            self._show(0)
            table.focus()
        else:
            self.query_one("#advice-details-title", Static).update("No findings")

    def _subject_cells(self) -> int:
        """Room for a subject (a long mountpoint is cut in the middle, so the finding id stays visible)."""
        table = self.query_one("#advice-table", DataTable)
        return max((table.size.width or self.app.size.width // 2) * 2 // 5, SUBJECT_MIN_CELLS)

    @on(DataTable.RowHighlighted, "#advice-table")
    def highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.row_key.value is not None:
            self._show(int(event.row_key.value))

    def _show(self, index: int) -> None:
        if not 0 <= index < len(self.findings):
            return
        finding = self.findings[index]
        self.query_one("#advice-details-title", Static).update(Text(f"{finding.subject}: {finding.id}"))
        card = self.query_one("#advice-card", FindingCard)
        card.display = True
        card.show(card_content(finding))

    def selected(self) -> Finding | None:
        """The finding under the cursor."""
        table = self.query_one("#advice-table", DataTable)
        row = table.cursor_row
        return self.findings[row] if 0 <= row < len(self.findings) else None

    def action_refresh(self) -> None:
        self.query_one("#status", Static).update("Reading the host…")
        self.host = self.trim = None
        self.load()

    def action_copy_fixes(self) -> None:
        finding = self.selected()
        lines = list(finding.fix) if finding else []
        if not lines:
            self.notify("No fix commands for this finding")
            return
        self.app.copy_to_clipboard("\n".join(lines) + "\n")
        self.notify(f"Copied {len(lines)} lines (your terminal must allow OSC 52 clipboard access)")


def _placeholder() -> Finding:
    from ..core.findings.vocabulary import Severity

    return Finding("-", Severity.INFO, "", "Reading the host…")
