"""The Advice screen: every finding, worst first, the same one on several subjects merged into one row,
with evidence, why, fix, risk and verify."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from diskdoctor.probes.etcd_metrics import discover as discover_etcd_metrics
from diskdoctor.probes.host import Host
from diskdoctor.probes.root import Root
from diskdoctor.probes.trim_facts import TrimFacts
from diskdoctor.widgets import FindingCard
from diskdoctor.widgets.filter_bar import FilterBar, matches
from diskdoctor.widgets.fit_text import ELLIPSIS, Part, figure_first, fit_path, fit_words, part_text
from diskdoctor.widgets.fitted_footer import FittedFooter
from diskdoctor.widgets.fitted_table import FittedTable
from diskdoctor.widgets.status_line import StatusLine
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from ..base import units
from ..core.advice.advise import NOT_MOUNTED, advise, load_advice_input
from ..core.advice.saved_runs import beside_saved, mounted_now, saved_runs_input
from ..core.bench.context import BenchContext
from ..core.findings.finding import Finding
from ..core.findings.order import MergedFinding, worst_first
from ..core.runs.store import RunStore, RunStoreError
from .advice_counts import count_phrase, listed_last, scope_label, shown_findings
from .advice_rows import plan_rows, subject_lines, wrap_at_slashes, wrapped_title
from .advice_runs import with_run_note
from .cards import card_content
from .fold_note import fold_note
from .messages import HostLoadFailed
from .screen_help import ADVICE_HELP
from .selection import Selection, chosen

SEV_CELLS = 4
TITLE_MIN_CELLS = 24
SUBJECTS_MIN_CELLS = 12
CELL_PADDING = 2
"""A DataTable cell's padding (one cell each side)."""
SCROLLBAR_CELLS = 2
LIST_BORDER_CELLS = 1
"""The line between the list and the details."""
DETAILS_MIN_CELLS = 54
"""The details pane is never narrower than this beside the list (a fix command of about 50 columns whole)."""
DETAILS_MAX_CELLS = 76
"""Nor wider: past this the card's lines are long enough, and the list takes the rest."""
LIST_COMFORT_CELLS = 110
"""A list this wide shows a finding's title and subject well: past it the details get all they need."""
CARD_PADDING = 2
SUBJECT_SHARE = 0.3
"""Of the list's room, at most this share is kept for subjects when titles and subjects cannot both be
whole: the title is what a user reads first (and the card names every subject whole)."""
BESIDE_FROM = 240
"""The card sits beside the list on a terminal this wide or wider, under it (both full width) on a narrower
one: one rule by size, whatever the host and its titles (newuser23 #9: at 200x60 lab-ssd went beside and
the live host's long WAL titles under), the same width as Stack's (stack_screen.BESIDE_FROM)."""
STACKED_LIST_SHARE = 0.4
"""Under the list, the card leaves the list this share of the height (as the narrow layout's list does)."""
PATH_MIN_CELLS = 16
"""A path in a title is never cut shorter than this (its last component, where it fits)."""
HISTORY_ORDER = ("worst first · saved runs on unmounted filesystems last",
                 "worst first · runs on unmounted filesystems last",
                 "worst first, unmounted filesystems last", "worst first, unmounted fs last")
"""The summary's order phrase, longest first, when saved runs on filesystems not mounted now are listed
last (a CRIT among them under WARN and INFO rows): kept before where the findings come from, so that
"worst first" never goes without it, at 80 too (newuser18 #3)."""


def history_order(late: str) -> tuple[str, ...]:
    """The order phrase, longest first, naming how many findings of a severity are listed last (`late`:
    "8 crit", listed_last) where any are: "worst first · 8 crit from saved runs on unmounted filesystems
    last" (newuser24 #8: a reader counted 2 CRIT rows under "10 crit"); HISTORY_ORDER where none are."""
    if not late:
        return HISTORY_ORDER
    return (f"worst first · {late} from saved runs on unmounted filesystems last",
            f"worst first · {late} from runs on unmounted filesystems last",
            f"worst first, {late} (unmounted fs) last",
            f"worst first, {late.split(', ')[0]} last (unmounted)", *HISTORY_ORDER[2:])


HISTORY_MARK = "not mounted now · "
"""Opens the listed title of a saved run's finding on a filesystem not mounted now (listed after the live
ones), where no width cuts it off."""


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
        Binding("q", "app.quit", "Quit", tooltip="Quit diskdoctor."),
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
        self._heights: tuple[int, ...] = ()
        """Each row's lines (a title or subjects list that would be cut goes on a second line)."""
        self._subjects_wrap = self._wrapped = True  # Subjects cells on two lines (as planned; as drawn)
        self.all_rows: list[MergedFinding] = []
        """Every row before the filter and the subject are applied."""
        self.filter_text = ""
        self.subject: str | None = None
        """Only the findings about this filesystem or device (the selection of another screen)."""
        self.covered: tuple[str, ...] = ()
        """The subjects whose findings `subject` keeps (a lower layer's filesystems and its own)."""
        self._applied: Selection | None = None
        self._wanted: Selection | None = None
        """The selection the user arrived with (applied once the findings are in)."""
        self._runs_stamp: int | None = None
        """The saved runs folder's change time when its runs were last judged."""
        self._header_lines = 1
        """Lines the card's header took last (it wraps a long subject list)."""
        self._judged = False
        """Whether the rules have run once (a run saved after that makes them run again)."""
        self._label = ""
        """Where the findings come from ("capture lab-ssd", "this host (/)"), the summary's last phrase."""

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield SummaryLine(id="advice-summary")
        with Horizontal(id="advice-body"):
            yield FittedTable(id="advice-table", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="advice-details"):
                yield Static("Details", classes="pane-title", id="advice-details-title")
                yield FindingCard(card_content(_placeholder()), id="advice-card")
        yield FilterBar(id="advice-filter")
        yield StatusLine("Reading the host…", id="status")
        yield FittedFooter()

    def on_mount(self) -> None:
        self.sub_title = "What to change, with evidence and exact commands"
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
            saved = saved_runs_input(advice.host.hostname,  # the runs the report judges, gathered as it does
                                     mounted=mounted_now(advice.host))
            self._runs_stamp = saved.stamp
            advice = replace(advice, bench=beside_saved(advice.bench, saved))
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
            self.subject, self.covered = self._subject_of(self._wanted)
            self.refresh_bindings()
        self.findings = [finding for row in self.all_rows for finding in _expanded(row, message.findings)]
        self.rows = self._filtered()
        self._label = scope_label(message.label)
        self._say_summary()
        self.query_one("#advice-card", FindingCard).display = False
        self._widths = ()
        self._fill_table()
        self._say_status()
        self.call_after_refresh(self._say_status)  # once the list is laid out: the rows below its fold
        if self.rows:
            self._show(0)
            self.query_one("#advice-table", DataTable).focus()
        else:
            self.query_one("#advice-details-title", Static).update("No findings")

    def _summary_parts(self) -> list[Part]:
        """The summary line's phrases: the counts first (of the findings listed, when narrowed to a subject
        or filtered: count_phrase), then where the findings come from, then how the rows are ordered; a
        narrow line shortens and drops whole phrases, never cuts one (newuser16 #4)."""
        narrowed = self.subject is not None or bool(self.filter_text)
        listed = self.rows if narrowed else self.all_rows
        shown = self._findings_of(listed)
        parts: list[Part] = [(count_phrase(shown, len(self.findings)), 0)]
        rows = f"{len(listed)} row{'s' if len(listed) != 1 else ''}" if len(listed) < len(shown) else ""
        if any(row.finding.history for row in listed):  # CRIT rows may be last: said at every width, the
            if rows:                                    # row count dropped first, then where they come from
                parts.append((rows, 3))
            parts.append((history_order(listed_last(shown)), 1))
            parts.append((self._label, 2))
            return parts
        if rows:
            parts.append(((f"{rows}, worst first", rows), 2))
        parts.append((self._label, 1))
        return parts

    def _findings_of(self, rows: list[MergedFinding]) -> list[Finding]:
        """The findings `rows` stand for (narrowed to a subject, only that subject's): what the summary and
        the status line count, so both count findings, never one findings and the other rows."""
        return shown_findings([_expanded(row, self.findings) for row in rows],
                              self.covered if self.subject is not None else ())

    def _say_summary(self) -> None:
        self.query_one("#advice-summary", SummaryLine).say(*self._summary_parts())

    def _in_scope(self) -> list[MergedFinding]:
        """The rows about the chosen subject (every row when none is chosen)."""
        return [row for row in self.all_rows
                if self.subject is None or any(s in row.subjects for s in self.covered)]

    def _filtered(self) -> list[MergedFinding]:
        """The rows about the chosen subject that match the filter text in what the row and its card's
        header show, its severity included (`/warn`, `/crit`: the Sev column): narrowed to one subject, a
        merged row's other subjects are hidden, so they never match (newuser14: `raid` kept a row about
        /lab/luks2on for its hidden /lab/raid0)."""
        return [row for row in self._in_scope()
                if matches(self.filter_text, row.finding.severity.value, self._title_of(row), row.finding.id,
                           *((self.subject,) if self.subject is not None else row.subjects))]

    def _say_status(self) -> None:
        """What is shown, then the key hints: a narrow line drops whole hints, the least needed first."""
        parts = [("↑↓ choose", 3), ("c copy fixes", 2), ("/ filter", 4), ("r read again", 5)]
        below = fold_note(self.query_one("#advice-table", DataTable), self._heights)
        if below:  # rows below the fold: said, as TRIM says it
            parts.insert(0, (below, 0))
        if self.subject is not None:  # counted once, in the summary above, in findings (newuser19 #2)
            parts.insert(0, (f"only {self.subject} (a: all)", 0))  # the way back never drops
        # a filter is said once, on its own line above (newuser24 #15: said there and here at once)
        self.query_one("#status", StatusLine).say(*parts)

    def _refilter(self) -> None:
        table = self.query_one("#advice-table", DataTable)
        was = self.rows[table.cursor_row] if 0 <= table.cursor_row < len(self.rows) else None
        self.rows = self._filtered()
        self._widths = ()
        self._fill_table()
        self._say_summary()
        self._say_status()
        if was in self.rows:  # the finding under the cursor stays under it (a filter cleared)
            table.move_cursor(row=self.rows.index(was))
        if self.rows:
            self._show(table.cursor_row)
        else:  # no card for a row no longer listed
            self.query_one("#advice-card", FindingCard).display = False
            self.query_one("#advice-details-title", Static).update("No findings match")
        self._count_filter()

    def _count_filter(self) -> None:
        """The filter line's count, within the chosen subject when there is one."""
        text = self.filter_text.strip()
        if not text:
            return
        shown, scope = len(self._findings_of(self.rows)), len(self._findings_of(self._in_scope()))
        counts = f"{shown} of {scope} findings"  # findings, as the summary and the status line count
        words = (f"filter: {text} within {self.subject} ({counts})", f"filter: {text} ({counts})",
                 f"filter: {text} ({shown} of {scope})") if self.subject else \
            (f"filter: {text} ({counts})", f"filter: {text} ({shown} of {scope})")
        self.query_one(FilterBar).counted(shown, scope, words)

    def action_filter(self) -> None:
        self.query_one(FilterBar).open()

    @on(FilterBar.Filter)
    def _filter_changed(self, message: FilterBar.Filter) -> None:
        self.filter_text = message.text
        self._refilter()

    def show_subject(self, subject: str | None, covered: tuple[str, ...] = ()) -> None:
        """Only the findings about `subject` (None: every finding) or, given, about any of `covered`;
        `a` goes back to all."""
        covered = covered or ((subject,) if subject else ())
        if (subject, covered) == (self.subject, self.covered):
            return
        self.subject, self.covered = subject, covered
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
        self.show_subject(*self._subject_of(selection))

    def _subject_of(self, selection: Selection) -> tuple[str | None, tuple[str, ...]]:
        """The subject a selection narrows to, and every subject whose findings that keeps: a lower layer
        under several filesystems keeps theirs and its own ("only vg0-thin"), one under a single
        filesystem that filesystem's; None when no finding is about any of them."""
        subjects = {subject for row in self.all_rows for subject in row.subjects}
        if len(selection.above) > 1 and selection.kname:
            covered = tuple(s for s in (selection.kname, *selection.above) if s in subjects)
            return (selection.kname, covered) if covered else (None, ())
        found = next((s for s in (selection.mountpoint, selection.kname) if s and s in subjects), None)
        return found, (found,) if found else ()

    def action_all_subjects(self) -> None:
        self._wanted = None
        self.show_subject(None)

    @on(FittedTable.Resized, "#advice-table")
    def _resized(self) -> None:
        self._fill_table()
        if self.all_rows:
            self._say_status()

    def on_resize(self) -> None:
        self._size_panes()
        if self.all_rows:
            self.call_after_refresh(self._say_status)  # the rows below the new fold

    def _title_of(self, row: MergedFinding) -> str:
        """The row's title as listed: the chosen subject's own, else one naming every subject; a saved
        run's on a filesystem not mounted now starts with that, so a CRIT listed under INFO rows says
        why at every width."""
        finding = self._finding_of(row)
        title = finding.title if self.subject is not None else row.title
        if finding.history and title.endswith(NOT_MOUNTED):
            return HISTORY_MARK + figure_first(title.removesuffix(NOT_MOUNTED), units.AT_LEAST)
        return figure_first(title, units.AT_LEAST)  # the sign Benchmark and Runs say (newuser19)

    def _list_needs(self, whole: bool = False) -> int:
        """The list's width with every title and single subject whole (a merged list of subjects needs
        its count and first subject; `whole`: every subject of it, on one line)."""
        title = max((cell_len(self._title_of(row)) for row in self.rows), default=TITLE_MIN_CELLS)
        if self.subject is not None:  # narrowed to one subject: no subjects column
            return LIST_BORDER_CELLS + self._scrollbar_cells() + SEV_CELLS + 2 * CELL_PADDING + title
        needs = (cell_len(row.subjects_text) if whole else _subjects_needs(row) for row in self.rows)
        subjects = max(needs, default=SUBJECTS_MIN_CELLS)
        return (LIST_BORDER_CELLS + self._scrollbar_cells() + SEV_CELLS + 3 * CELL_PADDING + title
                + max(subjects, cell_len(self._subjects_header())))

    def _scrollbar_cells(self) -> int:
        """The list's scrollbar: only when its rows are more than it has lines for."""
        return 0 if len(self.rows) + 1 <= self._list_lines() else SCROLLBAR_CELLS

    def _list_lines(self) -> int:
        """Lines the list can take for its header and rows: the body's height beside the card, at most
        STACKED_LIST_SHARE of it (less the line under it) above the card."""
        body = self.query_one("#advice-body").size.height or max(0, self.size.height - 4)
        if self.has_class("-stacked") or self.has_class("-narrow") or self.app.has_class("-narrow"):
            return int(body * STACKED_LIST_SHARE) - LIST_BORDER_CELLS
        return body

    def _details_needs(self, core: bool = False) -> int:
        """The details pane's width that shows the longest command, evidence line and header whole (only
        the commands and header: `core`), from DETAILS_MIN_CELLS to DETAILS_MAX_CELLS: the same for every
        row, so it never jumps."""
        longest = max((_card_needs(self._finding_of(row), row, core) for row in self.rows), default=0)
        return min(max(longest + CARD_PADDING + SCROLLBAR_CELLS, DETAILS_MIN_CELLS), DETAILS_MAX_CELLS)

    def _size_panes(self) -> None:
        """The card under the list below BESIDE_FROM columns, beside it from there (by size alone). Beside,
        the list gets the width its rows need (every subject of a merged row on its line where the details
        keep what they need) and the details the rest; when both cannot be whole, the details shrink so
        that the list is whole while the card's commands stay whole, or, when the list cannot be whole, so
        that it keeps LIST_COMFORT_CELLS (DETAILS_MIN_CELLS at the least)."""
        if not self.is_mounted:
            return
        table = self.query_one("#advice-table", DataTable)
        details = self.query_one("#advice-details", VerticalScroll)
        if self.has_class("-narrow") or self.app.has_class("-narrow"):  # one above the other
            self.set_class(False, "-stacked")
            table.styles.width = details.styles.width = None
            return
        width = self.size.width or self.app.size.width
        stacked = width < BESIDE_FROM  # by size alone (newuser23 #9), not by what the rows hold
        self.set_class(stacked, "-stacked")
        if stacked:  # the card under the list, as at 80: the titles get the width
            table.styles.width = details.styles.width = None
            return
        needs = self._details_needs()
        core = self._details_needs(core=True)
        spare = width - self._list_needs()  # beside a list with every title and subject whole
        roomy = width - self._list_needs(whole=True)  # beside a list with every row on one line, whole
        if roomy >= needs:  # the list as wide as its rows, the details the rest (as k9s sizes its panes)
            wanted = roomy
        elif spare >= needs or spare >= core:
            wanted = spare
        else:  # the list cannot be whole: the card as it needs it, unless the list gets too narrow
            wanted = next((cells for cells in (needs, core) if width - cells >= LIST_COMFORT_CELLS),
                          DETAILS_MIN_CELLS)
        table.styles.width = max(width - wanted, 1)
        details.styles.width = "1fr"
        details.styles.min_width = 0

    def _column_widths(self) -> tuple[tuple[int, int, int, int], tuple[int, ...]]:
        """Severity, title, subjects and id widths from what they hold and the table's width, and each row's
        lines: single subjects whole first (up to SUBJECT_SHARE of the room), then the titles, then merged
        subject lists, a row going on on a second line while the list has lines to spare (advice_rows);
        the id only when everything else is whole on one line (it is on the card too). Narrowed to one
        subject (said on the status line and the card), the titles get the subjects' room too."""
        table = self.query_one("#advice-table", DataTable)
        width = table.size.width or self.app.size.width
        titles = [self._title_of(row) for row in self.rows]
        title = max((cell_len(text) for text in titles), default=TITLE_MIN_CELLS)
        header = cell_len(self._subjects_header())
        subjects = max((cell_len(row.subjects_text) for row in self.rows), default=SUBJECTS_MIN_CELLS)
        subjects = max(subjects, header)
        ids = max((cell_len(row.finding.id) for row in self.rows), default=0)
        room = width - self._scrollbar_cells() - SEV_CELLS - 3 * CELL_PADDING
        spare = max(self._list_lines() - 1 - len(self.rows), 0)
        one = (1,) * len(self.rows)
        if self.subject is not None:
            whole = room + CELL_PADDING
            heights = plan_rows(titles, [("",)] * len(titles), whole, 0, spare, whole).heights
            return (SEV_CELLS, whole, 0, 0), heights
        if title + subjects + CELL_PADDING <= room:  # everything whole: the rest to the subjects
            ids = ids if title + subjects + CELL_PADDING + ids <= room else 0  # the id where it fits
            return (SEV_CELLS, title, room - CELL_PADDING - ids - title, ids), one
        needs = max((_subjects_needs(row) for row in self.rows), default=SUBJECTS_MIN_CELLS)
        least = max(min(needs, max(SUBJECTS_MIN_CELLS, int(room * SUBJECT_SHARE))), header)
        plan = plan_rows(titles, [row.subjects for row in self.rows], room, least, spare, TITLE_MIN_CELLS,
                         header)
        self._subjects_wrap = plan.subjects_wrap
        return (SEV_CELLS, plan.title, plan.subjects, 0), plan.heights

    def _subjects_header(self) -> str:
        """The Subject column's header: plural when a row stands for several (its width is never less)."""
        return "Subjects" if any(len(row.subjects) > 1 for row in self.rows) else "Subject"

    def _fill_table(self) -> None:
        """(Re)build the table when the rows or the column widths change; the cursor stays."""
        if not self.is_mounted:
            return
        self._size_panes()
        self._subjects_wrap = True
        widths, heights = self._column_widths()
        if (widths, heights, self._subjects_wrap) == (self._widths, self._heights, self._wrapped):
            return
        self._wrapped = self._subjects_wrap
        self._widths, self._heights = widths, heights
        table = self.query_one("#advice-table", DataTable)
        cursor = table.cursor_row
        table.clear(columns=True)
        sev, title, subjects, ids = widths
        table.add_column("Sev", key="sev", width=sev)
        table.add_column("Finding", key="title", width=title)
        if subjects:
            table.add_column(self._subjects_header(), key="subject", width=subjects)
        if ids:
            table.add_column("Id", key="id", width=ids)
        singles = frozenset(subject for row in self.rows for subject in row.subjects)  # told apart when cut
        for index, (row, lines) in enumerate(zip(self.rows, heights, strict=True)):
            finding = self._finding_of(row)
            shown = (subject_lines(row.subjects, subjects, lines if self._subjects_wrap else 1, singles)[0]
                     if subjects else ())
            cells = [Text(finding.severity.value.upper(), finding.severity.style),
                     Text(wrapped_title(self._title_of(row), title, lines, fit_title))]
            if subjects:
                cells.append(Text("\n".join(shown), "bold"))
            if ids:
                cells.append(Text(finding.id, "dim"))
            table.add_row(*cells, key=str(index), height=lines)
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
        subjects = self.subject if self.subject is not None else row.subjects_text
        text = f"{finding.id} · {subjects}"
        lines = len(wrap_at_slashes(text, max(header.content_size.width, 1)))
        header.update(SlashWrapped(text), layout=lines != self._header_lines)  # a layout pass only
        self._header_lines = lines                                            # when its height changes
        card = self.query_one("#advice-card", FindingCard)
        card.display = True
        card.show(replace(card_content(with_run_note(finding)), id_shown=False))  # the pane's title: the id

    def selected(self) -> Finding | None:
        """The finding under the cursor."""
        table = self.query_one("#advice-table", DataTable)
        row = table.cursor_row
        return self._finding_of(self.rows[row]) if 0 <= row < len(self.rows) else None

    def _finding_of(self, row: MergedFinding) -> Finding:
        """The row's finding about the chosen subject when the list is narrowed to one (its title, evidence
        and fix name that filesystem), else the one finding it stands for, with every subject's evidence, fix
        and verify (newuser23 #4: the card and `c` had only the first's)."""
        if self.subject is None:
            return row.combined
        if row.finding.subject == self.subject:
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


def _subjects_needs(row: MergedFinding) -> int:
    """A row's subjects cell: a single subject whole, a merged list its count and first ("3: /, …")."""
    if len(row.subjects) == 1:
        return cell_len(row.subjects_text)
    return min(cell_len(row.subjects_text), cell_len(f"{len(row.subjects)}: {row.subjects[0]}, …"))


def _card_needs(finding: Finding, row: MergedFinding, core: bool = False) -> int:
    """The card's width that keeps its commands, evidence lines and header (with one subject) whole (only
    its commands and header: `core`); its prose wraps anywhere."""
    commands = [cell_len(line.split("  #")[0].rstrip()) + 2 for line in (*finding.fix, *finding.verify)
                if not line.startswith("#")]  # a trailing comment may go on the next line
    evidence = [] if core else [cell_len(f"{e.what}: {e.value}  {e.source}") + 2 for e in finding.evidence]
    header = cell_len(f"{finding.id} · {row.subjects[0] if len(row.subjects) == 1 else ''}")  # a list wraps
    return max([header, *commands, *evidence])


def fit_title(text: str, width: int) -> str:
    """A title in `width` cells: a path that would be cut away is cut at a "/" instead (keeping its end,
    `fit_path`), so that "the bottom of /tmp/…/mnt-xfs's stack" still names the place; where the title's end
    goes anyway (with an ellipsis), a path before it is shown with its last component whole or not at all
    ("the bottom of …", the Subjects column names it), never cut twice ("…/newuser…4mnt's…", newuser19)."""
    if cell_len(text) <= width:
        return text
    words = text.split(" ")
    for index, word in enumerate(words):
        bare = word.lstrip("('\"")
        if not bare.startswith(("/", f"{ELLIPSIS}/")):
            continue
        start = cell_len(" ".join(words[:index])) + (1 if index else 0)
        whole = width - (cell_len(" ".join(words)) - cell_len(word))  # the path's room in the whole title
        visible = width - 1 - start  # else its room before the ellipsis at the end
        if whole >= PATH_MIN_CELLS and bare.startswith("/"):
            words[index] = fit_path(word, whole) if whole < cell_len(word) else word
        elif visible < cell_len(word) or ELLIPSIS in bare[2:]:  # cut inside its last component already
            last = word.rstrip("/").rsplit("/", 1)[-1]
            if bare.startswith("/") and visible >= max(PATH_MIN_CELLS, cell_len(last) + 2):
                return f"{fit_path(word, visible)}{ELLIPSIS}".join([" ".join(words[:index]) + " ", ""])
            head = " ".join(words[:index])
            return f"{head} {ELLIPSIS}" if cell_len(head) + 2 <= width else fit_words(head, width)
        break
    return fit_words(" ".join(words), width)


class SummaryLine(StatusLine):
    """The Advice summary: its phrases fitted as the status line fits its parts, bold but for the last
    (where the findings come from), which is dim."""

    def render(self) -> Text:
        text = super().render()
        label = part_text(self.parts[-1]) if len(self.parts) > 1 else ""
        text.stylize("bold", 0, len(text))
        if label and text.plain.endswith(label):
            text.stylize("not bold dim", len(text) - len(label))
        return text


class SlashWrapped:
    """A line of text wrapped at the width it is drawn in, after spaces and `/` (wrap_at_slashes)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        for line in wrap_at_slashes(self.text, options.max_width):
            yield Text(line, no_wrap=True, overflow="crop")

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(min(cell_len(self.text), options.max_width), cell_len(self.text))


def _runs_stamp() -> int | None:
    """The saved runs folder's change time now (None: no folder, or none can be found)."""
    try:
        return RunStore().stamp()
    except RunStoreError:
        return None


def _expanded(row: MergedFinding, findings: list[Finding]) -> list[Finding]:
    """The findings a merged row stands for (its members: the same finding on each subject)."""
    members = {(member.subject, member.title) for member in row.members or (row.finding,)}
    return [f for f in findings if f.id == row.finding.id and (f.subject, f.title) in members]


def _placeholder() -> Finding:
    from ..core.findings.vocabulary import Severity

    return Finding("-", Severity.INFO, "", "Reading the host…")
