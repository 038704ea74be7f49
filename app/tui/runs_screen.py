"""The Runs screen: every saved run in a table; pick two to see them side by side with deltas and flags."""

from __future__ import annotations

import datetime as dt
import pwd
import re
from dataclasses import dataclass
from pathlib import Path

from diskdoctor.widgets.filter_bar import FilterBar, filter_note, matches
from diskdoctor.widgets.fit_text import ELLIPSIS, Part
from diskdoctor.widgets.fitted_footer import FittedFooter
from diskdoctor.widgets.fitted_table import FittedTable
from diskdoctor.widgets.hidden_columns import WIDER_OR_DETAILS, hidden_columns_forms
from diskdoctor.widgets.status_line import StatusLine
from diskdoctor.widgets.wrap_text import WrappedText
from rich.cells import cell_len
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Header

from ..base.formatting import counted
from ..core.bench.caveats import HOST_LOAD, different_models
from ..core.runs.compare import NOT_COMPARABLE, compare_runs, different_kinds, short_id
from ..core.runs.record import SavedRun
from ..core.runs.render_guard import RunRenderError, rendering
from ..core.runs.store import RunListing, RunStore, RunStoreError
from ..text.runs import ASIDE, LIMIT, TAGS, compare_lines, headline_parts, list_row, show_lines
from .fold_note import fold_note
from .runs_targets import least_target_cell, several_hosts, target_cells, target_forms
from .screen_help import RUNS_HELP
from .selection import choose

TARGET_MIN_CELLS = 16
"""A target is never cut shorter than this (the table scrolls sideways instead)."""
RESULT_MIN_CELLS = 12
TAG_MARK_CELLS = 2
DAMAGED_LEAST_CELLS = len("DAMAGED …")
"""The fewest cells a damaged run's result is given: its reason is cut there ("DAMAGED (KeyError: 'val…"),
never widening the column past the screen; the run's details give it whole."""
HIDDEN_SAVED_FORMS = hidden_columns_forms(("saved",), WIDER_OR_DETAILS)
HIDDEN_SAVED = HIDDEN_SAVED_FORMS[0]
"""The status line's note where the saved column gave way (see RunsScreen._narrow_widths)."""
"""' …' after a verdict whose caveats' tags have no room: the details say them."""
TARGET_BEFORE_LIMIT_CELLS = 32
"""Every verdict's limit ("< 10 ms") is shown before the target gets its whole directory when the target
keeps this many cells: enough for "/tmp/footfit…t-directory (ext4)"."""
SAVED_CELLS = 16
SHORT_SAVED_CELLS = 11
"""The save time without its year ("11-25 23:36") in a table narrower than SHORT_SAVED_BELOW."""
SHORT_SAVED_BELOW = 100
FULL_SAVED_FROM = 160
"""From this table width the save time has its year ("2026-11-26 21:58"); narrower, this year's runs go
without it: one format per width, whatever the list holds (newuser19 #8: a filter that left targets whole
turned `11-26 21:58` into `2026-11-26 21:58`)."""
CELL_PADDING = 2
COLUMNS = 6
"""The list's columns: pick mark, saved, id, kind, target, result (kind only where the runs differ in it)."""
ID_LABEL = "id"
SCROLLBAR_CELLS = 2

LIST_MIN_ROWS = 1
"""Stacked, the runs list has a row per run (one at least, for the empty list), up to LIST_MOST_SHARE of the
screen, and the details or comparison get the rest: two runs leave no blank rows under them."""
LIST_MOST_SHARE = 0.4
LIST_COMPARING_SHARE = 0.2
"""With two runs picked the comparison is what matters: the list keeps a fifth of the screen at least (4 rows
at 80x24, where 40% left the comparison's p99 below the fold: newuser18), and every row the comparison's
content leaves (newuser21 #12: `12 of 25 rows fit` over 4 blank rows at 200x60)."""
LIST_HEADER_ROWS = 1
"""The list's header row (the row of its horizontal scrollbar is added only when the columns overflow)."""

DETAIL_HANG = 2
"""The wrapped lines of an unlabelled line of the details ("durability DIFFERS: …") hang this far in."""

REPLAYED_TITLE = "Saved on this machine, not in the capture"
"""The title under --sysroot: a capture holds no runs, so the runs listed are this machine's."""

PICK_MARK = "●"
MAX_PICKS = 2
MAX_NOTICE_LINES = 3
"""A notice names this many damaged run files; the status line names them all."""
NOTICE_SECONDS = 12


def line_style(line: str) -> str:
    """REGRESSION lines red, improvements green, NOT COMPARABLE yellow."""
    return "bold red" if line.startswith("REGRESSION") or line.endswith("REGRESSION") else (
        "bold green" if line.startswith("improved") else
        "bold yellow" if line.startswith(NOT_COMPARABLE) else "")


def styled(lines: list[str]) -> Text:
    """Plain lines as Text (never parsed as markup), with REGRESSION lines red and improvements green."""
    text = Text()
    for number, line in enumerate(lines):  # no newline after the last: it drew a blank row under the text
        text.append(line + ("\n" if number < len(lines) - 1 else ""), style=line_style(line))
    return text


def _joined(parts: list[tuple[str, int]], shown: set[int]) -> str:
    """The figure and the parts in `shown`, in display order (tags excluded)."""
    return " ".join(text for text, part in parts if text and (part == 0 or part in shown))


def _left_out(parts: list[tuple[str, int]], shown: set[int]) -> bool:
    """Whether the run has a part (its limit, an aside) not in `shown`: its row then ends in " …"."""
    return any(text and part in (LIMIT, ASIDE) and part not in shown for text, part in parts)


def _has_more(parts: list[tuple[str, int]], shown: set[int]) -> bool:
    """Whether the run has tags or a part left out of `shown`: its row may end in " …"."""
    return bool(_tags(parts)) or _left_out(parts, shown)


def _fits(parts: list[tuple[str, int]], shown: set[int], width: int) -> bool:
    """Whether the figure and the parts in `shown` fit `width` with room for " …" after them when the run
    has tags or a part left out (nothing is ever left out silently)."""
    return cell_len(_joined(parts, shown)) + (TAG_MARK_CELLS if _has_more(parts, shown) else 0) <= width


def shown_parts(heads: list[list[tuple[str, int]]], width: int) -> set[int]:
    """The parts between figure and tags (the limit, an aside) the column shows: each on every row or on
    none, so that rows never differ in what they leave out ("INCONCLUSIVE p99 7.03 ms" without its limit
    beside "FAIL p99 16.5 ms ≥ 10 ms", or "PASS p99 3.42 ms [not durable]" beside "PASS p99 8.55 ms < 10
    ms" did); a row whose part is left out ends in " …" (fit_result)."""
    shown: set[int] = set()
    limited = [parts for parts in heads if any(k == LIMIT and t for t, k in parts)]
    if all(_fits(parts, {LIMIT}, width) for parts in limited):
        shown.add(LIMIT)
    having = [parts for parts in heads if any(text and kind == ASIDE for text, kind in parts)]
    if having and all(cell_len(_joined(parts, shown | {ASIDE})) <= width for parts in having):
        shown.add(ASIDE)
    return shown


def fit_result(parts: list[tuple[str, int]], width: int, shown: set[int] | None = None) -> str:
    """A run's result in `width` cells: the verdict with its figure whole, the parts in `shown` (see
    `shown_parts`; by default those this row has room for) where this row has room for them, then its
    tags, last, each whole, and "…" for whatever has no room, a limit as much as a tag (the details say
    it), so that "INCONCLUSIVE p99 7.03 ms …" never drops its "vs 10 ms" silently beside "FAIL … …"."""
    core = parts[0][0]
    if cell_len(core) >= width:
        return core if cell_len(core) == width else core[: max(width - 1, 0)] + ELLIPSIS
    shown = shown_parts([parts], width) if shown is None else shown
    if LIMIT in shown and not _fits(parts, shown, width):
        shown = shown - {LIMIT}
    line = _joined(parts, shown)
    if cell_len(line) > width:
        line, shown = core, set()
    left_out = _left_out(parts, shown)  # a limit or aside without room: " …" says so, as for tags
    tags = re.findall(r"\[[^\]]*\]", _tags(parts))
    for index, tag in enumerate(tags):
        more = TAG_MARK_CELLS if index < len(tags) - 1 or left_out else 0
        if cell_len(line) + 1 + cell_len(tag) + more > width:
            left_out = True
            break
        line += " " + tag
    if left_out and cell_len(line) + TAG_MARK_CELLS <= width:  # "…": more, the details say it
        line += " " + ELLIPSIS
    return line


def least_result_cells(parts: list[tuple[str, int]]) -> int:
    """The fewest cells a run's result is given: its verdict with its figure, and " …" when it has a limit,
    an aside or caveats' tags, so that none of them is ever left out silently."""
    return cell_len(parts[0][0]) + (TAG_MARK_CELLS if _has_more(parts, set()) else 0)


def _tags(parts: list[tuple[str, int]]) -> str:
    return next((text for text, part in parts if part == TAGS and text), "")


def one_kind(runs: list[SavedRun]) -> str | None:
    """The kind every listed run shares ("wal"), None when they differ or none is listed: the kind column
    then says nothing, and its cells go to the other columns (the result header names the kind)."""
    kinds = {run.kind for run in runs}
    return kinds.pop() if len(kinds) == 1 else None


KIND_HEADINGS = {"wal": "WAL"}
"""A kind as the result column's heading names it: "WAL result", where "wal result" read as a column called
"wal result" (newuser19 #8); a kind not here is named as it is ("compaction result")."""


def result_label(kind: str | None, width: int) -> str:
    """The result column's header: "WAL result" where every run is one kind and it fits, else "result"."""
    label = f"{KIND_HEADINGS.get(kind, kind)} result" if kind else "result"
    return label if cell_len(label) <= width else "result"


def status_parts(chunks: list[str], hint: str) -> list[Part]:
    """The status line's parts, kept in this order as it narrows: the first (the count, or why there is
    none), the pick `hint` (what the details compare), the files skipped (their names go before the count
    of them), then the rest from the end; a hidden column's note is kept as the hint is."""
    parts = [part for chunk in chunks  # a filter's note stays one part: "Esc clears" goes with it
             for part in ([chunk] if chunk.startswith("filter ") else chunk.split(" · "))]
    ranked: list[Part] = []
    for index, part in enumerate(parts):
        if index and part.startswith("skipped "):
            ranked.append(((part, part.replace(" (left as is)", ""), part.split(" (left as is)")[0]), 2))
        elif part == HIDDEN_SAVED:  # kept as the hint is: a column the user looks for is said to be hidden
            ranked.append((HIDDEN_SAVED_FORMS, 1))
        elif index and part == hint:  # "● 0021 picked to compare: …": the pick said before what Space does
            ranked.append(((part, part.split(": ")[0]) if ": " in part else part, 1))
        else:
            ranked.append((part, 0 if not index else index + 3))
    return ranked


def home_short(folder: Path) -> str:
    """`folder` with the user's home said as `~` (`~/.local/state/diskdoctor/runs`), as a shell prints it."""
    home = Path.home()
    return f"~/{folder.relative_to(home)}" if folder.is_relative_to(home) and folder != home else str(folder)


def folder_owner(folder: Path) -> str | None:
    """The user name owning `folder` (its uid when it has no name), None when it cannot be read."""
    try:
        uid = folder.stat().st_uid
    except OSError:
        return None
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def target_phrases(*runs: SavedRun) -> tuple[str, ...]:
    """What a comparison never breaks across lines: each run's filesystem with its device and host
    ("(tmpfs: in memory, no disk under it) on vm"), so that no word of it is left alone on a line."""
    phrases = []
    for run in runs:
        described = run.stack.describe()
        what = described[len(run.stack.target.directory):].strip()
        phrases += [f"{what} on {run.host.hostname or '?'}", what]
    return tuple(dict.fromkeys(phrase for phrase in phrases if phrase))


class RunsScreen(Screen[None]):
    """Saved benchmark runs: Space picks up to two, the pane shows one run or the comparison of two."""

    SCREEN_HELP = RUNS_HELP

    BINDINGS = [
        Binding("space", "pick", "Pick", key_display="Space/⏎",
                tooltip="Pick this run (Space or Enter); with two picked, they are compared."),
        Binding("c", "clear", "Clear picks",
                tooltip="Unpick both runs: the pane shows the run under the cursor."),
        Binding("r", "reload", "Reload", tooltip="Read the runs directory again."),
        Binding("slash", "filter", "Filter",
                tooltip="Keep the runs whose id, date, kind, result or target has the text (Esc clears)."),
        Binding("pagedown", "detail_page(1)", "Scroll details down", show=False, priority=True,
                key_display="PgDn",
                tooltip="Page down the run's details or the comparison when they run below the fold."),
        Binding("pageup", "detail_page(-1)", "Scroll details up", show=False, priority=True,
                key_display="PgUp",
                tooltip="Page up the run's details or the comparison."),
        Binding("q", "app.quit", "Quit", tooltip="Quit diskdoctor."),
    ]

    @dataclass
    class RunsLoaded(Message):
        """The runs directory was read (or could not be: `problem`)."""

        listing: RunListing
        problem: str | None = None

    def __init__(self, store: RunStore | None = None) -> None:
        super().__init__()
        self.store = store
        self.stamp: int | None = None
        """The runs folder's change time at the last reading."""
        self.all_runs: list[SavedRun] = []
        """Every saved run, newest first."""
        self.runs: list[SavedRun] = []
        """The rows shown: the runs the filter keeps (every run without one)."""
        self.filter_text = ""
        self.picked: list[str] = []
        self._rows: list[tuple[str, str, str]] = []
        self._every: list[tuple[SavedRun, tuple[str, str, str]]] = []
        """Every run with its row's cells (a damaged run says DAMAGED, and why), made once per reading."""
        self._status_text = ""
        self._widths: tuple[int, ...] = ()
        self._heads: dict[str, list[tuple[str, int]]] = {}
        self._placed: str | None = None
        """The run the screen put the cursor on (the newest by default): nobody chose it."""
        self._shown: tuple[str | None, ...] = ()
        """The picked pair, or the one run, the pane shows (a new one opens at its top)."""

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Vertical(id="runs-body"):
            yield FittedTable(id="runs-table", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="runs-detail-pane"):
                yield WrappedText("", id="runs-detail", paragraph=DETAIL_HANG, labels=(HOST_LOAD,))
        yield FilterBar(id="runs-filter")
        yield StatusLine("Reading saved runs…", id="runs-status")
        yield FittedFooter()

    def on_mount(self) -> None:
        self.sub_title = self._title()
        self.load_runs()

    def on_screen_resume(self) -> None:
        """Coming back after a run was saved elsewhere (the Benchmark screen, a guide, another shell): read
        the runs again when their folder changed since the last reading."""
        if self.store is not None and self.store.stamp() != self.stamp:
            self.load_runs()

    def on_screen_suspend(self) -> None:
        """Leaving: a run the user moved to makes its filesystem the selection of every screen (Advice
        narrows to it); the row the cursor was put on by default chooses nothing."""
        run = self._highlighted()
        if run is None or run.id == self._placed:
            return
        target = run.stack.target
        choose(self.app, None, target.mountpoint or target.directory, "runs", target.directory)
        self._placed = run.id

    @work(thread=True, exclusive=True, group="runs", exit_on_error=False, description="load saved runs")
    def load_runs(self) -> None:
        """Read every run file off the UI thread (parsing histograms of many runs takes a moment)."""
        try:
            self.store = self.store or RunStore()
            self.stamp = self.store.stamp()
            self.post_message(self.RunsLoaded(self.store.scan()))
        except RunStoreError as err:
            self.post_message(self.RunsLoaded(RunListing(), str(err)))

    @on(RunsLoaded)
    def show_runs(self, message: RunsLoaded) -> None:
        self.all_runs = message.listing.newest_first()
        self._every = [(run, list_row(run)) for run in self.all_runs]
        known = {run.id for run in self.all_runs}
        self.picked = [run_id for run_id in self.picked if run_id in known]
        self._status_text = message.problem or self._status(message.listing)
        self._refilter()
        self._notify_damaged(message.listing)

    def _refilter(self) -> None:
        """Show the runs the filter keeps (the table rebuilt, the cursor kept), and say how many."""
        kept = [(run, row) for run, row in self._every
                if matches(self.filter_text, run.id, run.kind, row[0], row[1], row[2])]
        was = self._highlighted()
        self.runs = [run for run, _ in kept]
        self._rows = [row for _, row in kept]
        self._widths = ()
        self._fill_table()
        ids = [run.id for run in self.runs]
        if was is None or was.id == self._placed:  # where the screen put it: on the newest run again
            if ids:
                self.query_one(DataTable).move_cursor(row=0)
            self._placed = ids[0] if ids else None
        elif was.id in ids:  # the cursor stays on the run the user chose
            self.query_one(DataTable).move_cursor(row=ids.index(was.id))
        self.query_one(FilterBar).counted(len(self.runs), len(self.all_runs))
        self._show_status()
        self.call_after_refresh(self._show_status)  # once the list has its height: the runs below its fold
        self._show_detail()

    def _show_status(self) -> None:
        """The status line, its hint saying what is compared once two runs are picked."""
        text = self._status_text.replace("Space/⏎ picks two to compare", self._pick_hint(), 1)
        status = [text]
        if self.filter_text:  # the count of saved runs is in the note: the status keeps its hint
            note = filter_note(self.filter_text, len(self.runs), len(self.all_runs), "runs")
            status = [note, text.removeprefix(f"{self._count_text()} · ")]
        below = fold_note(self.query_one("#runs-table", DataTable))
        if below:  # runs below the fold are said, next to how many there are
            head, _, rest = status[0].partition(" · ")
            status[0:1] = [head, below, *([rest] if rest else [])]
        if self._widths and not self._widths[0] and self.runs:  # the saved column gave way: say so
            head, _, rest = status[0].partition(" · ")
            status[0:1] = [head, HIDDEN_SAVED, *([rest] if rest else [])]
        self.query_one("#runs-status", StatusLine).say(*status_parts(status, self._pick_hint()))
        self.sub_title = self._title()

    def _title(self) -> str:
        """"Comparing 0001 (baseline) with 0002", or what to do ("Pick two to compare"), after `5 Runs`."""
        replayed = self._replayed()  # a capture holds no runs: those listed are this machine's (newuser16)
        if len(self.picked) < MAX_PICKS:
            return REPLAYED_TITLE if replayed else "Pick two to compare"
        first, second = (short_id(run_id) for run_id in sorted(self.picked))  # time first
        comparing = f"comparing {first} (baseline) with {second}"
        return f"On this machine: {comparing}" if replayed else comparing.capitalize()

    def action_filter(self) -> None:
        self.query_one(FilterBar).open()

    @on(FilterBar.Filter)
    def _filter_changed(self, message: FilterBar.Filter) -> None:
        self.filter_text = message.text
        self._refilter()

    def on_resize(self) -> None:
        """The one run's detail wrapped again to the new width (its continuation lines hang)."""
        if len(self.picked) < MAX_PICKS:
            self.call_after_refresh(self._show_detail)
        else:  # the comparison wraps again to the new width: the list takes what it leaves
            self.call_after_refresh(self._fit_list_to_comparison)
        self.call_after_refresh(self._show_status)  # the runs below the new fold

    @on(FittedTable.Resized, "#runs-table")
    def _resized(self) -> None:
        self._fill_table()
        self._show_status()

    def _size_list_height(self, widths: tuple[int, ...]) -> None:
        """The list as tall as its rows (LIST_MIN_ROWS at least, LIST_MOST_SHARE of the screen at most, or
        LIST_COMPARING_SHARE while two runs are compared): a few runs leave no blank rows above a comparison
        that would run below the fold."""
        table = self.query_one(DataTable)
        height = self.app.size.height
        width = table.size.width or self.app.size.width
        columns = sum(1 for cells in widths if cells)  # a hidden kind column is 0 cells, and no padding
        overflows = sum(widths) + columns * CELL_PADDING + 1 + CELL_PADDING > width - SCROLLBAR_CELLS
        comparing = len(self.picked) == MAX_PICKS
        share = LIST_COMPARING_SHARE if comparing else LIST_MOST_SHARE
        chrome = LIST_HEADER_ROWS + (1 if overflows else 0)
        rows = max(min(len(self.runs), int(height * share)), LIST_MIN_ROWS)
        if comparing:  # the comparison as tall as its content, the list the rest (newuser21 #12)
            rows = max(rows, min(len(self.runs), self._room_beside_comparison() - chrome))
        wanted = rows + chrome
        current = table.styles.inline.height
        if (None if current is None else int(current.value)) != wanted:
            table.styles.height = wanted
            table.call_after_refresh(lambda: table.move_cursor(row=table.cursor_row))  # its run in view

    def _room_beside_comparison(self) -> int:
        """The body's rows the comparison leaves, wrapped at the pane's whole width (no scrollbar once it
        fits); 0 before it is laid out."""
        pane = self.query_one("#runs-detail-pane", VerticalScroll)
        detail = self.query_one("#runs-detail", WrappedText)
        if not detail.outer_size.height or not pane.size.width:
            return 0
        width = pane.size.width - detail.styles.gutter.width
        lines = detail.get_content_height(pane.size, pane.size, width) + detail.styles.gutter.height
        return self.query_one("#runs-body").size.height - pane.styles.gutter.height - lines

    @on(events.DescendantFocus, "#runs-filter")
    @on(events.DescendantBlur, "#runs-filter")
    def _filter_shown_or_hidden(self) -> None:
        """The filter bar opened or closed: the body's rows changed, so the list fits the comparison again."""
        if len(self.picked) == MAX_PICKS:
            self.call_after_refresh(self._fit_list_to_comparison)

    def _fit_list_to_comparison(self) -> None:
        """The list's height again once the comparison is laid out (its content's height is known)."""
        if self._widths:
            self._size_list_height(self._widths)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """PgDn/PgUp scroll the details pane only when it runs below the fold (else the list pages)."""
        if action == "detail_page":
            return self.query_one("#runs-detail-pane").max_scroll_y > 0
        return True

    def action_detail_page(self, direction: int) -> None:
        pane = self.query_one("#runs-detail-pane", VerticalScroll)
        if direction > 0:
            pane.scroll_page_down()
        else:
            pane.scroll_page_up()

    def _column_widths(self) -> tuple[int, int, int, int, int]:
        """Saved, id, kind, target and result widths (the id as wide as the longest short id, the one the
        title and `runs show` name a run by), handed out in this order: the verdict with its figure
        (and its limit when the target keeps TARGET_BEFORE_LIMIT_CELLS), the whole result when the target
        keeps TARGET_MIN_CELLS (cut in the middle of its directory), the target with its filesystem type,
        the rest of the result (limit, tags), then the target's device and host."""
        table = self.query_one(DataTable)
        width = table.size.width or self.app.size.width
        if width < SHORT_SAVED_BELOW:
            return self._narrow_widths(width)
        year = dt.datetime.now(dt.timezone.utc).year
        this_year = all(run.saved_at.astimezone(dt.timezone.utc).year == year for run in self.all_runs)
        if width < FULL_SAVED_FROM and this_year:  # the year goes before a target is cut (newuser14 at 120),
            return self._widths_with(width, SHORT_SAVED_CELLS)  # by width only, every run of the folder
        return self._widths_with(width, SAVED_CELLS)

    def _narrow_widths(self, width: int) -> tuple[int, int, int, int, int]:
        """The widths under SHORT_SAVED_BELOW: the save time without its year, or no saved column at all
        where the table would scroll sideways with it, or where runs of several kinds would lose their
        limits with it (at 80: "FAIL p99 116 ms …" for "FAIL p99 116 ms ≥ 20 ms"; each kind is judged
        against its own limit, so there the limit says more than the time); the status line then says the
        column is hidden, and each run's details give its save time."""
        widths = self._widths_with(width, SHORT_SAVED_CELLS)
        several_kinds = one_kind(self.runs) is None
        if self._fits(widths, width) and (self._keeps_limits(widths) or not several_kinds):
            return widths
        bare = self._widths_with(width, 0)
        better = not self._fits(widths, width) or self._keeps_limits(bare)
        return bare if self._fits(bare, width) and better else widths

    def _fits(self, widths: tuple[int, ...], width: int) -> bool:
        """Whether the columns `widths` fit the table's `width` (else it scrolls sideways)."""
        columns = sum(1 for cells in widths if cells) + 1  # the pick mark's column
        return sum(widths) + 1 + columns * CELL_PADDING <= width - SCROLLBAR_CELLS

    def _keeps_limits(self, widths: tuple[int, ...]) -> bool:
        """Whether the result column `widths[-1]` wide shows every verdict's limit ("< 10 ms")."""
        heads = [self._head(run) for run in self._shown_targets()]
        if not any(text and part == LIMIT for parts in heads for text, part in parts):
            return True
        return LIMIT in shown_parts(heads, widths[-1])

    def _widths_with(self, width: int, saved: int) -> tuple[int, int, int, int, int]:
        """The column widths (see _column_widths) with the saved column `saved` cells wide (0: hidden); a
        damaged run's reason never widens the result column (it is cut, "DAMAGED (KeyError: …", and its
        details say it whole)."""
        kind = 0 if one_kind(self.runs) else max([len("kind"), *(len(run.kind) for run in self.runs)])
        ident = max((cell_len(short_id(run.id)) for run in self.runs), default=0)
        ident = max(ident, len(ID_LABEL))
        targets = self._shown_targets()
        hosts = several_hosts(targets)
        forms = [[cell_len(text) for text in target_forms(run, hosts)] for run in targets]
        shortest, with_device, whole = (max((form[i] for form in forms), default=TARGET_MIN_CELLS)
                                        for i in (0, 1, -1))
        heads = [self._head(run) for run in targets]
        damaged = [DAMAGED_LEAST_CELLS] if len(targets) < len(self.runs) else []
        core = max([*(least_result_cells(parts) for parts in heads), *damaged], default=RESULT_MIN_CELLS)
        result_whole = max((cell_len(" ".join(text for text, _ in self._head(run) if text))
                            for run in self.runs), default=RESULT_MIN_CELLS)
        columns = COLUMNS - (0 if kind else 1) - (0 if saved else 1)
        room = width - SCROLLBAR_CELLS - columns * CELL_PADDING - 1 - saved - ident - kind
        result = max(core, RESULT_MIN_CELLS)
        limited = max((cell_len(_joined(parts, {LIMIT})) + (TAG_MARK_CELLS if _tags(parts) else 0)
                       for parts in heads), default=result)
        if room - limited >= TARGET_BEFORE_LIMIT_CELLS:  # every verdict keeps its limit ("< 10 ms")
            result = max(result, limited)
        least_target = max((cell_len(least_target_cell(run)) for run in targets), default=TARGET_MIN_CELLS)
        if room - limited >= max(least_target, TARGET_MIN_CELLS):  # every limit before a whole directory
            result = max(result, limited)
        if room - result_whole >= TARGET_MIN_CELLS:  # then the whole result: the target is cut in its middle
            result = max(result, result_whole)
        target = max(min(shortest, room - result), TARGET_MIN_CELLS)
        result = max(result, min(result_whole, room - target))
        target = max(target, min(whole if room - result >= whole else with_device, room - result))
        result = max(room - target, result)
        target = max(min(target, room - result), TARGET_MIN_CELLS)
        drawn = max(map(cell_len, target_cells(targets, target)), default=target)
        drawn = max(drawn, len("target"))
        if drawn < target:  # a cut at a "/" leaves cells over: the result gets them
            result, target = result + target - drawn, drawn
        return saved, ident, kind, target, result

    def _shown_targets(self) -> list[SavedRun]:
        """The listed runs whose target is shown (a damaged run's row says DAMAGED and why instead)."""
        return [run for run, (_, _, whole) in zip(self.runs, self._rows, strict=True) if whole]

    def _head(self, run: SavedRun) -> list[tuple[str, int]]:
        """The run's headline in parts (its verdict is judged once, not at every resize)."""
        if run.id not in self._heads:
            self._heads[run.id] = headline_parts(run)
        return self._heads[run.id]

    def _fill_table(self) -> None:
        """(Re)build the table when its runs or its width change; the cursor stays on its row."""
        widths = self._column_widths()
        self._size_list_height(widths)
        if widths == self._widths:
            return
        self._widths = widths
        saved, ident, kind, target_cells_width, result_cells = widths
        table = self.query_one(DataTable)
        cursor = table.cursor_row
        table.clear(columns=True)
        columns = (("", "pick", 1), ("saved (UTC)", "saved", saved), (ID_LABEL, "id", ident),
                   ("kind", "kind", kind), ("target", "target", target_cells_width),
                   (result_label(one_kind(self.runs), result_cells), "result", result_cells))
        for label, key, width in columns:
            if width:  # the kind column only where the runs differ in kind
                table.add_column(label, key=key, width=width)
        shown = shown_parts([self._head(run) for run in self.runs], result_cells)
        every = self._shown_targets()
        targets = dict(zip((run.id for run in every), target_cells(every, target_cells_width), strict=True))
        for run, (when, _, target) in zip(self.runs, self._rows, strict=True):
            when = when.removesuffix(" UTC")
            cells = [self._mark(run.id), *([when if saved == SAVED_CELLS else when[5:]] if saved else []),
                     Text(short_id(run.id)),
                     *([Text(run.kind)] if kind else []),
                     Text(targets.get(run.id, "")),
                     Text(fit_result(self._head(run), result_cells, shown),
                          style="bold red" if not target else "")]
            table.add_row(*cells, key=run.id)
        if self.runs:
            table.move_cursor(row=min(max(cursor, 0), len(self.runs) - 1))

    def _count_text(self) -> str:
        """"16 saved runs in root's runs folder": every shell of that user on this host saves there, so
        runs nobody here remembers starting are said to be whose they are (F1 names the folder)."""
        count = counted(len(self.all_runs), "saved run")
        owner = folder_owner(self.store.directory) if self.store else None
        return f"{count} in {owner}'s runs folder" if owner else count

    def _replayed(self) -> bool:
        """Whether the app reads a capture (--sysroot): the runs listed are still this machine's."""
        root = getattr(self.app, "root_to_read", None)
        return root is not None and not root.live

    def _status(self, listing: RunListing) -> str:
        """The status line: how many runs, and every file skipped ("skipped 1 file that is not a run ...")."""
        every = len(self.all_runs)
        status = (f"{self._count_text()} · Space/⏎ picks two to compare" if every else
                  f"No saved runs yet in {home_short(self.store.directory) if self.store else '?'} · every "
                  "benchmark run is saved there")
        skipped = listing.skipped
        if not skipped:
            return status
        if listing.damaged:
            files = counted(len(skipped), "file")
        else:
            files = f"{len(skipped)} file that is not a run" if len(skipped) == 1 else \
                f"{len(skipped)} files that are not runs"
        return status + f" · skipped {files} (left as is): " + ", ".join(name for name, _ in skipped)

    def _pick_hint(self) -> str:
        """"Space/⏎ picks two to compare", the one run picked ("● 3202 picked to compare: Space/⏎ on
        another"), or the two compared ("● comparing 3202 with 7b1e"): the `●` is said to be the compare
        pick, apart from the cursor that other screens follow (newuser21 #4)."""
        if not self.picked:
            return "Space/⏎ picks two to compare"
        if len(self.picked) < MAX_PICKS:
            return f"{PICK_MARK} {short_id(self.picked[0])} picked to compare: Space/⏎ on another (c clears)"
        first, second = (short_id(run_id) for run_id in sorted(self.picked))  # time first
        return f"{PICK_MARK} comparing {first} with {second} (c clears)"

    def _notify_damaged(self, listing: RunListing) -> None:
        """A notice naming each damaged run file and its field (a run the user expects to see is not)."""
        lines = listing.damaged_warnings()
        if lines:
            more = len(lines) - MAX_NOTICE_LINES
            shown = lines[:MAX_NOTICE_LINES] + ([f"and {counted(more, 'more damaged file')}"] if more > 0
                                                else [])
            self.notify("\n".join(shown), title="Saved runs", severity="warning", timeout=NOTICE_SECONDS,
                        markup=False)

    def _mark(self, run_id: str) -> Text:
        return Text(PICK_MARK, style="bold cyan") if run_id in self.picked else Text(" ")

    def _highlighted(self) -> SavedRun | None:
        table = self.query_one(DataTable)
        if not self.runs or table.cursor_row is None or table.cursor_row >= len(self.runs):
            return None
        return self.runs[table.cursor_row]

    def action_pick(self) -> None:
        """Pick or unpick the highlighted run; a third pick drops the oldest pick. A pick is a choice: the
        run the cursor is on is no longer only where the screen put it (newuser23: filtered to one run and
        picked with Space, leaving chose nothing)."""
        run = self._highlighted()
        if run is None:
            return
        self._placed = None
        if run.id in self.picked:
            self.picked.remove(run.id)
        else:
            self.picked = [*self.picked, run.id][-MAX_PICKS:]
        self._fill_table()
        table = self.query_one(DataTable)
        for row_run in self.runs:
            table.update_cell(row_run.id, "pick", self._mark(row_run.id))
        self._show_status()
        self.call_after_refresh(self._show_status)  # once the list has its height: the runs below its fold
        self._show_detail()

    def action_clear(self) -> None:
        self.picked = []
        self._fill_table()
        table = self.query_one(DataTable)
        for run in self.runs:
            table.update_cell(run.id, "pick", self._mark(run.id))
        self._show_status()
        self.call_after_refresh(self._show_status)  # once the list has its height: the runs below its fold
        self._show_detail()

    def action_reload(self) -> None:
        self.load_runs()

    @on(DataTable.RowSelected)
    def _row_entered(self, event: DataTable.RowSelected) -> None:
        """Enter on a run picks it, as Space does (it did nothing: newuser16)."""
        event.stop()
        self.action_pick()

    @on(DataTable.RowHighlighted)
    def _highlight_changed(self) -> None:
        if len(self.picked) < MAX_PICKS:
            self._show_detail()

    def _show_detail(self) -> None:
        """The pane: the comparison of the two picked runs, else the run under the cursor; a pair or run
        other than the one shown before opens at its top (the last one's scroll offset hid its verdict)."""
        run = self._highlighted()
        shown = tuple(sorted(self.picked)) if len(self.picked) == MAX_PICKS else (run.id if run else None,)
        if shown != self._shown:
            self._shown = shown
            self.query_one("#runs-detail-pane", VerticalScroll).scroll_home(animate=False, immediate=True)
        self._fill_detail(run)

    def _detail_hint(self, run: SavedRun) -> str:
        """The last line of a run's details: what Space does with it, the picked run named by its `●`."""
        if not self.picked:
            return "Space picks this run; pick a second one to compare."
        if run.id in self.picked:
            return (f"{PICK_MARK} marks this run, picked to compare: Space on another run compares the two "
                    "(Space here unpicks it).")
        return (f"{PICK_MARK} marks run {short_id(self.picked[0])}, picked to compare: Space on this run "
                "compares the two (c clears the pick).")

    def _fill_detail(self, run: SavedRun | None) -> None:
        detail = self.query_one("#runs-detail", WrappedText)
        detail.keep = ()
        detail.fields = len(self.picked) < MAX_PICKS  # a comparison's caveat lines all hang alike
        by_id = {run.id: run for run in self.all_runs}  # a picked run stays picked when filtered out
        if len(self.picked) == MAX_PICKS:
            first, second = by_id[self.picked[0]], by_id[self.picked[1]]
            if first.kind != second.kind:
                detail.update(Text(different_kinds(first, second), style="bold yellow"))
                return
            try:
                with rendering(f"the comparison of runs {first.id} and {second.id}"):
                    models = different_models(first.id, first.record.caveats(), second.id,
                                              second.record.caveats())
                    lines = [] if models else compare_lines(compare_runs(first, second), target_below=True)
            except RunRenderError as err:
                detail.update(Text(str(err), style="bold red"))
                return
            if models:
                detail.update(Text(models, style="bold yellow"))
                return
            title = "Comparison (the older run is the baseline; PgDn/PgUp scroll it)"
            detail.keep = target_phrases(first, second)
            detail.update(styled([title, "", *lines]))
            self.call_after_refresh(self._fit_list_to_comparison)
            return
        if run is None and self.all_runs and self.filter_text:
            detail.update(Text(f"No run matches the filter '{self.filter_text}' (/ then Esc clears it)."))
            return
        if run is None:
            detail.update(Text("Run a benchmark (key 3, or `diskdoctor bench wal --dir DIR`): it is saved "
                               "here, and two runs can be compared."))
            return
        hint = self._detail_hint(run)
        try:
            detail.update(styled([*show_lines(run), "", hint]))  # wrapped where drawn, lines hanging
        except RunRenderError as err:
            detail.update(Text(f"{err}\n\n{hint}", style="bold red"))

