"""A lazily expanded storage-stack tree with aligned TYPE / SIZE / TRIM / FSTYPE / MOUNT columns, and
ROTA / SCHED / DISC-MAX / DISC-GRAN (lsblk's names) after them when the pane has room.

When every row's cells do not fit the width, NAME, FSTYPE and MOUNTPOINTS are shared out among the rows
shown (those under a collapsed row aside), measured once per rebuild, expand, collapse or resize: scrolling
never moves a column (newuser23 #1: one `k` moved FSTYPE when the fit was that of the rows in view)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Tree
from textual.widgets._tree import TOGGLE_STYLE
from textual.widgets.tree import TreeNode

from .branch_scroll import branch_top
from .fit_text import distinct_cut, fit_end, fit_path, fit_paths
from .list_keys import TREE_KEYS

GUIDE_WIDTH = 4
ICON_WIDTH = 2
GAP = 1
MIN_MOUNTS = 12
MOUNTS_SHARE = 1 / 3
"""The share of the line a very long MOUNTPOINTS keeps when it is cut (in the middle) so that the short
extra columns show: /var/lib/kubelet/pods/…/mount's last 40 cells tell less than ROTA, SCHED and DISC-MAX."""
BEFORE_PATH = 2
"""ROTA and SCHED, the first extra columns, come before cells of a cut MOUNTPOINTS: the path gives them
room down to `ColumnWidths.path_floor` (a sysadmin reads rotational and scheduler before the 20 more cells
of a path already cut in the middle); DISC-MAX and DISC-GRAN take only what MOUNTS_SHARE leaves."""
MIN_FSTYPE = 6
"""FSTYPE's narrowest form ("linux…" still says what it is; ext4, xfs, btrfs are whole)."""
MIN_NAME_CELLS = 9
"""Cells every name keeps after the deepest indentation ("vg_…rd_01" still tells rows apart)."""
TRIM_STYLES = {"yes": "green", "no": "red", "BLOCKED": "bold red", "OK": "bold green",
               "UNSUPPORTED": "yellow", "UNSCHEDULED": "bold yellow", "UNKNOWN": "magenta", "?": "dim"}
"""Device rows say whether the layer accepts discard; mountpoint rows carry the TRIM screen's verdict."""
MATCH_STYLE = "bold black on yellow"
"""The text a `/` filter matched, as less and k9s mark it."""
HEADINGS = ("NAME", "TYPE", "SIZE", "TRIM", "FSTYPE", "MOUNTPOINTS")
EXTRA_HEADINGS = ("ROTA", "SCHED", "DISC-MAX", "DISC-GRAN")
"""Shown after MOUNTPOINTS, in this order of importance, when every column before them is whole but a very
long MOUNTPOINTS, which keeps at least MOUNTS_SHARE of the line."""
SCROLLBAR = 2
EDGE = 1
"""A cell kept between a line's last column and the scrollbar (a cut mountpoint ran into it); without a
scrollbar the line takes every cell (newuser21 #12: a path 1 cell short beside a free cell)."""


@dataclass(frozen=True, slots=True)
class StackRow:
    """One line of the tree: a device or a mountpoint, already formatted for display."""

    key: str
    name: str
    kind: str
    size: str
    trim: str
    fstype: str
    mounts: str
    has_children: bool
    emphasis: str = ""
    extra: tuple[str, ...] = ()
    """ROTA, SCHED, DISC-MAX and DISC-GRAN values (empty on a mountpoint row)."""
    marks: tuple[str, ...] = ()
    """The filter's words when the row itself matches the filter: drawn highlighted (the name when the
    words are in no cell drawn), so the matches stand out from the rows kept for their stacks."""


@dataclass
class ColumnWidths:
    """Widest content seen per column; NAME counts the indentation and expand icon in front of it."""

    name: int = len(HEADINGS[0])
    kind: int = len(HEADINGS[1])
    size: int = len(HEADINGS[2])
    trim: int = len(HEADINGS[3])
    fstype: int = len(HEADINGS[4])
    mounts: int = len(HEADINGS[5])
    indent: int = 0
    """The deepest indentation seen (guides and expand icon), so every name keeps some room."""
    extra: list[int] = field(default_factory=lambda: [len(h) for h in EXTRA_HEADINGS])
    """Widths of the extra columns seen; `fitted` keeps only those that fit (see `shown_extra`)."""
    shown_extra: int = 0
    """How many extra columns a fitted line shows (those in `skipped` aside)."""
    skipped: tuple[int, ...] = ()
    """Extra columns among the first `shown_extra` left out: the same on every row (`uniform`), where a
    name or mountpoint would be cut to show them (newuser24 #12: ROTA `yes` on every loop beside SCHED)."""
    has_mounts: bool = False
    """Whether any row has a mountpoint to show: MOUNTPOINTS (and its header) is left out when none has."""
    name_cells: Counter[int] = field(default_factory=Counter, compare=False, repr=False)
    """Every row's NAME need (indentation included), to split a short line between names and mounts."""
    mount_cells: Counter[int] = field(default_factory=Counter, compare=False, repr=False)
    """Every mountpoint's width."""
    last_cells: Counter[int] = field(default_factory=Counter, compare=False, repr=False)
    """Every mountpoint's narrowest width with its last component whole (`last_whole`)."""
    extra_values: list[set[str]] = field(default_factory=lambda: [set() for _ in EXTRA_HEADINGS],
                                         compare=False, repr=False)
    """Up to two values seen per extra column: one alone, every row reads the same (`uniform`)."""

    def see(self, row: StackRow, depth: int) -> None:
        """Widen the columns for one more row at `depth`."""
        text = "".join((row.name, row.kind, row.size, row.trim, row.fstype, row.mounts, *row.extra))
        cells = len if text.isascii() and text.isprintable() else cell_len  # one cell a character
        icon = ICON_WIDTH if row.has_children else 0
        name = depth * GUIDE_WIDTH + icon + cells(row.name)
        self.indent = max(self.indent, depth * GUIDE_WIDTH + icon)
        self.name = max(self.name, name)
        self.name_cells[name] += 1
        mounts = cells(row.mounts)
        if row.mounts:
            self.mount_cells[mounts] += 1
            self.last_cells[last_whole(row.mounts, mounts)] += 1
        self.kind = max(self.kind, cells(row.kind))
        self.size = max(self.size, cells(row.size))
        self.trim = max(self.trim, cells(row.trim))
        self.fstype = max(self.fstype, cells(row.fstype))
        self.mounts = max(self.mounts, mounts)
        self.has_mounts = self.has_mounts or bool(row.mounts)
        for index, value in enumerate(row.extra[:len(self.extra)]):
            self.extra[index] = max(self.extra[index], cells(value))
            if len(self.extra_values[index]) < 2:
                self.extra_values[index].add(value)

    def uniform(self, index: int) -> bool:
        """Whether every row reads the same in extra column `index` (`yes`, `none`): it tells no row
        apart, so no name or mountpoint is cut to show it (the details still say it)."""
        return len(self.extra_values[index]) <= 1

    def _fixed(self) -> int:
        """TYPE, SIZE and TRIM (always whole) with the gaps between the shown columns."""
        return self.kind + self.size + self.trim + GAP * (5 if self.has_mounts else 4)

    def natural(self, extra: int = len(EXTRA_HEADINGS), skipped: tuple[int, ...] = ()) -> int:
        """Cells a line needs with every column whole and the first `extra` extra columns, `skipped` aside."""
        return (self.name + self._fixed() + self.fstype + (self.mounts if self.has_mounts else 0)
                + sum(width + GAP for index, width in enumerate(self.extra[:extra]) if index not in skipped))

    def shown_indexes(self) -> list[int]:
        """The extra columns a fitted line shows, in order."""
        return [index for index in range(min(self.shown_extra, len(self.extra))) if index not in self.skipped]

    def path_floor(self, width: int) -> int:
        """The narrowest MOUNTPOINTS that ROTA and SCHED may cut it to on a `width`-cell line: every
        mountpoint keeps the last component it shows whole without them (`/var/…/mount` stays; a last
        component already cut there, as `…t_in_time_recovery`, sets no floor), and never under MIN_MOUNTS."""
        room = width - (self.natural(0) - self.mounts)
        kept = (need for need in self.last_cells if need <= room)
        return max(MIN_MOUNTS, max(kept, default=0))

    def in_view(self, view: ColumnWidths, width: int) -> ColumnWidths:
        """Widths for a `width`-cell line from the rows in `view` (the rows shown) when all loaded rows' do
        not fit whole: the columns shown and TYPE/SIZE/TRIM stay those of all loaded rows, NAME, FSTYPE and
        MOUNTPOINTS are shared out among the rows shown, and cells they leave grow them toward all loaded
        rows' widths (NAME first)."""
        whole = self.fitted(width)
        if whole.shown_extra or self.natural(0) <= width or not view.name_cells:
            return whole
        shown = replace(view, kind=self.kind, size=self.size, trim=self.trim, has_mounts=whole.has_mounts,
                        extra=list(self.extra))
        fitted = shown.fitted(width, extra=0)
        spare = width - fitted.natural(0)
        grown = {}
        for column in ("name", "fstype", "mounts"):  # toward all rows' widths: less moves on a scroll
            now = getattr(fitted, column)
            grown[column] = now + max(0, min(spare, getattr(self, column) - now))
            spare -= grown[column] - now
        if not fitted.has_mounts:
            grown["mounts"] = fitted.mounts
        return replace(fitted, extra=list(self.extra), **grown)

    def fitted(self, width: int, extra: int = len(EXTRA_HEADINGS)) -> ColumnWidths:
        """Widths for a `width`-cell line: TYPE/SIZE/TRIM whole, then the names (whole when they can be),
        then MOUNTPOINTS as wide as the widest mountpoint it can show whole, FSTYPE (at least its short
        form: "crypto_L…" still says what it is, a cut name or mountpoint may not), and what is left to
        the mountpoints still cut; a column without room for its shortest form is left out (MOUNTPOINTS
        first) rather than pushed off the edge. At most `extra` extra columns are shown: as many as fit
        with every column whole, or more with a very long MOUNTPOINTS cut to the room left when that keeps
        MOUNTS_SHARE of the line and the last of them is not the same on every row (`uniform`)."""
        shown = min(extra, len(self.extra))
        while shown and self.natural(shown) > width:
            shown -= 1
        floor = self.path_floor(width)
        for count in range(min(extra, len(self.extra)), shown, -1):  # more, with MOUNTPOINTS cut
            if self.uniform(count - 1):
                continue  # the last column added tells no row apart: not worth a cut (newuser23 #12)
            skipped = tuple(index for index in range(count - 1) if self.uniform(index))  # wherever it is
            mounts = width - (self.natural(count, skipped) - self.mounts)
            least = floor if count <= BEFORE_PATH else max(MIN_MOUNTS, int(width * MOUNTS_SHARE))
            if self.has_mounts and mounts >= least:
                name, mounts = self._split(self.name + mounts, self._name_floor(), mounts)
                return replace(self, name=name, mounts=mounts, extra=list(self.extra), shown_extra=count,
                               skipped=skipped)
        if shown:
            return replace(self, extra=list(self.extra), shown_extra=shown)
        has_mounts = self.has_mounts
        flex = width - self._fixed()
        fstype_floor = min(self.fstype, MIN_FSTYPE)
        mounts_floor = min(self.mounts, MIN_MOUNTS) if has_mounts else 0
        if flex - fstype_floor - mounts_floor < self.indent + MIN_NAME_CELLS and has_mounts:
            has_mounts, mounts_floor, flex = False, 0, flex + GAP  # too narrow: MOUNTPOINTS goes first
        name = max(min(self.name, self.indent + MIN_NAME_CELLS),
                   min(self.name, flex - fstype_floor - mounts_floor))
        left = flex - name
        whole = max((need for need in self.mount_cells if need <= left - fstype_floor), default=0)
        mounts = max(mounts_floor, min(self.mounts, whole)) if has_mounts else 0
        fstype = max(fstype_floor, min(self.fstype, left - mounts))
        if has_mounts:
            mounts = max(mounts, min(self.mounts, left - fstype))
        if has_mounts and mounts < self.mounts:
            name, mounts = self._split(name + mounts, self._name_floor(), mounts)
        return ColumnWidths(name, self.kind, self.size, self.trim, fstype, mounts, self.indent,
                            list(self.extra), 0, has_mounts=has_mounts)

    def _name_floor(self) -> int:
        """The narrowest NAME: every name keeps MIN_NAME_CELLS after the deepest indentation."""
        return min(self.name, self.indent + MIN_NAME_CELLS)

    def _split(self, cells: int, name_floor: int, mounts: int) -> tuple[int, int]:
        """NAME and MOUNTPOINTS widths sharing `cells`: first every mountpoint's last component whole that
        can be with the names cut down to `name_floor` (`…/pg_wal_archive_for_point_in_time_recovery`, not
        `…/pg_wal_archi…me_recovery` beside a 59-cell NAME, newuser21 #9: a name cut in its middle still
        tells its row apart, a mountpoint cut twice names no place); then MOUNTPOINTS widened to a
        mountpoint's width when that hides fewer cells of names and mountpoints over all rows (one deep
        name then no longer cuts every mountpoint), else as they were, names whole first."""
        lasts = [need for need in self.last_cells if mounts < need <= cells - name_floor]
        mounts = max(lasts, default=mounts)

        def hidden(mounts: int) -> int:
            name = cells - mounts
            return (sum(rows * max(0, need - name) for need, rows in self.name_cells.items())
                    + sum(rows * max(0, need - mounts) for need, rows in self.mount_cells.items()))

        wider = [need for need in self.mount_cells if mounts < need <= cells - name_floor]
        best = min(wider, key=lambda need: (hidden(need), need), default=mounts)
        if hidden(best) >= hidden(mounts):
            best = mounts
        return cells - best, best


def last_whole(mounts: str, cells: int) -> int:
    """The narrowest cell in which `mounts` (`cells` wide) keeps its last component whole: "…/mount" as
    `fit_path` cuts one path (the component, its "/" and the ellipsis), "/…/efi" as `distinct_cut` cuts
    several ("/boot /boot/efi": one cell of head more)."""
    last = mounts.rstrip("/").rsplit("/", 1)[-1]
    if "/" not in mounts.rstrip("/"):
        return cells
    return min(cells, cell_len(last) + (3 if " " in mounts else 2))


def header_text(widths: ColumnWidths | None = None, room: int = 0) -> Text:
    """The column header shown above the tree, aligned with the rows drawn at these widths; the last
    column's heading runs on into the rest of a `room`-cell line (MOUNTPOINTS over shorter mountpoints)."""
    w = widths or ColumnWidths()
    gap = " " * GAP
    text = (f"{HEADINGS[0]:<{w.name}}{gap}{HEADINGS[1]:<{w.kind}}{gap}{HEADINGS[2]:>{w.size}}{gap}"
            f"{HEADINGS[3]:<{w.trim}}{gap}{fit_end(HEADINGS[4], w.fstype):<{w.fstype}}")
    if w.has_mounts:
        last = w.mounts if w.shown_extra else max(w.mounts, room - cell_len(text) - GAP)
        text += f"{gap}{fit_end(HEADINGS[5], last):<{w.mounts}}"
    if w.shown_extra:
        text += "".join(f"{gap}{EXTRA_HEADINGS[index]:<{w.extra[index]}}" for index in w.shown_indexes())
    return Text(text.rstrip(), style="bold")


def row_label(row: StackRow, depth: int, widths: ColumnWidths | None = None,
              names: frozenset[str] = frozenset(), mounts: frozenset[str] = frozenset()) -> Text:
    """The row's cells padded so columns line up whatever the indentation; a long name is cut in the middle
    where the end that tells it from the others in `names` stays, a mountpoint at its "/" (`fit_path`)."""
    w = widths or ColumnWidths()
    icon = 0 if row.has_children else ICON_WIDTH
    width = max(1, w.name - depth * GUIDE_WIDTH - ICON_WIDTH + icon)
    gap = " " * GAP
    name = distinct_cut(row.name, width, names)
    label = Text(f"{name:<{width}}{gap}", style=row.emphasis or "bold")
    label.append(f"{row.kind:<{w.kind}}{gap}{row.size:>{w.size}}{gap}")
    label.append(f"{row.trim:<{w.trim}}", style=TRIM_STYLES.get(row.trim, ""))
    label.append(f"{gap}{fit_end(row.fstype, w.fstype):<{w.fstype}}")
    if w.has_mounts:
        several = " " in row.mounts  # "/boot /boot/efi": cut where the end tells it apart
        # the column's cuts made once per set of mountpoints and width (`fit_paths`), not once per row
        shown = (distinct_cut(row.mounts, w.mounts, mounts) if several
                 else fit_paths(mounts, w.mounts).get(row.mounts) or fit_path(row.mounts, w.mounts))
        label.append(f"{gap}{shown}")
        if w.shown_extra:
            label.append(" " * (w.mounts - cell_len(shown)))
    if w.shown_extra:
        for index in w.shown_indexes():
            if index < len(row.extra):
                label.append(f"{gap}{row.extra[index]:<{w.extra[index]}}", style="dim")
    if row.marks and not label.highlight_words(row.marks, MATCH_STYLE, case_sensitive=False):
        label.stylize(MATCH_STYLE, 0, len(name))  # the match is in a cut part or the kernel name
    return label


def label_width(row: StackRow, depth: int, widths: ColumnWidths | None = None,
                mounts: frozenset[str] = frozenset()) -> int | None:
    """The cells `row_label` takes, counted without building it (a tree's width is measured over every
    line it has: 6,000 labels built only to be measured at 5,000 devices); None for a row with other than
    printable ASCII, whose cut and padding only the built label tells."""
    text = "".join((row.name, row.kind, row.size, row.trim, row.fstype, row.mounts, *row.extra))
    if not (text.isascii() and text.isprintable()):
        return None
    w = widths or ColumnWidths()
    icon = 0 if row.has_children else ICON_WIDTH
    cells = max(1, w.name - depth * GUIDE_WIDTH - ICON_WIDTH + icon) + GAP
    cells += max(len(row.kind), w.kind) + GAP + max(len(row.size), w.size) + GAP + max(len(row.trim), w.trim)
    cells += GAP + max(0, w.fstype)
    if w.has_mounts:
        shown = min(len(row.mounts), max(0, w.mounts))
        if shown < len(row.mounts) and " " not in row.mounts:  # a path cut at a "/" may take fewer cells
            shown = len(fit_paths(mounts, w.mounts).get(row.mounts) or fit_path(row.mounts, w.mounts))
        cells += GAP + (max(shown, w.mounts) if w.shown_extra else shown)
    if w.shown_extra:
        cells += sum(GAP + max(len(row.extra[index]), w.extra[index])
                     for index in w.shown_indexes() if index < len(row.extra))
    return cells


def _depth(node: TreeNode[StackRow]) -> int:
    """How many visible ancestors a node has (top-level rows are at depth 0)."""
    depth, parent = 0, node.parent
    while parent is not None and parent.parent is not None:
        depth += 1
        parent = parent.parent
    return depth


def _lines_from(root: TreeNode[StackRow], top: int, count: int) -> list[tuple[TreeNode[StackRow], int]]:
    """The nodes (with their depths) of lines `top` to `top + count` of a tree that hides its root, in
    Textual's line order, walked without laying out every line (the first fit of 3,000 rows built them all
    twice)."""
    found: list[tuple[TreeNode[StackRow], int]] = []
    line = 0
    stack = [(node, 0) for node in reversed(root._children)]
    while stack and len(found) < count:
        node, depth = stack.pop()
        if line >= top:
            found.append((node, depth))
        line += 1
        if node._expanded:
            stack.extend((child, depth + 1) for child in reversed(node._children))
    return found


def _last_line_under(node: TreeNode[StackRow]) -> int:
    """The line of the last row drawn under `node` (its own line when closed or childless)."""
    while node.is_expanded and node.children:
        node = node.children[-1]
    return node.line


class StackTree(Tree[StackRow]):
    """Shows rows from `load_children(key)`; children are fetched only when a node is expanded."""

    DEFAULT_CSS = """
    StackTree { width: 1fr; height: 1fr; }
    """

    BINDINGS = [
        Binding("right", "expand_cursor", "Expand", show=False),
        Binding("left", "collapse_cursor", "Collapse / parent", show=False),
        *TREE_KEYS,
        Binding("n", "next_match", "Next match", show=False,
                tooltip="With a / filter: the next row that matches it (as in less and vim)."),
        Binding("N", "previous_match", "Previous match", show=False,
                tooltip="With a / filter: the row that matches it before the cursor."),
    ]

    class LayerSelected(Message):
        """The cursor moved to a row."""

        def __init__(self, row: StackRow) -> None:
            super().__init__()
            self.row = row

    class ColumnsChanged(Message):
        """The column widths changed (new rows or a resize): `header` lines up with the rows."""

        def __init__(self, header: Text) -> None:
            super().__init__()
            self.header = header

    on_cursor: Callable[[StackRow], None] | None = None
    """Called at once when the cursor moves to another row, in place of posting LayerSelected: what the
    screen draws for the row then goes out in the same frame as the cursor (a message arrives after
    that frame was drawn, and its changes wait for a second one)."""

    _adding = False
    """Rows are being added in bulk: the caches are invalidated once after, not once per row (a class
    default: Textual's own __init__ already invalidates)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(Text("stack"), id=id)  # a str is parsed as markup, loading rich's emoji table
        self.show_root = False
        self.guide_depth = GUIDE_WIDTH
        self._load_children: Callable[[str | None], list[StackRow]] = lambda _key: []
        self._loaded: set[int] = set()
        self.widths = ColumnWidths()
        """Widest content of every row loaded so far."""
        self._fitted: ColumnWidths | None = None
        self._revealing: TreeNode[StackRow] | None = None
        """The row `reveal` puts the cursor on after the next refresh (None: none is waiting)."""
        self._names: frozenset[str] = frozenset()
        """Every name loaded, so a name cut short keeps what tells it from the others."""
        self._mounts: frozenset[str] = frozenset()
        self._cut_among: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
        self._shown: ColumnWidths | None = None
        """The widths of the rows shown (`_shown_widths`), None until measured again."""
        self._loaded_rows = 0
        """How many rows are loaded: at most that many lines are shown."""

    def show_rows(self, load_children: Callable[[str | None], list[StackRow]],
                  expand_depth: int = 0) -> None:
        """Replace the tree with the rows `load_children(None)` returns, expanding a few levels."""
        self._load_children = load_children
        self._loaded.clear()
        self._revealing = None  # a reveal waiting for the old rows puts nothing
        self.widths = ColumnWidths()
        self._names = self._mounts = frozenset()
        self._loaded_rows = 0
        self._forget_shown()
        self.clear()
        self._add_children(self.root, None, depth=0)
        self._loaded.add(self.root.id)
        if expand_depth:
            self._expand(self.root, expand_depth)
        self._refit()  # first: placing the cursor lays out every line, at these widths (not the last ones)
        if self.last_line >= 0:  # a filter that keeps no row leaves no line to put the cursor on
            self.move_cursor_to_line(0)

    def _add_children(self, node: TreeNode[StackRow], key: str | None, depth: int) -> None:
        rows = self._load_children(key)
        self._adding = True
        try:
            for row in rows:
                self.widths.see(row, depth)
                node.add(Text(row.name), data=row, allow_expand=row.has_children)
        finally:
            self._adding = False
        if rows:
            self._invalidate()
        self._loaded_rows += len(rows)
        self._forget_shown()
        self._names |= {row.name for row in rows}
        self._mounts |= {row.mounts for row in rows if row.mounts}
        if self._fitted is not None:
            self.call_after_refresh(self._refit)

    def process_label(self, label: str | Text) -> Text:
        """A one-line Text is its own label (Textual copies its first line, twice for every row added:
        a fifth of adding 3,000 rows); anything else as Textual makes it."""
        if isinstance(label, Text) and "\n" not in label.plain:
            return label
        return super().process_label(label)

    def natural_width(self) -> int:
        """Cells the tree needs with every column whole and every extra column (scrollbar included)."""
        return self.widths.natural() + EDGE + SCROLLBAR

    def base_width(self, extra: int = 0) -> int:
        """Cells the tree needs with its six columns whole and `extra` extra columns (scrollbar included)."""
        return self.widths.natural(extra) + EDGE + SCROLLBAR

    def pane_width(self, room: int, scrolls: bool = True) -> int:
        """Cells the tree takes of at most `room`: the columns it shows there, whole, and no wider (a
        path it cuts fills the room); without the scrollbar's cells when its rows do not `scrolls`."""
        bar = SCROLLBAR if scrolls else 0
        fitted = self.widths.fitted(room - bar - EDGE)
        return min(room, self.widths.natural(fitted.shown_extra, fitted.skipped) + EDGE + bar)

    def hidden_extra(self) -> tuple[str, ...]:
        """The extra columns' headings the fitted lines leave out for want of width (none before a fit)."""
        if self._fitted is None:
            return ()
        shown = self._fitted.shown_indexes()
        return tuple(heading for index, heading in enumerate(EXTRA_HEADINGS) if index not in shown)

    def _shown_widths(self) -> ColumnWidths:
        """The widest content of every row shown (a collapsed row's children aside), measured once until
        rows are added, expanded or collapsed (`_forget_shown`), not on a scroll."""
        if self._shown is None and self._all_loaded_shown():  # as measured on adding them
            mounts = max(self.widths.mount_cells, default=0)  # its heading may run on past its values
            self._shown = replace(self.widths, mounts=mounts, extra=list(self.widths.extra))
        if self._shown is None:
            widths = ColumnWidths(mounts=0)
            for node, depth in _lines_from(self.root, 0, self._loaded_rows):
                if node.data is not None:
                    widths.see(node.data, depth)
            self._shown = widths
        return self._shown

    def _all_loaded_shown(self) -> bool:
        """Whether every row loaded is shown: every row whose children were loaded is expanded (a reveal
        loads a row's children without opening it; a collapse hides them)."""
        nodes = self._tree_nodes
        return all(nodes[node_id]._expanded for node_id in self._loaded
                   if node_id != self.root.id and node_id in nodes)

    def _forget_shown(self) -> None:
        """Rows added, expanded or collapsed: the rows shown are measured again at the next fit."""
        self._shown = None

    def _refit(self) -> None:
        """Fit the columns to the width and the rows shown; when they change, redraw and give the screen
        the new header."""
        edge = EDGE if self.show_vertical_scrollbar else 0
        width = (self.scrollable_content_region.width or self.size.width) - edge
        shown = self._shown_widths()  # its whole widths: MOUNTPOINTS as wide as its heading at least
        whole = replace(shown, mounts=max(shown.mounts, len(HEADINGS[5])), extra=list(shown.extra))
        fitted = whole.in_view(shown, width)
        if fitted != self._fitted:
            self._fitted, self._cut_among = fitted, (self._names, self._mounts)
            self._invalidate()
            self.post_message(self.ColumnsChanged(header_text(fitted, self.size.width)))
        elif self._cut_among != (self._names, self._mounts):  # new rows: the cuts that tell names apart
            self._cut_among = (self._names, self._mounts)
            self._invalidate()

    def _on_resize(self, event: events.Resize) -> None:
        super()._on_resize(event)
        self._refit()
        self.call_after_refresh(self.cursor_into_view)

    def cursor_into_view(self) -> None:
        """Scroll so the cursor's row is in view, its branch whole where it fits (newuser23 #2: after a
        resize made on another screen the cursor's row was below the view, no row highlighted)."""
        node = self.cursor_node
        if node is None or node.line < 0:
            return
        top, rows = round(self.scroll_y), self.scrollable_content_region.height
        if rows and not top <= node.line < top + rows:
            self.scroll_to_branch()

    def watch_show_vertical_scrollbar(self, shown: bool) -> None:
        """A vertical scrollbar come or gone changes the room and whether a cell is kept before it
        (`EDGE`): fit again."""
        if self._fitted is not None:
            self.call_after_refresh(self._refit)

    def _invalidate(self) -> None:
        """Textual's per-node invalidation, once per bulk of rows (3,000 rows added were 3,000 refreshes)."""
        if not self._adding:
            super()._invalidate()

    def get_label_width(self, node: TreeNode[StackRow]) -> int:
        """A row's width from the fitted column widths (Textual measures every line when the tree changes);
        the built label's own for the root and rows with wide or unusual characters."""
        if node.data is not None:
            cells = label_width(node.data, _depth(node), self._fitted, self._mounts)
            if cells is not None:
                if not node.allow_expand:
                    return cells
                return cells + cell_len(self.ICON_NODE_EXPANDED if node.is_expanded else self.ICON_NODE)
        return super().get_label_width(node)

    def render_label(self, node: TreeNode[StackRow], base_style: Style, style: Style) -> Text:
        """The row's columns at the fitted widths (the node's own label is only its name)."""
        if node.data is None:
            return super().render_label(node, base_style, style)
        label = row_label(node.data, _depth(node), self._fitted, self._names, self._mounts)
        label.stylize(style)
        if node.allow_expand:
            icon = self.ICON_NODE_EXPANDED if node.is_expanded else self.ICON_NODE
            return Text.assemble((icon, base_style + TOGGLE_STYLE), label)
        return label

    def expansion(self) -> tuple[set[str], set[str]]:
        """Keys of the loaded rows that are expanded and of those that are collapsed (kept on refresh)."""
        expanded: set[str] = set()
        collapsed: set[str] = set()

        def walk(node: TreeNode[StackRow]) -> None:
            for child in node.children:
                if child.data is not None and child.allow_expand and child.id in self._loaded:
                    (expanded if child.is_expanded else collapsed).add(child.data.key)
                walk(child)

        walk(self.root)
        return expanded, collapsed

    def restore_expansion(self, expanded: set[str], collapsed: set[str]) -> None:
        """Open and close rows as they were (rows that no longer exist are ignored)."""
        def walk(node: TreeNode[StackRow]) -> None:
            for child in node.children:
                if child.data is None or not child.allow_expand:
                    continue
                if child.data.key in collapsed:
                    child.collapse()
                elif child.data.key in expanded:
                    self._ensure_loaded(child)
                    child.expand()
                    walk(child)
                elif child.is_expanded:
                    walk(child)

        walk(self.root)

    def _ensure_loaded(self, node: TreeNode[StackRow]) -> None:
        if node.id in self._loaded or node.data is None:
            return
        self._loaded.add(node.id)
        self._add_children(node, node.data.key, depth=_depth(node) + 1)

    def _expand(self, node: TreeNode[StackRow], levels: int) -> None:
        for child in node.children:
            if child.allow_expand and levels > 0:
                self._ensure_loaded(child)
                child.expand()
                self._expand(child, levels - 1)

    def first_marked(self) -> TreeNode[StackRow] | None:
        """The first row drawn that matches the filter itself (`StackRow.marks`), None when none does."""
        for line in range(self.last_line + 1):
            node = self.get_node_at_line(line)
            if node is not None and node.data is not None and node.data.marks:
                return node
        return None

    def branch_top(self, near_top: bool = False) -> int | None:
        """The first line to show so the cursor's branch is whole from its title (`branch_top`); `near_top`:
        the cursor in the upper half of the pane (a filter's first match). None without a cursor row."""
        node = self.cursor_node
        if node is None or node.line < 0 or node.data is None:
            return None
        path = [node]
        while path[0].parent is not None and path[0].parent is not self.root:
            path.insert(0, path[0].parent)
        rows = self.scrollable_content_region.height
        starts = [child.line for row in [self.root, *path] for child in row.children if child.line >= 0]
        return branch_top([row.line for row in path], _last_line_under(path[0]), _last_line_under(node),
                          starts, self.last_line + 1, rows, rows // 2 if near_top else None)

    def scroll_to_branch(self, near_top: bool = False) -> None:
        """Jump the view to `branch_top` (a new direction, a filter): the group whole, its title on top."""
        top = self.branch_top(near_top)
        if top is not None:
            self.scroll_to(y=top, animate=False)

    def cursor_key(self) -> str | None:
        """The key of the highlighted row, to restore it after the rows are rebuilt."""
        node = self._revealing if self._revealing is not None else self.cursor_node
        return node.data.key if node is not None and node.data is not None else None

    def shows(self, path_keys: list[str]) -> bool:
        """Whether the row at the end of `path_keys` (top-level key first) is in the tree (a filter may
        have left it out)."""
        node: TreeNode[StackRow] = self.root
        for key in path_keys:
            self._ensure_loaded(node)  # the root has nothing to load
            child = next((c for c in node.children if c.data is not None and c.data.key == key), None)
            if child is None:
                return False
            node = child
        return bool(path_keys)

    def reveal(self, path_keys: list[str]) -> bool:
        """Open rows along `path_keys` (top-level key first) and highlight the last one found."""
        node: TreeNode[StackRow] = self.root
        found = False
        for key in path_keys:
            child = next((c for c in node.children if c.data is not None and c.data.key == key),
                         None)
            if child is None:
                break
            if node is not self.root:
                node.expand()
            self._ensure_loaded(child)
            node, found = child, True
        if found:
            # The rows' line numbers exist only after the next refresh, and a cursor that stays on the
            # same line announces nothing: move after the refresh and announce the row either way. Until
            # then `cursor_key` says this row: the screen left or rebuilt in between keeps it.
            self._revealing = node
            self.call_after_refresh(self._select, node)
        return found

    def _select(self, node: TreeNode[StackRow]) -> None:
        if self._revealing is not node:
            return  # a later reveal, or the rows rebuilt since: that one puts the cursor
        self._revealing = None
        self.move_cursor(node)
        if node.data is not None:
            self.post_message(self.LayerSelected(node.data))

    def expand_all_below_cursor(self) -> None:
        """Expand the highlighted row and everything under it."""
        node = self.cursor_node
        if node is not None and node.allow_expand:
            self._ensure_loaded(node)
            node.expand()
            self._expand(node, 64)

    def marked_lines(self) -> list[int]:
        """The lines of the rows drawn that match the filter themselves (`StackRow.marks`), in order."""
        found = []
        for line in range(self.last_line + 1):
            node = self.get_node_at_line(line)
            if node is not None and node.data is not None and node.data.marks:
                found.append(line)
        return found

    def _to_match(self, line: int) -> None:
        """The cursor to a match's line, the view on its branch from the rows it rests on (no orphan row on
        top, as k9s and lazygit show a filter's match under its parents)."""
        self.cursor_line = line
        self.scroll_to_line(line, animate=False)
        self.scroll_to_branch()

    def action_scroll_home(self) -> None:
        """The cursor to the first row (with a filter, the first row that matches it); the view jumps there
        as in less and htop (Textual's Tree slides there over ~9 frames, each drawing every line of the tree
        again: 0.2-0.3 s before the last)."""
        marked = self.marked_lines()
        if marked:
            self._to_match(marked[0])
            return
        self.cursor_line = 0
        self.scroll_to_line(self.cursor_line, animate=False)

    def action_scroll_end(self) -> None:
        """The cursor to the last row (with a filter, the last row that matches it), the view jumping there
        (see `action_scroll_home`)."""
        marked = self.marked_lines()
        if marked:
            self._to_match(marked[-1])
            return
        self.cursor_line = self.last_line
        self.scroll_to_line(self.cursor_line, animate=False)

    def action_next_match(self) -> None:
        """With a filter, the next row that matches it, round to the first after the last (as less's `n`)."""
        marked = self.marked_lines()
        if marked:
            self._to_match(next((line for line in marked if line > self.cursor_line), marked[0]))

    def action_previous_match(self) -> None:
        """With a filter, the row before the cursor that matches it, round to the last (less's `N`)."""
        marked = self.marked_lines()
        if marked:
            self._to_match(next((line for line in reversed(marked) if line < self.cursor_line), marked[-1]))

    def action_page_down(self) -> None:
        """The cursor a page down, the view jumping with it (see `action_scroll_home`)."""
        if self.cursor_line == -1:
            self.cursor_line = 0
        self.cursor_line += self.scrollable_content_region.height - 1
        self.scroll_to_line(self.cursor_line, animate=False)

    def action_page_up(self) -> None:
        """The cursor a page up, the view jumping with it (see `action_scroll_home`)."""
        if self.cursor_line == -1:
            self.cursor_line = self.last_line
        self.cursor_line -= self.scrollable_content_region.height - 1
        self.scroll_to_line(self.cursor_line, animate=False)

    def action_expand_cursor(self) -> None:
        """Open the highlighted row (loading its children on first use)."""
        node = self.cursor_node
        if node is not None and node.allow_expand:
            self._ensure_loaded(node)
            node.expand()

    def action_collapse_cursor(self) -> None:
        """Close the highlighted row, or move to its parent when it is already closed."""
        node = self.cursor_node
        if node is None:
            return
        if node.is_expanded:
            node.collapse()
        elif node.parent is not None and node.parent.parent is not None:
            self.move_cursor(node.parent)

    def _on_tree_node_expanded(self, event: Tree.NodeExpanded[StackRow]) -> None:
        self._ensure_loaded(event.node)
        self._forget_shown()
        self.call_after_refresh(self._refit)  # other rows shown

    def _on_tree_node_collapsed(self, event: Tree.NodeCollapsed[StackRow]) -> None:
        self._forget_shown()
        self.call_after_refresh(self._refit)

    def watch_cursor_line(self, previous_line: int, line: int) -> None:
        previous = self._get_node(previous_line)
        super().watch_cursor_line(previous_line, line)
        node = self.cursor_node
        if (self.on_cursor is not None and previous_line != line and node is not None
                and node is not previous and node.data is not None):
            self.on_cursor(node.data)

    def _on_tree_node_highlighted(self, event: Tree.NodeHighlighted[StackRow]) -> None:
        if event.node.data is not None and self.on_cursor is None:
            self.post_message(self.LayerSelected(event.node.data))
