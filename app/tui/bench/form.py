"""The Benchmark screen's form: where to test, which workload and its settings, checked as they are typed."""

from __future__ import annotations

import os
import re

from diskdoctor.app.core.bench.kind import FormDefaults, FormValues
from diskdoctor.app.core.bench.kinds import KINDS, kind_of
from diskdoctor.app.core.bench.profile_name import base_profile
from diskdoctor.probes.engine.workloads.randwrite import RandwriteParams
from diskdoctor.probes.host import Host
from diskdoctor.probes.wal_params import (
    ARRIVALS,
    PROFILES,
    SYNC_METHODS,
    ParamError,
    WalParams,
    parse_duration,
    parse_rates,
    parse_size,
    profile_params,
)
from diskdoctor.widgets import TextField
from diskdoctor.widgets.form_rows import lay_out_rows
from rich.cells import cell_len
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.dom import DOMNode
from textual.events import DescendantBlur, DescendantFocus
from textual.validation import Function
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Select, Static, Tab, Tabs
from textual.widgets._select import SelectCurrent, SelectOverlay

from . import filesystem_menu, view, workloads
from .folded import FoldedForm, rates_text

FIELDS = ("bs", "size", "duration", "jobs", "rates")
"""The form's text fields after the directory, in the order they are shown."""
LOAD_CONTROLS = ("rates", "arrival", "capacity")
"""The WAL's load: open-loop rates, their arrivals, and whether the closed-loop capacity run follows."""
DEFAULT_RATES = rates_text(PROFILES["etcd"].rates)
SELECT_EDGES = 8
"""Columns a menu takes besides its longest entry (edges, padding, the ▼)."""
OPEN_LIST_EDGES = 6
"""Columns an open list takes besides its entry (its edges, its padding and the entry's): fewer than the
shut menu's (no ▼): cut for SELECT_EDGES an entry left 4 blank cells (newuser19: 16, cut at a `/`)."""
OPEN_LIST_ROWS = 10
"""The entries an open list shows (Textual's max-height 12, less its edges); a scrollbar beyond."""
FIELD_EDGES = 6
"""Columns a text field takes besides its text (edges and padding); its label in the border needs as many."""
CHECKBOX_EDGES = 9
"""Columns a checkbox takes besides its label (edges, padding, the ▐X▌)."""
START_WIDTH = 10
NO_DURATION = "until size"
"""The seconds field when empty: the run ends once its size is written (once "-", then "by size", which
newuser16 could not read)."""
DIRECTORY_LEAST = 20
"""The directory field's least width (its path is cut at a `/` beyond it; typed, it scrolls)."""
FILESYSTEM_LEAST = 20
"""The filesystem menu's least width (its entry is cut beyond it)."""
WHERE_SHARES = ((160, (0.28, 0.23)), (100, (0.37, 0.27)), (0, (0.49, 0.33)))
"""(least form width, (the filesystem menu's share, the directory's)) per width class, widest first: the two
fields' widths follow the form's width only (newuser21 #7), and leave room for the fields after them in the
first row (WAL: at 80 columns the profile, at 120 up to size, at 200 up to segments); they share what that
row leaves."""
SHORT_ROW = 0.3
"""A row may end this share of the form short only where the next row's first field would not fit in it
(newuser21 #6: at 200 columns row 1 ended at column 83)."""


def one_leading_slash(path: str) -> str:
    """A path with its leading slashes made one ("//mnt/x" is "/mnt/x", as the kernel reads it)."""
    stripped = path.lstrip("/")
    return "/" + stripped if stripped != path else path


def bytes_text(size: int) -> str:
    """A byte count as the form shows it, with its unit: "2,300 B", "22 MiB", "8 KiB"; exact, as the form
    reads it back (formatting.binary_size rounds 2300 to "2.25 KiB")."""
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if size >= 1 << shift and not size % (1 << shift):
            return f"{size >> shift:,} {unit}"
    return f"{size:,} B"


def shown_bytes(text: str) -> str:
    """A typed or default size ("2300", "22m") as the form shows it ("2,300 B", "22 MiB"); as it was when
    it is not one."""
    try:
        return bytes_text(read_size(text)) if text.strip() else text
    except ParamError:
        return text


LEFT_UNIT = re.compile(r"(\d\s*[kmgt])\s*[kmgt]?i?b$", re.IGNORECASE)
"""A suffix typed before the unit the field showed ("8k B": the cursor sits before the unit on focus)."""


def read_size(text: str, what: str = "size") -> int:
    """Bytes from what a size field holds: "2300", "8k", "22m", or as shown, "2,300 B" and "22 MiB"; a
    suffix typed in front of the shown unit wins over it ("8k B" is 8k, "64k MiB" 64k)."""
    return parse_size(LEFT_UNIT.sub(r"\1", text.replace(",", "").strip()), what)


def _valid_size(text: str) -> bool:
    """Empty (the profile's value) or a size such as 2300, 8k, 22m (or 2,300 B, 22 MiB)."""
    try:
        return not text.strip() or read_size(text) > 0
    except ParamError:
        return False


def _valid_duration(text: str) -> bool:
    """Empty (run by size) or a duration such as 30, 500ms, 2m."""
    try:
        return not text.strip() or parse_duration(text.strip()) > 0
    except ParamError:
        return False


def _valid_rates(text: str) -> bool:
    """Empty (the closed loop only) or writes/s such as 500, 50,500 or 1.5k."""
    try:
        return not text.strip() or bool(parse_rates(text))
    except ParamError:
        return False


def _valid_jobs(text: str) -> bool:
    """A whole number of parallel processes, 1 or more."""
    return text.strip().isdigit() and int(text) >= 1


def label_fields(node: DOMNode) -> None:
    """Put every form field's label in its border (placeholders vanish once something is typed)."""
    for selector, label in view.FIELD_LABELS.items():
        for field in node.query(selector):
            (field.query_one(SelectCurrent) if isinstance(field, Select) else field).border_title = label


def focused_field(node: Widget | None) -> tuple[Widget, str] | None:
    """The form field `node` is (or is in: a menu's overlay) with its label; None outside the fields."""
    for each in (node, *(node.ancestors if node is not None else ())):
        label = view.FIELD_LABELS.get(f"#{each.id}") if isinstance(each, Widget) else None
        if label is not None:
            return each, label  # type: ignore[return-value]
    return None


def mark_field(field: Widget, label: str, focused: bool) -> None:
    """The field's label in reverse while it has the focus (newuser24 #11: nothing showed which field a `5`
    would go into); the status line names it too, for a text capture."""
    (field.query_one(SelectCurrent) if isinstance(field, Select) else field).border_title = \
        Text(label, style="reverse") if focused else label


def editing_words(label: str) -> str:
    """The status line's words while a field has the focus."""
    return f"editing {label} · Esc leaves the field"


def shown_entry(menu: Select) -> str:
    """The entry a shut menu shows (its prompt while nothing is picked)."""
    return next((str(prompt) for prompt, value in menu._options if value == menu.value), str(menu.prompt))


def longest_entry(menu: Select) -> int:
    """The columns a menu's open list needs for its longest entry whole."""
    return max((cell_len(str(prompt)) for prompt, _ in menu._options), default=0) + SELECT_EDGES


class BenchForm(Vertical):
    """The settings row(s) and the line under them naming every invalid field."""

    DEFAULT_CSS = "BenchForm { height: auto; }"

    def __init__(self) -> None:
        super().__init__(id="bench-form-area")
        self.kind = "wal"
        """The workload the form is filled for (the one a Start would run)."""
        self.host: Host | None = None
        self._packed_wants: dict[str, int] = {}
        """What each field other than the filesystem menu and the directory counts for when rows are packed:
        what it wanted when the form was filled for its workload, so a value typed since never re-flows the
        rows (newuser20 #6: `5` typed in `seconds` moved `size` to the second row at 120)."""

    def compose(self) -> ComposeResult:
        yield Tabs(*(Tab(name, id=f"workload-{name}") for name, kind in KINDS.items() if kind.benchmark),
                   id="bench-workloads")
        with Horizontal(id="bench-form"):
            yield Select([], prompt="pick one", id="bench-fs")
            yield TextField(placeholder="/path/to/test", id="bench-dir", select_on_focus=False, show_end=True,
                            validators=[Function(self._valid_directory, "directory: no such directory")])
            yield Select([(value, value) for _, value in workloads.choices()], value="etcd",
                         allow_blank=False, id="bench-profile",
                         tooltip="a WAL profile, or another workload: compaction, 4k random writes, "
                                 "the WAL under compaction")
            yield TextField("2,300 B", placeholder="2300", id="bench-bs", select_on_focus=False,
                            tooltip="bytes per write, e.g. 2300 or 8k",
                            validators=[Function(_valid_size, "block size: bytes, e.g. 2300 or 8k")])
            yield TextField("22 MiB", placeholder="22m", id="bench-size", select_on_focus=False,
                            tooltip="total bytes, e.g. 22m",
                            validators=[Function(_valid_size, "size: bytes, e.g. 22m or 1g")])
            yield TextField(placeholder=NO_DURATION, id="bench-duration", select_on_focus=False,
                            tooltip="seconds; overrides size (empty: the run ends once size is written)",
                            validators=[Function(_valid_duration, "duration: seconds, e.g. 30 or 2m")])
            yield Select([(m, m) for m in SYNC_METHODS], value="fdatasync", allow_blank=False,
                         id="bench-sync")
            yield Checkbox("prealloc", True, id="bench-prealloc")
            yield TextField("1", placeholder="1", id="bench-jobs", select_on_focus=False,
                            tooltip="parallel compaction processes",
                            validators=[Function(_valid_jobs, "jobs: a whole number, 1 or more")])
            yield Checkbox("O_DIRECT", True, id="bench-direct")
            yield TextField(DEFAULT_RATES, placeholder="closed loop", id="bench-rates", select_on_focus=False,
                            tooltip="open-loop writes/s, each its own load: 500; 50, 500 (two loads); "
                                    "1.5k (empty: the closed loop only)",
                            validators=[Function(_valid_rates, "writes/s: e.g. 500 or 50, 500")])
            yield Select([(a, a) for a in ARRIVALS], value="steady", allow_blank=False, id="bench-arrival",
                         tooltip="steady: a write every 1/rate s; poisson: independent clients")
            yield Checkbox("capacity", True, id="bench-capacity",
                           tooltip="then the closed loop, as the disk's capacity (never the verdict)")
            yield Button("Start", id="bench-start", variant="primary")
        yield Static("", id="bench-form-error")
        yield Static("", id="bench-form-summary")  # the form folded into one line (a short terminal)

    def on_mount(self) -> None:
        self.query_one("#bench-form-summary").display = False
        self.query_one("#bench-jobs").display = self.query_one("#bench-direct").display = False
        self.query_one("#bench-form").add_class("-load")  # the form starts on etcd's WAL
        label_fields(self)
        self.fit_fields()

    def on_resize(self) -> None:
        self.fit_fields()

    def on_descendant_focus(self, event: DescendantFocus) -> None:
        if (found := focused_field(event.widget)) is not None:
            mark_field(*found, focused=True)
        if event.widget.id == "bench-dir":  # room to type in only while the directory field has focus
            self.fit_fields()
        if event.widget.id in ("bench-bs", "bench-size"):  # typing goes into the number, before its unit
            self.call_after_refresh(self._cursor_before_unit, event.widget)

    @staticmethod
    def _cursor_before_unit(field: Widget) -> None:
        """The cursor after a size's last digit ("2,300| B"), so a digit typed there stays a size."""
        if isinstance(field, Input) and field.has_focus and not field.selected_text:
            number = re.match(r".*\d", field.value)
            if number is not None and field.cursor_position == len(field.value):
                field.cursor_position = number.end()

    def on_descendant_blur(self, event: DescendantBlur) -> None:
        if (found := focused_field(event.widget)) is not None:
            mark_field(*found, focused=False)
        if isinstance(event.widget, Input):  # what was typed there, whole (and the directory's rows again)
            self.fit_fields()

    def _want(self, field: Widget) -> int:
        """The columns `field` needs to show its label and what it holds whole (a shut menu: the entry it
        shows; its open list is as wide as its longest entry, see `fit_fields`)."""
        label = cell_len(view.FIELD_LABELS.get(f"#{field.id}", "")) + FIELD_EDGES
        if field.id == "bench-fs":
            return max(label, cell_len(self.filesystem_label()) + SELECT_EDGES)
        if isinstance(field, Select):
            return max(label, cell_len(shown_entry(field)) + SELECT_EDGES)
        if isinstance(field, Input):  # and a cell for the cursor at the end (the directory: while typed in)
            cursor = 0 if field.id == "bench-dir" and not field.has_focus else 1
            return max(label, cell_len(field.value or field.placeholder) + FIELD_EDGES + cursor)
        if isinstance(field, Checkbox):
            return cell_len(str(field.label)) + CHECKBOX_EDGES
        return START_WIDTH

    def filesystem_label(self, short: bool = False) -> str:
        """What the shut filesystem menu shows: its entry, always the mountpoint first ("/  (ext4 on vda)",
        "/tmp/x  (tmpfs: in memory)": newuser17 read `tmpfs: in memory` for every tmpfs), or, `short`, with
        the mountpoint cut to its last component (its row too narrow for the entry and the directory)."""
        entry = shown_entry(self.query_one("#bench-fs", Select))
        return filesystem_menu.shortest_entry(entry) if short else entry

    def _fitted_filesystem_label(self, room: int) -> str:
        """The shut menu's label in `room` cells: the mountpoint cut at a `/` before its note is said shorter
        (never `/dev/shm  (tmpfs: in memor…`, newuser13)."""
        return filesystem_menu.fit_entry(shown_entry(self.query_one("#bench-fs", Select)), room)

    def _groups(self, shown: list[Widget]) -> list[list[Widget]]:
        """The fields in reading order, in the groups a row never splits: where and what (filesystem,
        directory, profile), the settings, then the WAL's load; Start ends the last group."""
        where = [field for field in shown if field.id in ("bench-fs", "bench-dir", "bench-profile")]
        load = [field for field in shown if str(field.id).removeprefix("bench-") in LOAD_CONTROLS]
        start = [field for field in shown if field.id == "bench-start"]
        settings = [field for field in shown if field not in (*where, *load, *start)]
        if load:
            load += start
        else:
            settings += start
        return [group for group in (where, settings, load) if group]

    def _packing(self, groups: list[list[Widget]], total: int) -> tuple[int, ...]:
        """How many fields each row takes, row 1 filled before row 2 (newuser21 #6: at 200 columns row 1
        held three fields and ended at column 83): the first group whole, then each field while it fits; the
        WAL's load stays in one row unless that leaves a row more than SHORT_ROW of the form short. Every
        field counts for a width fixed by the form's width and workload (`_packed`), never what it holds, so
        neither a path nor a typed value moves a field to another row."""
        if not groups:
            return ()
        first, *rest = groups
        fields = [field for group in rest for field in group]
        load = rest[-1] if len(rest) > 1 and any(str(field.id).removeprefix("bench-") in LOAD_CONTROLS
                                                 for field in rest[-1]) else []
        settings = [[field] for field in fields if field not in load]
        kept = self._flow([first, *settings, *([load] if load else [])], total)
        if all(sum(map(self._packed, row)) >= total * (1 - SHORT_ROW) for row in kept[:-1]):
            return tuple(map(len, kept))
        return tuple(map(len, self._flow([first, *([field] for field in fields)], total)))

    def _packed(self, field: Widget) -> int:
        """The columns `field` counts for when rows are packed: the filesystem menu and the directory their
        width for the form's width (`_fixed_width`); the others what they held whole when the form was filled
        for the workload (`_packed_wants`: newuser20 #6, `5` typed in `seconds` moved `size` at 120)."""
        if field.id in ("bench-fs", "bench-dir"):
            return self._fixed_width(str(field.id))
        return self._packed_wants.setdefault(str(field.id), self._want(field))

    def _fixed_width(self, field_id: str) -> int:
        """The filesystem menu's or the directory's width: a share of the form's width for its width class,
        whatever the path, the menu's entry or what is being typed (newuser21 #7: both fields changed width
        at Ctrl-U, at each key and when the directory was left)."""
        total = self._total()
        shares = next(shares for least, shares in WHERE_SHARES if total >= least)
        share_of = shares[0] if field_id == "bench-fs" else shares[1]
        least = FILESYSTEM_LEAST if field_id == "bench-fs" else DIRECTORY_LEAST
        return max(least, int(total * share_of))

    def _total(self) -> int:
        """The columns the form's fields share (its width less the grid's gutter)."""
        return self.size.width - self.query_one("#bench-form").styles.gutter.width

    def _flow(self, units: list[list[Widget]], total: int) -> list[list[Widget]]:
        """The units (a group, or a field) in rows from the first: each joins the current row while it
        fits, else starts the next."""
        rows: list[list[Widget]] = []
        used = 0
        for unit in units:
            width = sum(map(self._packed, unit))
            if rows and used + width <= total:
                rows[-1].extend(unit)
                used += width
            else:
                rows.append(list(unit))
                used = width
        return rows

    def fit_fields(self) -> None:
        """Size every field: the filesystem menu and the directory at their width for the form's width, the
        others as wide as their label and value (a menu the entry it shows, its open list its longest); a
        path or an entry longer than its field is cut (at a `/`, its last folder whole)."""
        grid = self.query_one("#bench-form")
        total = self._total()
        if total <= 0:
            return
        groups = self._groups([field for field in grid.children if field.display])
        fields = [field for group in groups for field in group]
        rows: list[list[tuple[Widget, int]]] = []
        for count in self._packing(groups, total):
            rows.append(self._fit_row(fields[:count], total))
            fields = fields[count:]
        lay_out_rows(grid, rows, total)
        menu = self.query_one("#bench-fs", Select)
        if not menu.is_blank():
            menu.query_one(SelectCurrent).update(self._fitted_filesystem_label(
                self._fixed_width("bench-fs") - SELECT_EDGES))
        for row in rows:
            left = 0
            for field, width in row:
                if isinstance(field, Select):  # the open list: its longest entry, kept inside the screen
                    self._fit_open_list(field, max(width, min(longest_entry(field), total - left)))
                left += width

    @staticmethod
    def _fit_open_list(menu: Select, width: int) -> None:
        """The open list `width` cells wide, an entry too long for it cut at a `/` with `…` (newuser17: the
        last entry ended `(tmpfs: in` at 80, cut silently by the screen's edge)."""
        overlay = menu.query_one(SelectOverlay)
        overlay.styles.width = width
        scrollbar = overlay.styles.scrollbar_size_vertical if len(menu._options) > OPEN_LIST_ROWS else 0
        for index, (prompt, value) in enumerate(menu._options):
            fitted = filesystem_menu.fit_entry(str(prompt), width - OPEN_LIST_EDGES - scrollbar)
            if value != Select.NULL and overlay.option_count > index and \
                    str(overlay.get_option_at_index(index).prompt) != fitted:
                overlay.replace_option_prompt_at_index(index, fitted)

    def _fit_row(self, fields: list[Widget], total: int) -> list[tuple[Widget, int]]:
        """(field, width) for one row: the filesystem menu and the directory at their fixed widths and half
        each of what their row leaves of the form when packed (so they follow the width and the workload
        only), the others as they want; where a value typed since makes the row too wide, those at their
        packed width (the value scrolls in its field)."""
        fixed = {field: self._packed(field) for field in fields if field.id in ("bench-fs", "bench-dir")}
        spare = max(total - sum(map(self._packed, fields)), 0)
        halves = [spare // 2, spare - spare // 2] if len(fixed) == 2 else [spare]  # the menu, the directory
        for field, extra in zip(fixed, halves, strict=False):
            fixed[field] += extra
        wide = sum(fixed.get(field, self._shown_width(field)) for field in fields) > total
        return [(field, fixed.get(field, self._packed(field) if wide else self._shown_width(field)))
                for field in fields]

    def _shown_width(self, field: Widget) -> int:
        """A field's width: never narrower than when the form was filled for its workload, so a run that
        fills in a shorter value leaves it as wide (newuser22 #8: `seconds` was 17 cells wide for `until
        size` before the first run, 13 for `5` after it, and the row shifted); a longer value typed widens
        it."""
        return max(self._packed(field), self._want(field))

    @property
    def folded(self) -> bool:
        """Whether the form is folded into its one-line summary."""
        return bool(self.query_one("#bench-form-summary").display)

    def fold(self, summary: FoldedForm | None) -> None:
        """Fold the settings into `summary` (one line, so a short terminal has room for the run's figures and
        verdict), or unfold them (None)."""
        line = self.query_one("#bench-form-summary", Static)
        line.update(summary or "")
        line.display = summary is not None
        self.query_one("#bench-form").display = summary is None
        if summary is not None:
            self.query_one("#bench-form-error").display = False

    @property
    def directory(self) -> str:
        """The directory typed (or filled in from the filesystem picked); "//mnt/x" is read as "/mnt/x"."""
        return one_leading_slash(self.query_one("#bench-dir", Input).value.strip())

    def values(self) -> tuple[object, ...]:
        """What the form says now, field by field (the filesystem menu only follows the directory)."""
        return (self.directory, *(self.query_one(f"#bench-{name}", Input).value for name in FIELDS),
                *(self.query_one(f"#bench-{name}", Select).value for name in ("profile", "sync", "arrival")),
                *(self.query_one(f"#bench-{name}", Checkbox).value
                  for name in ("prealloc", "direct", "capacity")))

    def restore(self, values: tuple[object, ...]) -> None:
        """Fill the fields back with `values`, as `values` gave them (the directory stays as it is): a
        workload's tab shows the run made there again, not the tab's defaults."""
        fields, menus = values[1:len(FIELDS) + 1], values[len(FIELDS) + 1:len(FIELDS) + 4]
        for name, value in zip(FIELDS, fields, strict=True):
            self.query_one(f"#bench-{name}", Input).value = str(value)
        profile = self.query_one("#bench-profile", Select)
        with profile.prevent(Select.Changed):  # the tab's own defaults are not filled in again
            profile.value = menus[0]
        for name, value in zip(("sync", "arrival"), menus[1:], strict=True):
            self.query_one(f"#bench-{name}", Select).value = value
        for name, value in zip(("prealloc", "direct", "capacity"), values[len(FIELDS) + 4:], strict=True):
            self.query_one(f"#bench-{name}", Checkbox).value = bool(value)
        self.fit_fields()

    def set_filesystems(self, host: Host) -> None:
        """Offer the host's mounted filesystems, keeping the one picked when it is still there."""
        self.host = host
        select = self.query_one("#bench-fs", Select)
        chosen = select.value
        self._offer(self._holding_mount(self.directory), force=True)
        with select.prevent(Select.Changed):  # the same pick offered again is no pick (newuser14 #2)
            if isinstance(chosen, str) and any(value == chosen for _, value in select._options):
                select.value = chosen
        self._follow_directory()

    def _offer(self, mountpoint: str | None, force: bool = False) -> None:
        """The menu's entries again when they change: the user's filesystems, and the system's (/dev/shm)
        holding `mountpoint`, the chosen directory's (else a typed /dev/shm showed `pick one`)."""
        if self.host is None:
            return
        select = self.query_one("#bench-fs", Select)
        choices = filesystem_menu.filesystem_choices(self.host, mountpoint)
        if not force and [value for _, value in choices] == [value for _, value in select._options
                                                             if value != Select.NULL]:
            return
        chosen = select.value
        with select.prevent(Select.Changed):
            select.set_options(choices)
            if isinstance(chosen, str) and any(value == chosen for _, value in choices):
                select.value = chosen

    def choose(self, directory: str) -> None:
        """Fill in `directory` (and its filesystem when it is a mountpoint)."""
        select = self.query_one("#bench-fs", Select)
        self._offer(self._holding_mount(directory))
        if any(value == directory for _, value in select._options):
            select.value = directory
        self.query_one("#bench-dir", Input).value = directory

    def focus_directory(self) -> None:
        """Start typing a directory: the field gets focus with its whole value selected, whatever filled it
        (typed, a Runs pick, a suggestion), so "/mnt/x" typed next replaces it and reads "/mnt/x" (nothing
        is typed into it by the key itself); an arrow key or End keeps the value to edit it."""
        field = self.query_one("#bench-dir", Input)
        field.focus()
        field.select_all()

    def valid_directory(self, text: str) -> bool:
        """Whether `text` names a directory a run could start in (or nothing yet)."""
        return self._valid_directory(text)

    def _valid_directory(self, text: str) -> bool:
        """Empty (nothing chosen yet), an existing directory, or a mountpoint the filesystem menu offers."""
        path = one_leading_slash(text.strip())
        options = self.query_one("#bench-fs", Select)._options if self.is_mounted else []
        return not path or os.path.isdir(path) or any(value == path for _, value in options)

    def mountpoint_of(self, directory: str) -> str | None:
        """The mountpoint of the filesystem holding `directory` (None when the host lists none)."""
        return self._holding_mount(directory)

    def _holding_mount(self, directory: str) -> str | None:
        """The mountpoint of the filesystem that holds `directory`, as the filesystem menu lists it."""
        if self.host is None or not directory.startswith("/"):
            return None
        mounted = self.host.mount_for_path(os.path.realpath(directory))
        return mounted.mount.mountpoint if mounted is not None else None

    @on(Input.Changed, "#bench-dir")
    def _follow_directory(self) -> None:
        """The filesystem menu shows the filesystem holding the typed directory (blank when it lists none)."""
        self.fit_fields()
        select = self.query_one("#bench-fs", Select)
        mountpoint = self._holding_mount(self.directory)
        self._offer(mountpoint)
        # followed, not picked: no change message, so no late one fills a mountpoint over what is being typed
        with select.prevent(Select.Changed):
            if mountpoint is not None and any(value == mountpoint for _, value in select._options):
                if select.value != mountpoint:
                    select.value = mountpoint
            elif not select.is_blank():
                select.clear()
        self.fit_fields()

    @on(Select.Changed, "#bench-form Select")
    @on(Input.Changed, "#bench-form Input")
    def _refit(self, event: Select.Changed | Input.Changed) -> None:
        """A value set (a menu picked, the form filled for a workload or a run) gets the width it needs; a
        field being typed in keeps its width until it is left, so the form never re-flows at a key."""
        typed = isinstance(event.control, Input) and event.control.has_focus
        if event.control.id != "bench-dir" and not typed:  # (the directory's own handler fits it)
            self.fit_fields()

    @on(Input.Changed, "#bench-form Input")
    def check_field(self, event: Input.Changed) -> None:
        """Invalid input is shown at once, under the form, next to the red field; a directory's problem only
        on the status line, which names the path and where it came from (newuser15 read it twice)."""
        problems = [failure.description for field in self.query("#bench-form Input").results(Input)
                    if field.display and field.validators and field.id != "bench-dir"
                    and (result := field.validate(field.value)) is not None
                    for failure in result.failures if failure.description]
        error = self.query_one("#bench-form-error", Static)
        error.update(Text("; ".join(problems), style="bold red"))
        error.display = bool(problems)

    @on(Select.Changed, "#bench-fs")
    def fill_directory(self, event: Select.Changed) -> None:
        """A filesystem picked fills in its mountpoint (unless the typed directory is already on it). A change
        the menu no longer shows is stale (the menu followed a directory filled in since, e.g. a run picked
        on Runs): it never replaces that directory with a mountpoint (newuser14 #2: `/ (typed)`)."""
        if event.value != event.select.value or self.query_one("#bench-dir", Input).has_focus:
            return  # stale, or the directory is being typed or pasted (newuser16 #7: it kept `/tmp/newuser1`)
        if isinstance(event.value, str) and self._holding_mount(self.directory) != event.value:
            self.query_one("#bench-dir", Input).value = event.value

    @on(Tabs.TabActivated, "#bench-workloads")
    def pick_workload(self, event: Tabs.TabActivated) -> None:
        """A workload tab: the form for that workload (its first entry: etcd's WAL for wal)."""
        kind = str(event.tab.id).removeprefix("workload-")
        profile = self.query_one("#bench-profile", Select)
        if workloads.workload_of(str(profile.value)) != kind:
            profile.value = kind_of(kind).form.menu[0][1]

    @on(Select.Changed, "#bench-profile")
    def fill_profile(self, event: Select.Changed) -> None:
        choice = str(event.value)
        kind = workloads.workload_of(choice)
        tabs = self.query_one("#bench-workloads", Tabs)
        if tabs.active != f"workload-{kind}":
            tabs.active = f"workload-{kind}"
        if choice == "custom" or (kind == self.kind and len(kind_of(kind).form.menu) == 1):
            return
        self._show_form(workloads.form_defaults(choice))
        params = PROFILES.get(choice)
        if params is not None:
            self.query_one("#bench-prealloc", Checkbox).value = params.prealloc

    def _show_form(self, defaults: FormDefaults) -> None:
        """Fill the form for a workload: its values, its sync menu, and the one extra control it uses."""
        self.kind = workloads.workload_of(str(self.query_one("#bench-profile", Select).value))
        for name in ("bs", "size", "duration"):
            field = self.query_one(f"#bench-{name}", Input)
            value = getattr(defaults, name)
            field.value = value if name == "duration" else shown_bytes(value)
            field.tooltip = defaults.tooltips.get(name, field.tooltip)
        self.query_one("#bench-bs", Input).disabled = not defaults.bs_enabled
        sync = self.query_one("#bench-sync", Select)
        sync.set_options([(option, option) for option in defaults.sync_options])
        sync.value = defaults.sync
        sync.disabled = len(defaults.sync_options) == 1
        self.query_one("#bench-jobs", Input).value = defaults.jobs
        for extra in ("prealloc", "jobs", "direct"):
            self.query_one(f"#bench-{extra}").display = extra == defaults.extra
        for control in LOAD_CONTROLS:
            self.query_one(f"#bench-{control}").display = self.kind == "wal"
        # the tab names the workload; the menu only where it has profiles to choose (newuser16 #10: the tab
        # and the menu both said `compaction`)
        self.query_one("#bench-profile").display = len(kind_of(self.kind).form.menu) > 1
        self.query_one("#bench-form").set_class(self.kind == "wal", "-load")  # a row for the load
        self._packed_wants.clear()  # the rows follow the workload's own values
        self.fit_fields()

    def show_params(self, params: object) -> None:
        """Make the form say what is running (run longer and run again change it behind the user's back)."""
        if not isinstance(params, WalParams):
            if isinstance(params, RandwriteParams):
                self.query_one("#bench-duration", Input).value = f"{params.duration_s or 0:g}"
            return
        menu = self.query_one("#bench-profile", Select)
        if menu.value != base_profile(params):  # the profile it was made from (newuser12: `custom WAL`)
            with menu.prevent(Select.Changed):  # the values below are what ran, not the profile's own
                menu.value = base_profile(params)
        self.query_one("#bench-bs", Input).value = bytes_text(params.bs)
        # with a duration the size is the file's, still what ran (blank, the field would show its placeholder)
        self.query_one("#bench-size", Input).value = bytes_text(params.size)
        self.query_one("#bench-duration", Input).value = f"{params.duration_s:g}" if params.duration_s else ""
        self.query_one("#bench-sync", Select).value = params.sync
        self.query_one("#bench-prealloc", Checkbox).value = params.prealloc
        self.query_one("#bench-rates", Input).value = rates_text(params.rates)
        self.query_one("#bench-arrival", Select).value = params.arrival
        self.query_one("#bench-capacity", Checkbox).value = params.capacity
        self.fit_fields()

    def params(self) -> object:
        """The workload parameters the form describes; ParamError says which value is unusable."""
        profile = str(self.query_one("#bench-profile", Select).value)
        text = {name: self.query_one(f"#bench-{name}", Input).value.strip()
                for name in ("bs", "size", "duration")}
        values = FormValues(
            profile, read_size(text["bs"], "block size") if text["bs"] else None,
            read_size(text["size"]) if text["size"] else None,
            parse_duration(text["duration"]) if text["duration"] else None,
            str(self.query_one("#bench-sync", Select).value),
            self.query_one("#bench-prealloc", Checkbox).value,
            self.query_one("#bench-jobs", Input).value.strip(),
            self.query_one("#bench-direct", Checkbox).value)
        wal = None
        kind = workloads.workload_of(profile)
        if kind_of(kind).form.uses_wal_fields:
            load = self._load() if kind == "wal" else {}
            wal = profile_params("etcd" if profile in ("custom", "interference") else profile,
                                 bs=values.bs, size=values.size, duration_s=values.duration_s,
                                 sync=values.sync, prealloc=values.prealloc, **load)
        params = workloads.params_from_form(values, wal)
        params.validate()  # type: ignore[attr-defined]
        return params

    def _load(self) -> dict[str, object]:
        """The WAL's load as typed: rates (none: the closed loop only), arrivals, the capacity run."""
        text = self.query_one("#bench-rates", Input).value.strip()
        capacity = self.query_one("#bench-capacity", Checkbox).value
        if not text and not capacity:
            raise ParamError("give writes/s, or tick capacity: the run needs a load")
        return {"rates": parse_rates(text) if text else (),
                "arrival": str(self.query_one("#bench-arrival", Select).value), "capacity": capacity}

