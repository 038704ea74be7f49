"""The TRIM screen: a verdict per filesystem, the layers and schedule behind it, fixes, and trim now."""

from __future__ import annotations

from collections.abc import Awaitable, Iterator, Mapping
from contextlib import suppress

from diskdoctor.probes.calendar_spec import describe_delta
from diskdoctor.probes.fstrim_run import FstrimResult
from diskdoctor.probes.host import Host
from diskdoctor.probes.root import Root
from diskdoctor.probes.trim_facts import TrimFacts
from diskdoctor.widgets import FindingCard, StatusLine
from diskdoctor.widgets.filter_bar import FilterBar, filter_note, matches
from diskdoctor.widgets.fit_text import fit_parts, fit_path, fit_paths, keeps_last_component, last_component
from diskdoctor.widgets.fitted_footer import FittedFooter
from diskdoctor.widgets.fitted_table import FittedTable
from diskdoctor.widgets.wrap_text import WrappedText
from rich.cells import cell_len
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import DataTable, Header, Static
from textual.widgets.data_table import RowDoesNotExist

from ..base.errors import UsageError
from ..base.formatting import human_bytes
from ..base.shell_wrap import CONTINUATION
from ..core.trim.doctor import TrimVerdict
from ..core.trim.order import worst_first
from ..core.trim.peak_window import PeakWindow
from ..core.trim.trim_now import hold_confirmed_mount
from .cards import card_content
from .host_snapshot import HostSnapshot, SnapshotScreen
from .screen_help import TRIM_HELP
from .selection import choose, chosen, look, looked_at, no_device_words
from .trim_dialogs import ConfirmTrim, PeakDialog, TrimProgress
from .trim_layers import layer_lines

COLUMNS = ("Mountpoint", "FS", "Verdict", "Discard", "Periodic trim", "Warnings")
SHORT_HEADINGS = (("Warnings", "Warn"), ("Periodic trim", "Sched"))
"""Shorter headings, taken together, for a column whose values are narrower than its heading, where
the cells they free keep a mountpoint whole or its last component whole (newuser18: `…/newuser18-ext4mnt`
cut by 2 beside an 8-cell column holding `1`; newuser22 #5: `…/pg_wal_arch…e_recovery` cut twice beside
`Periodic trim` over `none`); F1 says what they stand for (TRIM_HELP). `Sched`, not `Timer` (newuser24 #5:
`Timer` over `none` under "fstrim.timer enabled" read as a contradiction): no scheduled trim of this one."""
TIMER_COLUMNS = (*COLUMNS[:-2], "Sched", "Warn")
HEADING_CHOICES = (COLUMNS, TIMER_COLUMNS)
"""Both short headings together or neither (newuser23 #13d: `Periodic trim` beside `Warn` read as a step)."""
MIN_MOUNTPOINT_CELLS = 16
EDGE = 1
"""A cell kept between the last column and a vertical scrollbar; without one the table takes every cell
(newuser22 #5: `/tmp/newuser22-ext4` cut 1 cell short beside a free cell at the right edge)."""
MARKERS = ("← blocks discard", "← no discard support")
"""A layer's marker (layer_marker) reads whole on one line."""
DETAILS_FRAME_CELLS = 4
"""The details pane's padding and scrollbar gutter: its text's width before the pane is laid out."""
BESIDE_MIN_CELLS = 160
"""From this width of the details pane the fix cards go beside the layers (newuser17 #15: at 200x60 a card
200 cells wide held 120-cell lines), each side wide enough for a card or the layers whole."""
VERDICT_SHARE = (0.4, 0.6)
"""Where neither side can be whole beside the other, the verdict takes what its layers need within these
shares of the pane."""
CARD_FRAME_CELLS = 4
"""A fix card's border and padding."""
CARDS_GAP_CELLS = 2
"""The gap left of the cards (#trim-details.-beside #trim-findings)."""
CARD_LEAST_CELLS = 60
"""The cards are never narrower than this (their prose wraps; their commands stay whole)."""


def cards_need(verdict: TrimVerdict) -> int:
    """The cells the fix cards need beside the verdict, their gap included: each command and check whole
    (indented; a trailing comment may wrap), each card's header, the frame; at least CARD_LEAST_CELLS."""
    lines = [line.split("  #")[0].rstrip() for finding in verdict.findings
             for line in (*finding.fix, *finding.verify) if not line.lstrip().startswith("#")]
    headers = [f"  {finding.severity.value.upper()}  {finding.id}" for finding in verdict.findings]
    card = max(CARD_LEAST_CELLS, *(cell_len(line) + 2 + CARD_FRAME_CELLS for line in [*lines, *headers]))
    return card + CARDS_GAP_CELLS


def cards_fit_beside(verdict: TrimVerdict, room: int) -> bool:
    """Whether the fix cards beside the verdict's least share of `room` show every word of their commands
    whole (a 133-character quoted path on long-names does not fit at 200: the cards go under the verdict,
    the pane's whole width, rather than cut it; newuser21 #8)."""
    words = [word for finding in verdict.findings for line in (*finding.fix, *finding.verify)
             if not line.lstrip().startswith("#") for word in line.split("  #")[0].split()]
    longest = max(map(cell_len, words), default=0) + 2 + len(CONTINUATION)  # a continued line's indent
    return longest + CARD_FRAME_CELLS + CARDS_GAP_CELLS <= room - int(room * VERDICT_SHARE[0])


def headings_and_room(rows: list[tuple[str, ...]], width: int,
                      scrolls: bool = False) -> tuple[tuple[str, ...], int]:
    """The table's headings and its mountpoint column's cells in `width` (a vertical scrollbar's cells
    already taken off; `scrolls`: one cell kept before it, `EDGE`). What the user loses least, in order:
    the whole headings where every mountpoint is whole; else the short headings (HEADING_CHOICES, together)
    that make every mountpoint whole; else that keep every mountpoint's last component whole and the rows
    apart (twins keep the folder that differs whole, `fit_paths`; else cut: newuser23 #3), else their last
    components whole (a cut at a "/": `Warnings` stays whole beside `/var/lib/kubelet/pods/…/mount`,
    newuser20 #3); else, a last
    component cut inside anyway, every short heading, so it shows the most of itself (newuser22 #5).
    Never under MIN_MOUNTPOINT_CELLS where a shorter heading can give."""
    mountpoints = frozenset(row[0] for row in rows)
    edge = EDGE if scrolls else 0

    def room(labels: tuple[str, ...]) -> int:
        others = sum(max([len(labels[i]), *(cell_len(row[i]) for row in rows)]) + 2
                     for i in range(1, len(labels)))
        return width - others - 2 - edge

    rooms = [(labels, room(labels)) for labels in HEADING_CHOICES]
    roomy = [(labels, cells) for labels, cells in rooms if cells >= MIN_MOUNTPOINT_CELLS] or rooms[-1:]

    def named(cuts: Mapping[str, str]) -> bool:
        return all(keeps_last_component(path, cut) for path, cut in cuts.items())

    def apart(cuts: Mapping[str, str]) -> bool:
        return named(cuts) and len(set(cuts.values())) == len(cuts)

    for keeps in (lambda cells: all(cell_len(path) <= cells for path in mountpoints),
                  lambda cells: apart(fit_paths(mountpoints, cells, whole_folders=True)),
                  lambda cells: apart(fit_paths(mountpoints, cells)),
                  lambda cells: named(fit_paths(mountpoints, cells))):
        for labels, cells in roomy:
            if keeps(cells):
                return labels, cells
    labels, cells = roomy[-1]
    return labels, max(cells, MIN_MOUNTPOINT_CELLS)


def verdict_width(verdict: TrimVerdict, facts: TrimFacts, room: int) -> int:
    """The verdict text's width beside the cards, sized from both contents (newuser19 #9: at 200x60 the
    verdict wrapped at ~80 cells beside a 116-cell card with blank cells): every line whole where the cards
    keep what they need (cards_need), else what the cards leave (the summary wraps first), never under
    VERDICT_SHARE's least; where the cards need more than its most (a command with a 130-character path
    wraps anyway), the layers' width within VERDICT_SHARE of `room`."""
    least, most = (int(room * share) for share in VERDICT_SHARE)
    cards = cards_need(verdict)
    if cards <= most:
        whole = max(cell_len(line) for line in verdict_text(verdict, facts).plain.splitlines())
        return max(least, min(whole, room - cards))
    layers = max(cell_len(line) for line in layer_lines(verdict, most).plain.splitlines())
    return max(least, min(layers, most))


def _schedule_cell(verdict: TrimVerdict, facts: TrimFacts) -> str:
    schedule = verdict.schedule
    if schedule.kind == "none":
        return "none"
    when = f", next {describe_delta(schedule.next_run - facts.clock.now)}" if schedule.next_run else ""
    return f"{schedule.kind}{when}"


def details_heading(mountpoint: str, fstype: str, source: str, width: int) -> str:
    """"Details: MOUNTPOINT (FSTYPE on SOURCE)" in `width` cells, each path cut at its "/"
    boundaries with its last component whole (`fit_path`); where one line cannot keep both last components
    whole, two lines, "(FSTYPE on SOURCE)" on the second (newuser21 #9: `(xfs on
    …/luks-elasticsea…-data-volume-01)` at 80, the device's name cut).

    One ellipsis across the whole line would swallow the "(xfs on /dev/…" between the two paths.
    """
    prefix, middle = "Details: ", f" ({fstype} on "
    whole = f"{prefix}{mountpoint}{middle}{source})"
    if len(whole) <= width:
        return whole
    room = max(width - len(prefix) - len(middle) - 1, 16)  # for the two paths
    for mountpoint_cut, source_cut in _heading_cuts(mountpoint, source, room):
        if keeps_last_component(mountpoint, mountpoint_cut) and keeps_last_component(source, source_cut):
            return f"{prefix}{mountpoint_cut}{middle}{source_cut})"
    return (f"{prefix}{fit_path(mountpoint, width - len(prefix))}\n"
            f"{middle.lstrip()}{fit_path(source, width - len(middle))})")


def _heading_cuts(mountpoint: str, source: str, room: int) -> Iterator[tuple[str, str]]:
    """Ways to share `room` between the two paths: the row name half or more, then the source's name whole,
    then the mountpoint's name whole."""
    mountpoint_room = min(len(mountpoint), max(room - len(source), room // 2))  # the row name: half or more
    source_cut = fit_path(source, room - mountpoint_room)
    mountpoint_cut = fit_path(mountpoint, room - len(source_cut))
    source_cut = fit_path(source, room - len(mountpoint_cut))  # what whole folders left over
    yield fit_path(mountpoint, room - len(source_cut)), source_cut
    for first, second, swap in ((source, mountpoint, True), (mountpoint, source, False)):
        first_cut = fit_path(first, min(len(first), len(last_component(first)) + 2))
        second_cut = fit_path(second, room - len(first_cut))
        first_cut = fit_path(first, room - len(second_cut))  # what whole folders left over
        yield (second_cut, first_cut) if swap else (first_cut, second_cut)


def clock_note(facts: TrimFacts) -> tuple[str, ...]:
    """The zone the times are in and where "now" comes from, in shorter forms for narrower lines: their
    reasons in parentheses left out, then both said short ("UTC, now = host clock"), the clock last cut with
    a `…` (newuser22 #9 saw it dropped whole at 120 and 80, then newuser23 the clock dropped at 80)."""
    zone, source = facts.clock.zone_name, facts.clock.source
    zone_name, source_name = zone.split(" (")[0], source.split(" (")[0]
    short_zone = zone_name.removeprefix("Etc/")  # "Etc/UTC": UTC
    short_source = source_name.removeprefix("this ").replace("'s clock", " clock")  # "host clock"
    forms = (f"times in {zone}, now = {source}",
             f"times in {zone_name}, now = {source_name}",
             f"times in {short_zone}, now = {short_source}",
             f"{short_zone}, now = {short_source}",
             f"{short_zone}, now = …")
    return tuple(dict.fromkeys(forms))


def host_summary(facts: TrimFacts, peak: PeakWindow | None, width: int = 0) -> Text:
    """Two lines on the host-wide trim machinery: timer state, cron jobs, peak window; given a `width`, each
    line keeps its first parts (the timer's state, the cron jobs) and leaves out what does not fit, so the
    summary never wraps into rows the filesystem list needs (newuser6 saw 5 rows of it at 80x24)."""
    timer = facts.timer
    state = timer.state + ("" if timer.systemd_running else " (systemd not running)")
    good = timer.active and timer.systemd_running
    scope = {"fstab": "fstab mounts only", "all": "all mounts"}.get(timer.service_scope)
    first = [f"fstrim.timer {state}",
             f"OnCalendar={', '.join(timer.calendars)}" if timer.calendars else "",
             f"overridden in {', '.join(timer.dropins)}" if timer.dropins else "",
             f"fstrim.service trims {scope}" if scope
             else "fstrim.service scope unknown (its unit file was not found)"]
    crons = [f"{c.source}{'' if c.runs else ' (skipped)'}" for c in facts.crons]
    second: list[str | tuple[str, ...]] = [f"cron: {', '.join(crons) if crons else 'no fstrim jobs'}",
              f"peak window: {peak.text if peak else 'not set (p)'}",
              clock_note(facts)]
    if width > 0:
        lines = [fit_parts([(part, index) for index, part in enumerate(first)], width),
                 fit_parts([(part, index) for index, part in enumerate(second)], width)]
    else:
        lines = [" · ".join(part for part in first if part),
                 " · ".join(part if isinstance(part, str) else part[0] for part in second)]
    text = Text("\n".join(lines))
    text.stylize("bold", 0, len("fstrim.timer "))
    end = min(len("fstrim.timer ") + len(state), len(lines[0]))
    text.stylize("green" if good else "yellow", len("fstrim.timer "), end)
    times = lines[1].find(" · times in ")
    if times >= 0:
        text.stylize("dim", len(lines[0]) + 1 + times + 3)
    return text


def fitted_source(source: str, cells: int, line_cells: int = 0) -> str:
    """A source such as "/proc/self/mountinfo (/var/lib/kubelet/pods/…/mount)" in `cells` (0: whole): the path
    in its parentheses cut at a "/" (its last component whole); where even that leaves the line too long,
    the path cut to `line_cells`, a line of its own under it (the line wraps before its "("), rather than
    three wrapped lines of a 120-character path at 80 columns."""
    opened = source.find(" (/")
    if not cells or cell_len(source) <= cells or opened < 0 or not source.endswith(")"):
        return source
    head, path = source[:opened + 2], source[opened + 2:-1]
    room = cells - cell_len(head) - 1
    if room >= cell_len(path.rstrip("/").rsplit("/", 1)[-1]) + 2:  # "…/" and the last component whole
        return f"{head}{fit_path(path, room)})"
    own = line_cells - 3  # "(" and ")" and a cell to spare
    return f"{head}{fit_path(path, own)})" if own > 0 and cell_len(path) > own else source


def verdict_text(verdict: TrimVerdict, facts: TrimFacts, width: int = 0) -> Text:
    """The pieces behind one verdict: layers top-down (one line each in `width` cells, see layer_lines),
    discard mode, schedule, each with its source."""
    text = Text()
    text.append(verdict.summary + "\n\n", verdict.verdict.style)
    text.append_text(layer_lines(verdict, width))
    text.append("\n")
    text.append("Discard mode: ", "bold")
    text.append(f"{verdict.mode.text}  ")
    room = width - cell_len(f"Discard mode: {verdict.mode.text}  ") if width else 0
    line = width - cell_len("Discard mode: ") if width else 0  # a wrapped line hangs under the text
    text.append(f"{fitted_source(verdict.mode.source, room, line)}\n", "dim")
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


class TrimScreen(SnapshotScreen):
    """Does TRIM reach the flash for each filesystem, and when is it trimmed?"""

    SCREEN_HELP = TRIM_HELP
    LIVE_ONLY_ACTIONS = frozenset({"bench_selected", "trim_now"})
    """Keys that on a capture only say the live host is needed: F1 leaves them out there."""
    BINDINGS = [
        Binding("t", "trim_now", "Trim now", tooltip="Run fstrim on the selected filesystem (asks first)."),
        Binding("slash", "filter", "Filter",
                tooltip="Keep the filesystems whose mountpoint, type, verdict or schedule has the text."),
        Binding("b", "bench_selected", "Bench this",
                tooltip="Benchmark the selected filesystem (opens screen 3 with it chosen)."),
        Binding("c", "copy_fixes", "Copy fixes", tooltip="Copy the fix commands to the clipboard (OSC 52)."),
        Binding("p", "peak", "Peak window", tooltip="Declare busy hours; trims inside them are flagged."),
        Binding("r", "refresh", "Refresh", tooltip="Read the host and the trim schedule again."),
        Binding("q", "app.quit", "Quit", tooltip="Quit diskdoctor."),
    ]

    def __init__(self, root: Root) -> None:
        super().__init__()
        self.root = root
        self.verdicts: dict[str, TrimVerdict] = {}
        self.facts: TrimFacts | None = None
        self._peak: PeakWindow | None = None
        self.host: Host | None = None
        self.selected: str | None = None
        self.filter_text = ""
        self._placed: str | None = None
        """The row this screen put the cursor on itself (not the user's choice)."""
        self._no_device: bool = False
        """The selection made elsewhere has no block device (a tmpfs): the heading says so while the cursor
        is on the row this screen put it on."""

    @property
    def peak(self) -> PeakWindow | None:
        """The busy hours declared in this session (kept by the App, applied on each refresh)."""
        return getattr(self.app, "peak_window", None)

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static(id="trim-host")
        yield FittedTable(id="trim-table", cursor_type="row", zebra_stripes=True)
        yield Static("Details", id="trim-details-title", classes="pane-title")
        with VerticalScroll(id="trim-details"):
            yield WrappedText(id="trim-verdict", keep=MARKERS)
            yield Vertical(id="trim-findings")
        yield FilterBar(id="trim-filter")
        yield StatusLine("Reading the host…", id="status")
        yield FittedFooter()

    def on_mount(self) -> None:
        self.sub_title = "Does discard reach the flash, and when is it trimmed?"
        self.query_one("#trim-table", DataTable).add_columns(*COLUMNS)
        self.take_snapshot(getattr(self.app, "snapshot", None))

    def show_snapshot_failure(self, reason: str) -> None:
        self.query_one(StatusLine).say(reason)

    def show_snapshot(self, snapshot: HostSnapshot) -> None:
        """Draw the verdicts of a snapshot once its TRIM facts are in."""
        if not snapshot.trim_ready:
            self.query_one(StatusLine).say("Reading the TRIM facts…")
            return
        if snapshot.trim_facts is None:
            self.query_one(StatusLine).say(snapshot.trim_problem or "could not read the TRIM facts")
            return
        facts = snapshot.trim_facts
        verdicts = worst_first(list(snapshot.trim_verdicts))
        self.facts = facts
        self.host = snapshot.host
        self.verdicts = {v.mountpoint: v for v in verdicts}
        self._peak = snapshot.peak
        self._draw_host()
        self._fill_table()
        table = self.query_one("#trim-table", DataTable)
        selection = chosen(self.app)
        untouched = self._placed == self.selected  # the cursor is where this screen put it
        wanted = selection.mountpoint if selection is not None else self._stack_look()
        wanted = wanted if untouched else None
        if wanted in self.verdicts or self.selected in self.verdicts:
            self.select(wanted if wanted in self.verdicts else self.selected)  # type: ignore[arg-type]
        elif verdicts:
            self._show_details(verdicts[0].mountpoint)
        self._placed = self.selected
        self._say_counts()
        table.focus()

    def _say_counts(self) -> None:
        """The status: how many are OK, and how many rows the list shows when it cannot show them all; a `/`
        filter's count only while it is typed (then the filter line says it: one statement, newuser20 #8)."""
        verdicts = list(self.verdicts.values())
        if not verdicts:
            return
        table = self.query_one("#trim-table", DataTable)
        if self.filter_text and isinstance(self.focused, FilterBar):
            self.query_one(StatusLine).say(filter_note(self.filter_text, table.row_count, len(verdicts),
                                                       "filesystems"))
            return
        ok = sum(1 for v in verdicts if v.verdict == "ok")
        fits = max(table.size.height - 1, 0)  # the header row takes one
        hidden = f"{fits} of {table.row_count} rows fit: ↓ for more" if 0 < fits < table.row_count else ""
        self.query_one(StatusLine).say((f"{ok} of {len(verdicts)} filesystems OK", 0), (hidden, 0),
                                       ("t trim now", 2), ("b bench this", 3), ("F1 help", 1))

    def _fill_table(self) -> None:
        """One row per filesystem; long mountpoints are cut at a "/", their last component whole
        (no sideways scrolling)."""
        if self.facts is None:
            return
        table = self.query_one("#trim-table", DataTable)
        rows = []
        for verdict in self.verdicts.values():
            problems = [f for f in verdict.findings if f.severity != "info"]
            schedule = _schedule_cell(verdict, self.facts)
            if not matches(self.filter_text, verdict.mountpoint, verdict.fstype, str(verdict.verdict),
                           verdict.mode.mode, schedule):
                continue
            rows.append((verdict.mountpoint, verdict.fstype, verdict.verdict, verdict.mode.mode,
                         schedule, str(len(problems)) if problems else "-"))
        width = table.size.width or self.app.size.width
        scrolls = len(rows) + 1 > table.size.height
        if scrolls:  # more rows than it shows: its scrollbar takes room too
            width -= table.styles.scrollbar_size_vertical
        labels, room = headings_and_room(rows, width, scrolls)
        cursor = table.cursor_row
        was = self._cursor_mountpoint(table)
        # the columns made again every time: a DataTable column keeps the widest content it ever held, so
        # after a resize to a narrower terminal the old wide Mountpoint pushed Verdict off the screen
        table.clear(columns=True)
        table.add_columns(*labels)
        cuts = fit_paths(frozenset(row[0] for row in rows), room)  # a cut keeps what tells it from the others
        for mountpoint, fstype, verdict, mode, schedule, problems in rows:
            table.add_row(Text(cuts[mountpoint]), Text(fstype),
                          Text(verdict.upper(), verdict.style), mode, schedule, problems,
                          key=mountpoint)
        kept = [row[0] for row in rows]
        if rows:  # the row the cursor was on stays under it (a filter cleared), else the same line
            table.move_cursor(row=kept.index(was) if was in kept else min(cursor, len(rows) - 1))

    @staticmethod
    def _cursor_mountpoint(table: DataTable[object]) -> str | None:
        """The filesystem of the row under the cursor (None: an empty table)."""
        if not 0 <= table.cursor_row < table.row_count:
            return None
        key = table.coordinate_to_cell_key((table.cursor_row, 0)).row_key.value
        return str(key) if key is not None else None

    def select(self, mountpoint: str) -> bool:
        """Highlight `mountpoint`'s row (the selection made on another screen); False when it has none."""
        if mountpoint not in self.verdicts:
            return False
        table = self.query_one("#trim-table", DataTable)
        with suppress(RowDoesNotExist):  # filtered out: the details still show it
            table.move_cursor(row=table.get_row_index(mountpoint))
        self._show_details(mountpoint)
        return True

    def _draw_host(self) -> None:
        """The host summary folded to the screen's width (two rows, never wrapped into the list's rows)."""
        if self.facts is not None:
            host = self.query_one("#trim-host", Static)
            width = host.content_size.width or self.size.width or self.app.size.width
            host.update(host_summary(self.facts, self._peak, width))

    def on_resize(self) -> None:
        self._draw_host()
        self.call_after_refresh(self._draw_verdict)  # once the details pane has its new width

    def _give_rows(self) -> None:
        """The list takes the rows the details leave blank (newuser21 #12 at 120x40: `13 of 17 rows fit`
        above 2 blank rows under the card), never fewer than its share in app.tcss nor more than it has."""
        table = self.query_one("#trim-table", DataTable)
        pane = self.query_one("#trim-details", VerticalScroll)
        verdict, findings = self.query_one("#trim-verdict"), self.query_one("#trim-findings")
        if pane.has_class("-beside"):
            used = max(verdict.outer_size.height, findings.outer_size.height)
        else:
            used = verdict.outer_size.height + verdict.styles.margin.bottom + findings.outer_size.height
        room = table.outer_size.height + pane.size.height - used  # the rows both share, less the details'
        shown = table.outer_size.height
        if room > shown and shown < table.row_count + 1:  # blank rows under the details: the list's
            table.styles.max_height = min(room, table.row_count + 1)
        elif room < shown and table.styles.inline.max_height is not None:  # the details need them back:
            table.styles.max_height = None  # the share in app.tcss, then what that leaves blank
            self.call_after_refresh(self._give_rows)

    @on(FittedTable.Resized, "#trim-table")
    def _resized(self) -> None:
        """Fit the mountpoints to the new width, and say again how many rows fit."""
        self._fill_table()
        self.call_after_refresh(self._say_counts)

    def action_filter(self) -> None:
        self.query_one(FilterBar).open()

    @on(FilterBar.Filter)
    def _filter_changed(self, message: FilterBar.Filter) -> None:
        self.filter_text = message.text
        self._fill_table()
        table = self.query_one("#trim-table", DataTable)
        shown = table.row_count
        note = filter_note(message.text, shown, len(self.verdicts), "filesystems")
        message.bar.counted(shown, len(self.verdicts), (note.removesuffix(" · Esc clears"),))
        if shown:  # the details follow the filter: the row under the cursor, never one it hid
            key = table.coordinate_to_cell_key((min(max(table.cursor_row, 0), shown - 1), 0)).row_key.value
            if key is not None:
                self._show_details(str(key))
        self._say_counts()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        """The filter line lost the focus (Enter, Esc): the status line without the filter's words."""
        if isinstance(event.widget, FilterBar):
            self.call_after_refresh(self._say_counts)

    @on(DataTable.RowHighlighted, "#trim-table")
    def highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.row_key is not None and event.row_key.value is not None:  # None: an empty table
            self._show_details(str(event.row_key.value))

    def on_screen_resume(self) -> None:
        """Show the filesystem chosen on another screen."""
        super().on_screen_resume()
        selection = chosen(self.app)
        if selection is not None and selection.by != "trim":
            self._no_device = bool(no_device_words(self.app, selection, ""))
            shown = not self._no_device and bool(selection.mountpoint) and self.select(selection.mountpoint)
            if not shown and self.selected is not None:
                self._placed = self.selected  # the cursor stays where it was: put there by this screen
                self._show_details(self.selected)  # the heading says whether the choice is shown here
        elif selection is None and self._placed == self.selected and (looked := self._stack_look()):
            self.select(looked)
        self._placed = self.selected

    def _stack_look(self) -> str | None:
        """Before any choice, the filesystem under Stack's cursor (the first screen seen), when it has a
        row here: the cursor opens on it, so every screen names the same one (newuser21 #5)."""
        looked = looked_at(self.app)
        if chosen(self.app) is None and looked is not None and looked.by == "stack" and \
                looked.mountpoint in self.verdicts:
            return looked.mountpoint
        return None

    def on_screen_suspend(self) -> None:
        """Leaving: a filesystem the user moved to here becomes the selection of every screen."""
        verdict = self.verdicts.get(self.selected or "")
        if verdict is not None and self.selected != self._placed:
            choose(self.app, verdict.kname, verdict.mountpoint, "trim")
        elif verdict is not None and self._stack_look() != verdict.mountpoint:  # only looked at: a
            look(self.app, verdict.kname, verdict.mountpoint, "trim")  # suggestion, never the selection

    def _show_details(self, mountpoint: str) -> None:
        verdict = self.verdicts.get(mountpoint)
        if verdict is None or self.facts is None:
            return
        self.selected = mountpoint
        title = self.query_one("#trim-details-title", Static)
        room = max((title.size.width or self.app.size.width) - 2, 20)
        heading = details_heading(mountpoint, verdict.fstype, verdict.source, room)
        if self._no_device and self._placed in (None, mountpoint):  # the row this screen put the cursor on
            # (a refill on resize puts it back) is never shown as if it were the chosen filesystem
            words = no_device_words(self.app, chosen(self.app), "nothing to trim", room)
            heading = fit_parts([(words, 0), ((f"· cursor on {mountpoint}",), 1)], room, " ") or heading
        lines = heading.count("\n") + 1
        title.styles.height = lines  # one line but where a device's name would be cut (then two)
        title.update(Text(heading), layout=False)  # no layout pass where the height stays
        self._draw_verdict()
        # The cards already shown draw the new findings; only a difference in number mounts or removes
        # one (a remove and a mount of every card cost a restyle of each on every key).
        findings = self.query_one("#trim-findings", Vertical)
        cards = list(findings.query_children(FindingCard))
        for card, finding in zip(cards, verdict.findings, strict=False):
            card.show(card_content(finding))
        changes: list[Awaitable[object]] = []
        if len(cards) > len(verdict.findings):
            changes.append(findings.remove_children(cards[len(verdict.findings):]))
        changes.append(findings.mount_all(FindingCard(card_content(finding))
                                          for finding in verdict.findings[len(cards):]))
        self.call_later(self._rows_after, changes)

    async def _rows_after(self, changes: list[Awaitable[object]]) -> None:
        """Once the cards are mounted or removed and laid out, the list takes the rows the details leave."""
        for change in changes:
            await change
        self.call_after_refresh(self._give_rows)

    def _draw_verdict(self) -> None:
        """The selected filesystem's verdict text, its layers fitted to the details pane's width (its
        scrollbar's gutter kept: the width stays when the text grows past the pane)."""
        verdict = self.verdicts.get(self.selected or "")
        if verdict is None or self.facts is None:
            return
        pane = self.query_one("#trim-details", VerticalScroll)
        region = pane.scrollable_content_region.width or self.app.size.width - DETAILS_FRAME_CELLS
        beside = region >= BESIDE_MIN_CELLS and bool(verdict.findings) and cards_fit_beside(verdict, region)
        pane.set_class(beside, "-beside")
        width = verdict_width(verdict, self.facts, region) if beside else region
        widget = self.query_one("#trim-verdict", Static)
        widget.styles.width = width if beside else None
        widget.update(verdict_text(verdict, self.facts, width))
        self.call_after_refresh(self._give_rows)  # once the verdict and its cards are laid out

    def action_refresh(self) -> None:
        self.query_one(StatusLine).say("Reading the host…")
        self.request_refresh()

    async def action_bench_selected(self) -> None:
        """Open the benchmark with the selected filesystem chosen."""
        if self.selected is None:
            return
        if not self.root.live:
            self.notify("Benchmarks need the live host; this session reads a capture (--sysroot).",
                        severity="warning")
            return
        await self.app.benchmark_directory(self.selected)  # type: ignore[attr-defined]

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
            self.app.peak_window = result if isinstance(result, PeakWindow) else None  # type: ignore[attr-defined]
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
                self.query_one(StatusLine).update(Text(
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
