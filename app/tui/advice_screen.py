"""The Advice screen: every finding, worst first, the same one on several subjects merged into one row,
with evidence, why, fix, risk and verify."""

from __future__ import annotations

from dataclasses import dataclass, replace

from diskdoctor.probes.etcd_metrics import discover as discover_etcd_metrics
from diskdoctor.probes.host import Host
from diskdoctor.probes.root import Root
from diskdoctor.probes.trim_facts import TrimFacts
from diskdoctor.widgets import FindingCard
from diskdoctor.widgets.filter_bar import FilterBar, filter_note, matches
from diskdoctor.widgets.fit_text import distinct_cut, figure_first, fit_end, fit_words
from diskdoctor.widgets.fitted_footer import FittedFooter
from diskdoctor.widgets.fitted_table import FittedTable
from diskdoctor.widgets.wrap_text import WrappedText, wrap_lines
from rich.cells import cell_len
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from ..core.advice.advise import advise, load_advice_input
from ..core.advice.saved_runs import saved_runs_input
from ..core.bench.context import BenchContext
from ..core.findings.finding import Finding
from ..core.findings.order import MergedFinding, worst_first
from ..core.runs.store import RunStore, RunStoreError
from ..text.advice import summary_line
from .cards import card_content
from .messages import HostLoadFailed
from .screen_help import ADVICE_HELP
from .selection import Selection, chosen

SEV_CELLS = 4
TITLE_MIN_CELLS = 24
SUBJECTS_MIN_CELLS = 12
CELL_PADDING = 2
"""A DataTable cell's padding (one cell each side)."""
SCROLLBAR_CELLS = 2


@dataclass
class AdviceReady(Message):
    """Findings for one snapshot, in display order, and the root they describe."""

    findings: list[Finding]
    label: str


class AdviceScreen(Screen[None]):
    """What to change on this host: the worst first, one row per finding with every subject it holds for."""

    SCREEN_HELP = ADVICE_HELP
    BINDINGS = [
        Binding("c", "copy_fixes", "Copy", tooltip="Copy the selected finding's fix commands."),
        Binding("slash", "filter", "Filter",
                tooltip="Keep the findings whose title, id or subject has the text (Esc clears)."),
        Binding("a", "all_subjects", "All",
                tooltip="Every finding again (after arriving filtered to one filesystem or device)."),
        Binding("r", "refresh", "Refresh", tooltip="Read the host again and re-run every rule."),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, root: Root, *, host: Host | None = None, trim: TrimFacts | None = None,
                 bench: tuple[BenchContext, ...] = ()) -> None:
        super().__init__()
        self.root = root
        self.host, self.trim, self.bench = host, trim, bench
        self.findings: list[Finding] = []
        """Every finding, in display order (a merged row stands for several)."""
        self.rows: list[MergedFinding] = []
        """The rows shown: one per finding, the same finding on several subjects merged."""
        self._widths: tuple[int, ...] = ()
        self.all_rows: list[MergedFinding] = []
        """Every row before the filter and the subject are applied."""
        self.filter_text = ""
        self.subject: str | None = None
        """Only the findings about this filesystem or device (the selection of another screen)."""
        self._applied: Selection | None = None
        self._wanted: Selection | None = None
        """The selection the user arrived with (applied once the findings are in)."""
        self._runs_stamp: int | None = None
        """The saved runs folder's change time when its runs were last judged."""
        self._header_lines = 1
        """Lines the card's header took last (it wraps a long subject list)."""
        self._judged = False
        """Whether the rules have run once (a run saved after that makes them run again)."""

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static(id="advice-summary")
        with Horizontal(id="advice-body"):
            yield FittedTable(id="advice-table", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="advice-details"):
                yield WrappedText("Details", classes="pane-title", id="advice-details-title")
                yield FindingCard(card_content(_placeholder()), id="advice-card")
        yield FilterBar(id="advice-filter")
        yield Static("Reading the host…", id="status")
        yield FittedFooter()

    def on_mount(self) -> None:
        self.sub_title = "Advice: what to change, with evidence and exact commands"
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
            saved = saved_runs_input(advice.host.hostname)  # the runs the report judges, gathered as it does
            self._runs_stamp = saved.stamp
            given = {context.origin for context in advice.bench}  # a walkthrough's runs are saved runs too
            more = [context for context in saved.bench if context.origin not in given]
            advice = replace(advice, bench=[*advice.bench, *more])
            self.post_message(AdviceReady(advise(advice), advice.host.root_label))
        except Exception as err:  # a probe or rule bug must never kill the app
            self.post_message(HostLoadFailed(f"could not run the advisor: {err}"))

    @on(HostLoadFailed)
    def failed(self, message: HostLoadFailed) -> None:
        self.query_one("#status", Static).update(Text(message.reason))

    @on(AdviceReady)
    def ready(self, message: AdviceReady) -> None:
        self._judged = True
        self.all_rows = worst_first(message.findings)
        if self._wanted is not None and self.subject is None:
            subjects = {subject for row in self.all_rows for subject in row.subjects}
            self.subject = next((s for s in (self._wanted.mountpoint, self._wanted.kname)
                                 if s and s in subjects), None)
            self.refresh_bindings()
        self.findings = [finding for row in self.all_rows for finding in _expanded(row, message.findings)]
        self.rows = self._filtered()
        summary = Text(summary_line(message.findings), "bold")
        if len(self.all_rows) < len(message.findings):
            summary.append(f" in {len(self.all_rows)} rows, worst first")
        summary.append(f" · {message.label}", "dim")
        self.query_one("#advice-summary", Static).update(summary)
        self.query_one("#advice-card", FindingCard).display = False
        self._widths = ()
        self._fill_table()
        self._say_status()
        if self.rows:
            self._show(0)
            self.query_one("#advice-table", DataTable).focus()
        else:
            self.query_one("#advice-details-title", Static).update("No findings")

    def _filtered(self) -> list[MergedFinding]:
        """The rows about the chosen subject that match the filter text."""
        return [row for row in self.all_rows
                if (self.subject is None or self.subject in row.subjects)
                and matches(self.filter_text, row.finding.title, row.finding.id, *row.subjects)]

    def _say_status(self) -> None:
        parts = ["↑↓ choose · c copy the fix commands · / filter · r read the host again"]
        if self.subject is not None:
            parts.insert(0, f"only {self.subject}: {len(self.rows)} of {len(self.all_rows)} rows (a: all)")
        if self.filter_text:
            parts.insert(0, filter_note(self.filter_text, len(self.rows), len(self.all_rows), "rows"))
        self.query_one("#status", Static).update(Text(" · ".join(parts)))

    def _refilter(self) -> None:
        self.rows = self._filtered()
        self._widths = ()
        self._fill_table()
        self._say_status()
        if self.rows:
            self._show(self.query_one("#advice-table", DataTable).cursor_row)

    def action_filter(self) -> None:
        self.query_one(FilterBar).open()

    @on(FilterBar.Filter)
    def _filter_changed(self, message: FilterBar.Filter) -> None:
        self.filter_text = message.text
        self._refilter()
        message.bar.counted(len(self.rows), len(self.all_rows))

    def show_subject(self, subject: str | None) -> None:
        """Only the findings about `subject` (None: every finding); `a` goes back to all."""
        if subject == self.subject:
            return
        self.subject = subject
        self.refresh_bindings()
        if self.all_rows:
            self._refilter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """`a` only while the findings are narrowed to one subject."""
        return self.subject is not None if action == "all_subjects" else True

    def on_screen_resume(self) -> None:
        """Arriving from another screen: the rules again when a run was saved or removed since (as the
        report would judge it), and only the findings about what was chosen there, if it has any."""
        if self._judged and _runs_stamp() != self._runs_stamp:
            self.load()
        selection = chosen(self.app)
        if selection is None or selection.by == "advice" or selection == self._applied:
            return
        self._applied = selection
        self._wanted = selection
        self._apply_selection()

    def _apply_selection(self) -> None:
        selection = self._wanted
        if selection is None or not self.all_rows:
            return
        subjects = {subject for row in self.all_rows for subject in row.subjects}
        found = next((s for s in (selection.mountpoint, selection.kname) if s and s in subjects), None)
        self.show_subject(found)

    def action_all_subjects(self) -> None:
        self._wanted = None
        self.show_subject(None)

    @on(FittedTable.Resized, "#advice-table")
    def _resized(self) -> None:
        self._fill_table()

    def _column_widths(self) -> tuple[int, int, int, int]:
        """Severity, title, subjects and id widths from what they hold and the table's width: the title
        first, then the subjects, the id only when both fit whole (it is on the card too)."""
        table = self.query_one("#advice-table", DataTable)
        width = table.size.width or self.app.size.width
        title = max((cell_len(figure_first(row.finding.title)) for row in self.rows), default=TITLE_MIN_CELLS)
        subjects = max((cell_len(row.subjects_text) for row in self.rows), default=SUBJECTS_MIN_CELLS)
        ids = max((cell_len(row.finding.id) for row in self.rows), default=0)
        room = width - SCROLLBAR_CELLS - SEV_CELLS - 3 * CELL_PADDING
        if title + subjects + CELL_PADDING + ids <= room:  # everything whole: the rest to the subjects
            return SEV_CELLS, title, room - CELL_PADDING - ids - title, ids
        subjects = min(subjects, max(SUBJECTS_MIN_CELLS, room // 4))
        title = min(title, room - subjects)
        return SEV_CELLS, title, room - title, 0

    def _fill_table(self) -> None:
        """(Re)build the table when the rows or the column widths change; the cursor stays."""
        if not self.is_mounted:
            return
        widths = self._column_widths()
        if widths == self._widths:
            return
        self._widths = widths
        table = self.query_one("#advice-table", DataTable)
        cursor = table.cursor_row
        table.clear(columns=True)
        sev, title, subjects, ids = widths
        table.add_column("Sev", key="sev", width=sev)
        table.add_column("Finding", key="title", width=title)
        table.add_column("Subjects" if any(len(r.subjects) > 1 for r in self.rows) else "Subject",
                         key="subject", width=subjects)
        if ids:
            table.add_column("Id", key="id", width=ids)
        singles = frozenset(row.subjects_text for row in self.rows if len(row.subjects) == 1)
        for index, row in enumerate(self.rows):
            finding = self._finding_of(row)
            shown = (distinct_cut(row.subjects_text, subjects, singles) if len(row.subjects) == 1
                     else fit_end(row.subjects_text, subjects))
            cells = [Text(finding.severity.value.upper(), finding.severity.style),
                     Text(fit_words(figure_first(finding.title), title)), Text(shown, "bold")]
            if ids:
                cells.append(Text(finding.id, "dim"))
            table.add_row(*cells, key=str(index))
        if self.rows:
            table.move_cursor(row=min(max(cursor, 0), len(self.rows) - 1))

    @on(DataTable.RowHighlighted, "#advice-table")
    def highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.row_key is not None and event.row_key.value is not None:  # None: an empty table
            self._show(int(event.row_key.value))

    def _show(self, index: int) -> None:
        if not 0 <= index < len(self.rows):
            return
        row = self.rows[index]
        finding = self._finding_of(row)
        header = self.query_one("#advice-details-title", Static)
        text = f"{finding.id} · {row.subjects_text}"
        lines = len(wrap_lines(Text(text), max(header.content_size.width, 1)))
        header.update(Text(text), layout=lines != self._header_lines)  # wraps: a layout pass only when the
        self._header_lines = lines                                       # number of lines changes
        card = self.query_one("#advice-card", FindingCard)
        card.display = True
        card.show(card_content(finding))

    def selected(self) -> Finding | None:
        """The finding under the cursor."""
        table = self.query_one("#advice-table", DataTable)
        row = table.cursor_row
        return self._finding_of(self.rows[row]) if 0 <= row < len(self.rows) else None

    def _finding_of(self, row: MergedFinding) -> Finding:
        """The row's finding about the chosen subject when the list is narrowed to one (its title, evidence
        and fix name that filesystem), else the row's first."""
        if self.subject is None or row.finding.subject == self.subject:
            return row.finding
        return next((f for f in self.findings if f.id == row.finding.id and f.subject == self.subject),
                    row.finding)

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


def _runs_stamp() -> int | None:
    """The saved runs folder's change time now (None: no folder, or none can be found)."""
    try:
        return RunStore().stamp()
    except RunStoreError:
        return None


def _expanded(row: MergedFinding, findings: list[Finding]) -> list[Finding]:
    """The findings a merged row stands for, in the order of its subjects."""
    return [f for f in findings if f.id == row.finding.id and f.subject in row.subjects
            and f.title.replace(f.subject, "\0") == row.finding.title.replace(row.finding.subject, "\0")]


def _placeholder() -> Finding:
    from ..core.findings.vocabulary import Severity

    return Finding("-", Severity.INFO, "", "Reading the host…")
