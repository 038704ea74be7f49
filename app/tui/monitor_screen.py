"""The live I/O monitor screen: iostat -x for the stack, a row per layer grouped by filesystem with a
sparkline of its utilisation, the saturated layer highlighted, and beside it who does the I/O and CPU
iowait/steal. One poll in flight at a time; ticks that come while one runs are skipped and counted."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import lru_cache

from diskdoctor.probes.host_text import visible
from diskdoctor.probes.hotplug import HotplugWatcher, watch_block_devices
from diskdoctor.probes.io_monitor import RESCAN_EVERY_S, IoMonitor, LayerSample, MonitorSample
from diskdoctor.probes.root import Root
from diskdoctor.widgets.cell_updates import update_cells
from diskdoctor.widgets.filter_bar import FilterBar, filter_note, matches
from diskdoctor.widgets.fit_text import (
    fit_parts,
    fit_paths,
    labelled_path_ellipsis,
    middle_ellipsis,
    path_ellipsis,
)
from diskdoctor.widgets.fitted_footer import FittedFooter
from diskdoctor.widgets.hidden_columns import WIDER, WIDER_OR_DETAILS, hidden_columns_note
from diskdoctor.widgets.line_view import LineView
from diskdoctor.widgets.sparkline_text import sparkline
from diskdoctor.widgets.title_row_table import TitleRowTable
from diskdoctor.widgets.wrap_text import WrappedVisual
from rich.cells import cell_len
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import DataTable, Header, Static

from ..text.monitor import (
    COLUMNS,
    COUNTER_COLUMNS,
    PROCESS_NAME_CELLS,
    PROCESS_TABLE_CELLS,
    counter_cells,
    cpu_line,
    layer_label,
    process_name_cells,
    process_order,
    process_table,
    rate_cells,
    rate_cells_key,
    rewriter,
    rewriter_notes,
    writeback_lines,
    writeback_note,
)
from .fold_note import fold_note
from .monitor_trend import TREND_MIN_ROWS, TrendHistory, trend_lines
from .monitor_who import WhoText, balanced_lines
from .screen_help import MONITOR_HELP
from .selection import BeforeFilter, Selection, choose, chosen, looked_at, no_device_words, restore

SPARK_CELLS = 12
INTERVAL_S = 1.0
NAME_CELLS = 20
"""A long device name is cut in the middle down to this before any figure is left out."""
SORTED_MOUNT_LEAST = 4
"""Narrower than this ("…/db"), a sorted row's mountpoint is left out (the name stays whole)."""
SORTED_LEAST_CELLS = {"util": 4, "rmb_s": 6, "wmb_s": 6, "dmb_s": 6, "r_await": 7, "w_await": 7, "f_await": 7,
                      "d_await": 7}
"""Sorted, a live figure column wider than its heading and every figure it shows ("100%", "99,999" MB/s,
"100,000" ms) gives its blank start down to this (one more for the sorted column's ▼) to the device column,
whose rows then name their mountpoint (newuser21 #11: `vda /` but `loop3` alone at 120x40)."""
SORTED_GIVE_WAY = ("spark", "in_flight", "d_await", "dmb_s", "d_s")
"""Sorted, the one of these first in the table may give its room to the device column for the rows'
mountpoints (in DROP_FIRST's order: the least telling; a read or flush figure never goes for a name)."""
MIN_NAME_CELLS = 8
"""The device column is as narrow as its names (filesystem titles span the row, not this column)."""
MAX_NAME_CELLS = 72
"""The device column is as wide as its longest name, up to this: a name is whole wherever the figures leave
room for it (the fitting cuts it in the middle, down to NAME_CELLS, before any figure is left out). Sorted,
a name with its mountpoint stands for the title rows that are gone: as wide as the room allows."""
BUSY_UTIL = 0.6
CELL_PADDING = 2
"""A DataTable cell's padding (one cell each side)."""
SCROLLBAR_CELLS = 2
STATUS_PADDING_CELLS = 2
"""The status line's padding (one cell each side)."""
SIDE_CELLS = 72
SIDE_MIN_CELLS = 36
"""Narrower than this, "who does the I/O" goes under the table instead of taking figures' room."""
SIDE_FRAME_CELLS = 3
"""The side pane's border and padding around its lines."""
SIDE_WRAP_CELLS = 46
"""Beside the table, the side pane may be narrower than its longest line (that line wraps) down to this: a
process table's row (PROCESS_TABLE_CELLS) stays whole; narrower, the pane goes under the table."""
SELECTED_MIN_CELLS = 22
"""Under the table, the selected layer's figures keep this much width beside "who does the I/O"."""
SELECTED_ROOM_CELLS = 32
"""Under the table, the selected layer's figures and its heading ("/ (ext4) on vda (disk)") get this much
width; "who does the I/O" has the rest (at least its process table), so its notes keep to one row."""
SELECTED_GAP_CELLS = 2
"""The gap between "who does the I/O" and the selected layer's figures under the table."""
SIDE_BELOW_ROWS = 8
"""Under the table, the side pane has at least this many rows (up to half the body when its lines need
them); the table has the rest it needs, and the pane every row the table does not need (never blank rows
above a cramped pane)."""
TABLE_KEEP_ROWS = 16
"""Under the table, the side pane grows past SIDE_BELOW_ROWS only while the table keeps this many rows."""
PROCESS_LINES = 20
"""The most processes the pane lists (as many as its rows hold, up to this)."""
WHO_EXTRA_LINES = 6
"""The pane's lines besides the processes: its heading, the table's, the unreadable note's two and the page
cache's two."""
DROP_FIRST = ("spark", "in_flight", "d_await", "dmb_s", "d_s", "f_await", "f_s", "rmb_s", "r_await",
              "w_await", "r_s", "io_ticks_ms", "flushes", "discards", "sectors_read", "reads")
"""Columns left out when the table is too narrow for all, least telling first (the rest stay whole): the
util trend (util's recent past, a picture of the util column) goes before any figure; the latencies
outlast read MB/s (a deep stack's long names at 80 columns leave room for both latencies then). Of a pair
the read one goes first, the write one after it (rMB/s then r_await, then w_await): never r_await kept
beside a hidden w_await (newuser16)."""


@dataclass
class MonitorTick(Message):
    """One poll of the monitor finished (posted from the poll worker)."""

    sample: MonitorSample


@dataclass
class MonitorFailed(Message):
    """A poll failed; `reason` is one line."""

    reason: str


@dataclass
class DevicesChanged(Message):
    """A block device appeared, vanished or changed (a pyudev event, posted from its thread)."""

    action: str
    kname: str


def sort_value(text: str) -> float:
    """A cell's number for sorting: "1,234", "87%", "50.4M" and "12K" compare as numbers; "-" lowest."""
    text = text.strip().replace(",", "").rstrip("%")
    scale = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}.get(text[-1:], 1.0)
    try:
        return float(text.rstrip("KMGT")) * scale
    except ValueError:
        return float("-inf")


def util_style(util: float | None, saturated: bool) -> str:
    """Red for the saturated layer, yellow for a busy one."""
    if saturated:
        return "bold white on red"
    return "yellow" if util is not None and util >= BUSY_UTIL else ""


@lru_cache(maxsize=4096)
def sparkline_of(values: tuple[float | None, ...]) -> str:
    """The util trend cell of these ticks' values (most devices' are the same few: idle)."""
    return sparkline(values, SPARK_CELLS)


def hidden_note(hidden: list[str], width: int, in_details: frozenset[str] = frozenset()) -> str:
    """The columns left out, in every screen's phrasing (hidden_columns.py), in `width` cells: "+8 hidden:
    inflight, d_await, … (wider terminal or details)" where the details pane lists some (`in_details`)."""
    where = WIDER_OR_DETAILS if any(name in in_details for name in hidden) else WIDER
    return hidden_columns_note(hidden, width, where)


def more_note(mountpoints: tuple[str, ...]) -> str:
    """The " +9" after the first mountpoint of a layer that serves ten filesystems ("" for one or none)."""
    return f" +{len(mountpoints) - 1}" if len(mountpoints) > 1 else ""


def sorted_label(layer: LayerSample, mountpoints: tuple[str, ...]) -> str:
    """A sorted row's device: its name, then the first mountpoint it serves and how many more ("sda
    /lab/data +9": a disk under ten filesystems is not read as the first one's alone)."""
    first = visible(mountpoints[0]) if mountpoints else ""
    return f"{visible(layer.row.name)} {first}{more_note(mountpoints)}".rstrip()


def least_mount_cells(mount: str) -> int:
    """The fewest cells a sorted row's mountpoint is shown in: whole, or "…/LAST" (its last folder whole)."""
    last = mount.rstrip("/").rsplit("/", 1)[-1]
    return min(cell_len(mount), max(cell_len(last) + 2, SORTED_MOUNT_LEAST))


def sorted_least_cells(layer: LayerSample, mountpoints: tuple[str, ...]) -> int:
    """The device column's width in which a sorted row names its mountpoint ("loop3 …/newuser23-ext4mnt"):
    its name (cut to NAME_CELLS at most), the mountpoint's least form and its "+N" (0 for none served)."""
    if not mountpoints:
        return 0
    name = min(cell_len(visible(layer.row.name)), NAME_CELLS)
    return name + 1 + least_mount_cells(visible(mountpoints[0])) + len(more_note(mountpoints))


def sorted_cell(layer: LayerSample, mountpoints: tuple[str, ...], cells: int, style: str | object,
                among: frozenset[str] = frozenset()) -> Text:
    """The sorted row's device cell in `cells`: the name whole when it can be, the first mountpoint (dim)
    cut at a "/" to what is left with its last folder whole ("…/newuser22-ext4": the folder names the
    place), else left out (newuser22 #4: "…/new…xt4", cut twice, read as nothing), and "+N" more whole;
    one space before the mountpoint on every row (it is dim: the style sets it apart from the name); the cut
    keeps what tells it from the other rows' first mountpoints `among` (`fit_paths`)."""
    mount, more = (visible(mountpoints[0]) if mountpoints else ""), more_note(mountpoints)
    least_mount = least_mount_cells(mount)  # "…/LAST", or whole
    whole = visible(layer.row.name)  # a short name the column holds is never cut for its mountpoint
    fits = cell_len(whole) if cell_len(whole) <= min(cells, NAME_CELLS) else 0
    beside = cells - least_mount - 1 - len(more)  # a long name is cut in its middle (down to half the cell
    least_name = max(min(cells // 2, NAME_CELLS), fits)  # or NAME_CELLS), only for a mountpoint it then holds
    name = middle_ellipsis(whole, beside if mount and beside >= least_name else cells)
    room = cells - cell_len(name) - 1 - len(more)
    cell = Text(name, style=style)  # type: ignore[arg-type]
    if mount and room >= least_mount:
        cut = fit_paths(among, room).get(mount) or path_ellipsis(mount, room)
        cell.append(" " + cut + more, style="dim")
    return cell


def sorted_note(key: str, left_out: int) -> tuple[str, ...]:
    """The status line's note of the sort by the column headed `key` ("w/s", as its heading reads; newuser22
    #4: "sorted by w_s"), each form shorter: it says how many rows' mountpoints the device column left out
    (newuser20 #7: sorted at 120x40, `vda /` but `loop1` alone and nothing said). Every form names the
    column and the count (newuser24 #4, #15: at 80x24 "mountpoints in the details" alone said neither)."""
    if not left_out:
        return f"sorted by {key}, largest first (o: next column)", f"sorted by {key}"
    count = f"{left_out} mountpoint{'s' if left_out > 1 else ''}"
    return (f"sorted by {key}, largest first (o: next column) · {count} only in the details",
            f"sorted by {key} · {count} only in the details", f"sorted by {key} · {count} in the details")


def one_line_heading(title: str, layer: LayerSample) -> str:
    """The details heading of `layer` under its filesystem's `title` on one line: "TITLE on DEVICE (kind)"."""
    return f"{visible(title)} on {visible(layer.row.name)} ({layer.row.kind})"


def heading_line(line: str, cells: int) -> str:
    """A line of the side pane's heading cut to `cells`: "/tmp/…/mnt (ext4) on loop0 (loop)" cuts the path at
    its "/"s and keeps " on loop0 (loop)" whole, its words apart (newuser16: `…/newuser16-ext…on loop0`)."""
    if cell_len(line) <= cells:
        return line
    title, on, name = line.rpartition(" on ")
    if not on or not title.startswith("/"):
        return middle_ellipsis(line, cells)
    room = cells - cell_len(on + name)
    if room < 3:
        return middle_ellipsis(line, cells)
    return labelled_path_ellipsis(title, room) + on + name


def holding_group(path: str | None, keys: list[str]) -> str | None:
    """The filesystem group (its mountpoint) of `keys` that holds `path`: its own, else the deepest one
    above it (a run's directory chosen on Runs), None for none."""
    if not path:
        return None
    groups = [key.removeprefix("group|") for key in keys if key.startswith("group|")]
    holding = [group for group in groups
               if group and (path == group or path.startswith(group.rstrip("/") + "/"))]
    return max(holding, key=len, default=None)


def holding_device(path: str | None, sample: MonitorSample) -> str | None:
    """The device (its first layer, as a sorted row shows it) of the filesystem of `sample` that holds
    `path` (its own, else the deepest above it), None for none: a Runs pick names no device (newuser24 #1)."""
    mount = holding_group(path, [f"group|{group.group.key}" for group in sample.groups])
    group = next((group for group in sample.groups if group.group.key == mount and group.layers), None)
    return group.layers[0].row.kname if group is not None else None


def group_top(titles: list[int], count: int, row: int, rows: int) -> int | None:
    """The first row to show so that `row`'s group (from its title, the last of `titles` at or above it,
    to the next title) is whole in `rows` rows of `count`, its title at the top, or the group before's
    title when the table's end comes first (never a layer without its title on the top row where a title
    can be there instead); None without titles (sorted) or rows."""
    start = max((index for index in titles if index <= row), default=None)
    if start is None or rows <= 0 or not 0 <= row < count:
        return None
    end = min([index for index in titles if index > start] + [count]) - 1
    last = max(count - rows, 0)  # the most the table scrolls
    if end - start + 1 > rows:  # taller than the view: its title at the top, the cursor still in view
        return min(max(start, row - rows + 1), last)
    whole = [index for index in titles if index <= min(start, last) and end < index + rows]
    return max(whole) if whole else last


def group_in_view(titles: list[int], count: int, row: int, top: int, rows: int) -> int | None:
    """The first row to show, scrolled as little as it can be, so that `row`'s group (its title, the last of
    `titles` at or above it, to the next title) is whole in `rows` rows of `count` shown from `top`; None
    when it already is, does not fit, or there are no titles (newuser21 #12: at 80x24 the selected
    filesystem's title on the last row, its device under the fold)."""
    start = max((index for index in titles if index <= row), default=None)
    if start is None or rows <= 0 or not 0 <= row < count:
        return None
    end = min([index for index in titles if index > start] + [count]) - 1
    if end - start + 1 > rows:
        return None
    if start < top:
        return start
    return end - rows + 1 if end >= top + rows else None


def _look(cell: Text) -> tuple[object, ...]:
    """What a cell shows (Text's own == ignores its style)."""
    return cell.plain, str(cell.style), tuple(cell.spans), cell.justify


class MonitorScreen(Screen[None]):
    """Every device and layer's I/O each second, grouped by filesystem, with who does it."""

    SCREEN_HELP = MONITOR_HELP
    LIVE_ONLY_ACTIONS = frozenset({"pause", "watch"})
    """Pause only where something ticks, Watch only where processes run: on a capture neither is in the
    footer, F1 or the command palette."""
    BINDINGS = [
        Binding("p", "pause", "Pause", tooltip="Stop or restart the ticks (the table stays as it is)."),
        Binding("r", "rescan", "Re-read stack", tooltip="Read the device stack again at the next tick."),
        Binding("o", "sort", "Sort", tooltip="Sort by the next column, largest first; after the last, "
                "grouped by filesystem again."),
        Binding("d", "watch", "Watch a database", tooltip="Per-call sync latency of a running database."),
        Binding("slash", "filter", "Filter", tooltip="Keep the devices whose name, kernel name or type has "
                "the text, and the filesystems whose mountpoint has it (Esc clears)."),
        Binding("q", "app.quit", "Quit", tooltip="Quit diskdoctor."),
    ]

    def __init__(self, root: Root, interval: float = INTERVAL_S) -> None:
        super().__init__()
        self.root, self.interval = root, interval
        self.monitor: IoMonitor | None = None
        self.history: dict[str, deque[float | None]] = {}
        self.sample: MonitorSample | None = None
        self.in_flight = False
        self.late_ticks = 0
        self.paused = False
        self.hotplug_note = ""
        self._watcher: HotplugWatcher | None = None
        self._timer: Timer | None = None
        self._row_keys: list[str] = []
        self._columns = COLUMNS
        self._shown_cells: dict[tuple[str, str], tuple[object, ...]] = {}
        self._shown_text: dict[str, tuple[object, ...]] = {}
        self._row_memo: dict[str, tuple[tuple[object, ...], dict[str, Text]]] = {}
        """Each row's cells and what they were made from: a row made from the same is left alone."""
        self._measured_layout: tuple[object, ...] = ()
        self._wanted_name_cells = NAME_CELLS
        self._wanted_title_cells = 0
        self._bare_name_cells = NAME_CELLS
        """The longest device name alone: sorted, the device column gives way to figures down to it."""
        self._heading_cells = 0
        """The longest one-line details heading ("TITLE on DEVICE (kind)"; sorted, every device's): under the
        table, the details pane gets its width."""
        self._mounts_left_out = 0
        """Sorted: how many rows' mountpoints the device column left out (the status line says so)."""
        self._heading_pane = 0
        """The width the shown heading was fitted to (0: none fitted): a layout that changes it redraws."""
        self.hidden_columns: list[str] = []
        """Headings of the columns left out for want of width (said on the status line)."""
        self._fitted_width = 0
        self._name_cells = NAME_CELLS
        self._title_cells = 0
        """The longest filesystem title (grouped view): beside the side pane the table is as wide as its
        columns or this title, whichever is wider, and the side pane has the rest."""
        self._figure_cells: dict[str, int] = {}
        """A capture's counter columns' widths from their figures (none: the fixed widths)."""
        self._side_cells = SIDE_MIN_CELLS
        """The side pane's width: its longest line so far (never shrinking, so it does not jump each tick)."""
        self._placed_for: Selection | None = None
        self._deviceless: Selection | None = None
        """The selection made on another screen that has no block device (a tmpfs): no row shows it."""
        self.sort_key: str | None = None
        """The figure column the rows are sorted by (largest first), or None: grouped by filesystem."""
        self._placed_key: str | None = None
        self._before_filter: BeforeFilter | None = None
        """Where the cursor was when `/` opened the filter (None: no filter kept)."""
        self._jump: str | None = None
        """The row a filter moved the cursor to (its first match), until the user moves."""
        self._table_rows: int | None = None
        self._fold_said = ""
        """The rows-below-the-fold note the status line says now."""
        self._who_lines = 0
        """The most lines "who does the I/O" has held (under the table it gets as many rows, up to half)."""
        """The table's height when the side pane is under it (None: the whole body's, beside)."""
        self.filter_text = ""
        """The `/` filter: only the rows that have it stay, tick after tick."""
        self.trend = TrendHistory()
        """Each device's last minute of figures, drawn for the selected one under the table where the rows
        it needs leave room (issue 23 #15: 45 empty rows at 200x60 on a host of 3 devices)."""
        self._trend_shown = False
        self._mount_cells: tuple[int, ...] = ()
        """Sorted: the device column's width in which each row serving a filesystem names its mountpoint
        (sorted_least_cells), narrowest first."""
        self._process_cells = 0
        """The longest program[pid] "who" has listed: its process column is as wide, room given."""
        self._who_drawn_cells = 0
        """The width "who does the I/O" was last drawn for: a layout that changes it draws it again."""
        self._table_own_rows: int | None = None
        """The table's height over the trend pane (None: the trend is not shown)."""

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static("Taking the first reading…", id="monitor-summary")
        with Horizontal(id="monitor-body"):
            with Vertical(id="monitor-main"):
                yield TitleRowTable(id="monitor-table", cursor_type="row", zebra_stripes=False)
                yield LineView(id="monitor-trend")  # repaints only its rows that changed
            with VerticalScroll(id="monitor-side"):
                yield Static("", id="monitor-who")
                yield Static("", id="monitor-selected")
        yield FilterBar(id="monitor-filter")
        yield Static("", id="monitor-status")
        yield FittedFooter()

    def on_mount(self) -> None:
        self.screen_layout_refresh_signal.subscribe(self, self._laid_out)
        self.sub_title = "Live I/O per layer" if self.root.live else "I/O counters of the capture"
        self._columns = COLUMNS if self.root.live else COUNTER_COLUMNS
        self.query_one("#monitor-table", TitleRowTable).spill_first = not self.root.live  # one reading
        self._fit_columns(self.size.width or self.app.size.width)
        if self.root.live:
            self._watcher, self.hotplug_note = watch_block_devices(self.root, self._on_hotplug)
            self._timer = self.set_interval(self.interval, self.tick)
        self.tick()

    def on_unmount(self) -> None:
        if self._watcher is not None:
            self._watcher.stop()

    def on_screen_suspend(self) -> None:
        """Nobody sees the table: stop polling until the screen is shown again."""
        self._leave_selection()
        if self._timer is not None:
            self._timer.pause()

    def on_screen_resume(self) -> None:
        if self._timer is not None and not self.paused:
            self._timer.resume()
        self._show_selection()

    def _show_selection(self) -> None:
        """Put the cursor on the filesystem or device chosen on another screen, or, before anything is
        chosen, on the row Stack or TRIM showed last (what Benchmark suggests too; newuser19 #1: Monitor
        opened on its own first row while the other screens showed loop0)."""
        selection = chosen(self.app) or looked_at(self.app)
        if selection is None or selection.by == "monitor" or selection == self._placed_for:
            return
        if no_device_words(self.app, selection, ""):  # a tmpfs under `/`: not `/`'s group, said instead
            self._placed_for, self._placed_key, self._deviceless = selection, self._selected_key(), selection
            self._redraw_status()
            return
        group = holding_group(selection.mountpoint, self._row_keys)
        wanted = [f"group|{group}"] if group is not None else []
        wanted += [key for key in self._row_keys if selection.kname and key.endswith(f"|{selection.kname}")]
        device = holding_device(selection.mountpoint, self.sample) if self.sample is not None else None
        wanted += [key for key in self._row_keys if device and key.endswith(f"|{device}")]  # sorted: no title
        row = next((self._row_keys.index(key) for key in wanted if key in self._row_keys), None)
        if row is not None:
            table = self.query_one("#monitor-table", DataTable)
            table.move_cursor(row=row)
            table.call_after_refresh(self._reveal_group)  # after the table's own scroll to the cursor
            self._placed_for, self._placed_key = selection, self._row_keys[row]

    def _reveal_group(self) -> None:
        """Scroll so the cursor's whole filesystem group (its title and every layer) is in view, its title
        at the top: a pick on another screen never leaves the title on the last row, its layers below."""
        table = self.query_one("#monitor-table", DataTable)
        rows = table.scrollable_content_region.height - (table.header_height if table.show_header else 0)
        titles = [index for index, key in enumerate(self._row_keys) if key.startswith("group|")]
        top = group_top(titles, len(self._row_keys), table.cursor_row, rows)
        if top is not None and top != round(table.scroll_y):
            table.scroll_to(y=top, animate=False, immediate=True)

    def _keep_group_in_view(self) -> None:
        """Where the cursor's whole group (its title and its layers) is not in view but fits, scroll it into
        view from its title (`group_top`): after a move onto a title on the last row, and after the table's
        height changes under the cursor."""
        table = self.query_one("#monitor-table", DataTable)
        rows = table.scrollable_content_region.height - (table.header_height if table.show_header else 0)
        titles = [index for index, key in enumerate(self._row_keys) if key.startswith("group|")]
        current, row, count = round(table.scroll_y), table.cursor_row, len(self._row_keys)
        top = group_in_view(titles, count, row, current, rows)
        if top is not None:  # not whole in view: from its title (never a layer without its own on top)
            top = group_top(titles, count, row, rows)
        elif titles and current not in titles and count > rows:  # a layer without its title on the top row
            following = min((index for index in titles if index >= current), default=None)  # (newuser12 #2)
            top = following if following is not None and following <= row else \
                group_top(titles, count, row, rows)
        if top is not None and top != current:
            table.scroll_to(y=top, animate=False, immediate=True)

    def _leave_selection(self) -> None:
        """Leaving: the row the user moved to here becomes the selection of every screen."""
        key = self._selected_key()
        if key is None or key == self._placed_key:
            return
        if key.startswith("group|"):
            choose(self.app, None, key.removeprefix("group|") or None, "monitor")
        else:
            group, kname = key.split("|", 1)
            choose(self.app, kname, group or None, "monitor")

    def _on_hotplug(self, action: str, kname: str) -> None:
        """pyudev's thread: re-read the stack at the next tick, and tell the UI thread."""
        if self.monitor is not None:
            self.monitor.request_rescan()
        self.post_message(DevicesChanged(action, kname))

    def on_devices_changed(self, message: DevicesChanged) -> None:
        """A device came or went: every screen's stack is read again too (one shared snapshot)."""
        refresh = getattr(self.app, "refresh_snapshot", None)
        if refresh is not None and message.action in ("add", "remove"):
            refresh()

    def tick(self) -> None:
        """Start a poll, unless one is still running: then this tick is skipped and counted."""
        if self.in_flight:
            self.late_ticks += 1
            return
        self.in_flight = True
        if self.monitor is not None:
            self.monitor.sample_processes = self._who_visible()
        self.poll(self.late_ticks)
        self.late_ticks = 0

    @work(thread=True, group="monitor-poll", exit_on_error=False, description="poll the monitor's counters")
    def poll(self, late_ticks: int) -> None:
        """Worker: one reading of every counter (the first also reads the stack and the processes)."""
        try:
            if self.monitor is None:
                hotplug = self._watcher is not None  # then the stack is re-read on events, not every 10 s
                self.monitor = IoMonitor(self.root, rescan_every=None if hotplug else RESCAN_EVERY_S)
            self.post_message(MonitorTick(self.monitor.poll(late_ticks)))
        except Exception as err:  # a probe bug must never kill the app
            self.post_message(MonitorFailed(f"could not read the I/O counters: {err}"))

    def _who_visible(self) -> bool:
        """Whether the "who does the I/O" pane is on screen (the processes are sampled only then)."""
        who = self.query_one("#monitor-who", Static)
        return who.display and who.parent is not None and who.parent.display \
            and self.is_current and who.region.area > 0  # type: ignore[union-attr]

    def on_monitor_failed(self, message: MonitorFailed) -> None:
        self.in_flight = False
        self._show("#monitor-status", Text(message.reason, style="bold red"))

    def on_monitor_tick(self, message: MonitorTick) -> None:
        """Draw the tick: keyed rows updated in place, the table rebuilt only when the layout changed."""
        self.in_flight = False
        sample = self.sample = message.sample
        for layer in sample.layers():
            values = self.history.setdefault(layer.row.kname, deque(maxlen=SPARK_CELLS))
            values.append(layer.delta.util if layer.delta is not None else None)
        for gone in sample.vanished:
            self.history.pop(gone, None)
        if sample.seconds is not None:
            self.trend.record(sample)
        self._measure_names(sample)
        self._draw_table(sample)
        self._draw_side(sample)
        self._draw_trend()
        self._draw_summary(sample)

    def _measure_names(self, sample: MonitorSample) -> None:
        """Size the device column from its names (sorted: each name with its filesystem after it), and fit
        the columns again when that changes."""
        layout = (tuple(group.group for group in sample.groups), self.sort_key is None)
        if layout != self._measured_layout:  # the names' widths change only with the layout
            self._measured_layout = layout
            if self.sort_key is None:
                names = [cell_len(layer_label(layer)) for layer in sample.layers()]
                titles = [cell_len(visible(group.group.title)) for group in sample.groups]
            else:
                names = [cell_len(sorted_label(layer, mounts)) for mounts, layer in self._served(sample)]
                titles = []
            served = self._served(sample) if self.sort_key is not None else []
            mount_cells = tuple(sorted(cells for mounts, layer in served
                                       if (cells := sorted_least_cells(layer, mounts))))
            if mount_cells != self._mount_cells:  # the columns are fitted again for it
                self._mount_cells, self._name_cells = mount_cells, 0
            most = MAX_NAME_CELLS if self.sort_key is None else max(names, default=0)  # sorted: as a title
            wanted = min(max([MIN_NAME_CELLS, *names]), most)
            self._wanted_name_cells = max(wanted, len("device"))  # `vda /` cut it to `devic` (newuser15)
            self._wanted_title_cells = max(titles, default=0)
            bare = [cell_len(visible(layer.row.name)) for layer in sample.layers()]
            self._bare_name_cells = max([MIN_NAME_CELLS, len("device"), *bare])
            self._heading_cells = max((cell_len(one_line_heading(group.group.title, layer))
                                       for group in sample.groups  # sorted, each device names its group
                                       for layer in group.layers[:None if self.sort_key else 1]),
                                      default=0)
        wanted, title = self._wanted_name_cells, self._wanted_title_cells
        figures = self._counter_cells(sample)
        if wanted != self._name_cells or figures != self._figure_cells or title != self._title_cells:
            self._name_cells, self._figure_cells, self._fitted_width = wanted, figures, 0
            self._title_cells = title
            self._fit_columns(self.size.width)

    def _counter_cells(self, sample: MonitorSample) -> dict[str, int]:
        """A capture's counter columns as wide as their heading (with the sort mark on the sorted one) and
        their widest figure: its one reading never changes, so a column of zeros is not 11 cells wide
        (a live host's rate columns keep their fixed widths, room for the figures each tick brings)."""
        if self._columns is not COUNTER_COLUMNS:
            return {}
        cells = [counter_cells(layer) for layer in sample.layers()]
        return {key: max([cell_len(label) + (key == self.sort_key), *(cell_len(row[key]) for row in cells)])
                for label, key, _ in COUNTER_COLUMNS}

    @staticmethod
    def _served(sample: MonitorSample) -> list[tuple[tuple[str, ...], LayerSample]]:
        """Every device once (as in its first group), with the mountpoint of every filesystem it serves, in
        the groups' order (none for a device under no filesystem)."""
        first: dict[str, LayerSample] = {}
        mounts: dict[str, list[str]] = {}
        for group in sample.groups:
            for layer in group.layers:
                first.setdefault(layer.row.kname, layer)
                served = mounts.setdefault(layer.row.kname, [])
                if group.group.key and group.group.key not in served:
                    served.append(group.group.key)
        return [(tuple(mounts[kname]), layer) for kname, layer in first.items()]

    def _show(self, selector: str, text: Text) -> None:
        """Put `text` in a Static, only if it shows something else: an update repaints the widget, and a
        layout pass (measuring every widget of the screen) is asked for only when its height may change."""
        look = _look(text)
        shown = self._shown_text.get(selector)
        if shown == look:
            return
        static = self.query_one(selector, Static)
        self._shown_text[selector] = look
        lines = text.plain.split("\n")
        fits = max(cell_len(line) for line in lines) <= static.content_size.width
        drawn = WrappedVisual(static, WhoText(text)) if selector == "#monitor-who" else text
        static.update(drawn, layout=shown is None or not fits or shown[0].count("\n") != len(lines) - 1)

    def _all_columns(self) -> list[tuple[str, str, int]]:
        """(heading, key, width) of every column this root can show, in display order."""
        columns = [("device", "device", self._name_cells)]
        for label, key, width in self._columns:
            marked = cell_len(label) + (key == self.sort_key)  # "inflight▼" whole (newuser24 #15)
            columns.append((label, key, max(self._figure_cells.get(key, width), marked)))
            if key == "util":
                columns.append(("util trend", "spark", SPARK_CELLS))
        return columns

    def on_resize(self) -> None:
        self._fit_columns(self.size.width)
        self.call_after_refresh(self._fit_heights)
        if self.sample is not None:  # the status line is fitted to the width
            self._draw_summary(self.sample)
            self.call_after_refresh(self._redraw_status)  # and says the rows below the new fold

    def _fit_columns(self, width: int) -> None:
        """Put "who does the I/O" beside the table only when every column still fits; otherwise under
        it (on a capture, which has no processes, nowhere: its rows go to the table), and leave out the
        least telling columns (named on the status line), never clip a figure."""
        if width <= 0 or width == self._fitted_width:
            return
        self._fitted_width = width
        columns = self._all_columns()
        name = min(self._name_cells, MAX_NAME_CELLS)  # sorted, a longer one only takes what is left over
        columns[0] = ("device", "device", name)
        needed = sum(w + CELL_PADDING for _, _, w in columns) + SCROLLBAR_CELLS
        # sorted, the names' mountpoints give way to the side pane (it names the row's filesystem): a long
        # one put the pane under the table at 200x60, ~38 blank rows under it and no trend (mon13)
        least = needed - (max(name - self._bare_name_cells, 0) if self.sort_key else 0)  # as grouped
        side_cells = min(self._side_cells, SIDE_CELLS)  # as wide as its lines, when they fit beside
        if SIDE_WRAP_CELLS <= width - least - 1 < side_cells:  # room for most lines: the longest wrap
            side_cells = width - least - 1
        beside = width - least >= side_cells
        self.set_class(not beside, "-side-below")
        if beside:  # under the table it is sized from its lines (_fit_who_below)
            self.query_one("#monitor-who").styles.width = None
        side = self.query_one("#monitor-side")
        side.styles.width = "1fr" if beside else None  # beside: what the table leaves, side_cells or more
        counters = self._columns is COUNTER_COLUMNS  # a capture's reading: no process is known
        self.query_one("#monitor-who").display = not counters  # the summary line says they need the host
        side.display = beside or not counters  # under the table it would take the table's rows for nothing
        room = width - (side_cells + 1 if beside else 0)
        hidden: list[str] = []
        # sorted, the name and its mountpoint give way to figures down to the names alone: sorting never
        # costs a column (newuser16 saw d/s, dMB/s and d_await go for `loop0 /tmp/newuser16-ext4mnt`)
        floor = NAME_CELLS if self.sort_key is None else min(self._bare_name_cells, NAME_CELLS)
        shrink = min(needed - room, name - floor) if needed > room else 0
        if shrink > 0:  # a long name is cut in the middle before any figure is left out
            columns[0] = ("device", "device", name - shrink)
            needed -= shrink
        for key in DROP_FIRST:
            if needed <= room:
                break
            found = next((c for c in columns if c[1] == key), None)
            if found is not None and key != self.sort_key:  # the column the rows are sorted by stays
                columns.remove(found)
                hidden.append(found[0])
                needed -= found[2] + CELL_PADDING
        grow = min(room - needed, self._name_cells - columns[0][2])
        if grow > 0:  # room left (or a left-out figure freed more than the cut took): the name takes it
            columns[0] = ("device", "device", columns[0][2] + grow)
            needed += grow
        if self.sort_key is not None and self._columns is COLUMNS:
            columns = self._blank_starts_to_names(columns)
            columns = self._one_column_to_mounts(columns, hidden)
        main = self.query_one("#monitor-main")  # the table, and the trend pane under it
        if beside:  # as wide as its columns or its longest title, the side pane the rest (newuser9 #5)
            main.styles.width = min(max(needed, self._title_cells + CELL_PADDING + SCROLLBAR_CELLS), room)
        else:
            main.styles.width = None
        self._set_columns(columns, hidden)
        self._fit_heights()

    def _blank_starts_to_names(self, columns: list[tuple[str, str, int]]) -> list[tuple[str, str, int]]:
        """Sorted, the device column takes the figure columns' blank starts (SORTED_LEAST_CELLS) for the
        mountpoints it lacks room for, as much as it wants and no more: no figure column is left out or
        narrowed below its heading or its widest figure."""
        want = self._name_cells - columns[0][2]
        taken: list[tuple[str, str, int]] = []
        for label, key, width in columns[1:]:
            least = SORTED_LEAST_CELLS.get(key, width) + (key == self.sort_key)
            give = max(min(width - least, want), 0)
            want -= give
            taken.append((label, key, width - give))
        device = columns[0]
        return [(device[0], device[1], device[2] + sum(c[2] for c in columns[1:]) - sum(c[2] for c in taken)),
                *taken]

    def _one_column_to_mounts(self, columns: list[tuple[str, str, int]],
                              hidden: list[str]) -> list[tuple[str, str, int]]:
        """Sorted, where a row's mountpoint is still left out ("loop3" alone, no title row names it: newuser20
        #7, newuser21 #11, newuser23 #8), the least telling figure column left (of SORTED_GIVE_WAY, never the
        sorted one) gives its room to the device column, if that names more rows' "…/LAST": one
        column at most (newuser16 #5 saw sorting cost three for whole mountpoints)."""
        device = columns[0]
        if not self._mount_cells or self._mount_cells[-1] <= device[2]:
            return columns
        found = next((column for key in SORTED_GIVE_WAY for column in columns[1:]
                      if column[1] == key and key != self.sort_key), None)
        wider = device[2] + found[2] + CELL_PADDING if found is not None else 0
        if found is None or not any(device[2] < cells <= wider for cells in self._mount_cells):
            return columns  # it would name no more of them
        hidden.append(found[0])
        return [(device[0], device[1], wider),
                *(column for column in columns[1:] if column is not found)]

    def _heading(self, label: str, key: str) -> Text:
        """A column heading; the sorted column is marked ▼ (largest first)."""
        marked = f"{label}▼" if key == self.sort_key else label
        return Text(marked) if key in ("device", "spark") else Text(marked, justify="right")

    def _device_cells(self) -> int:
        """The device column's fitted width."""
        table = self.query_one("#monitor-table", DataTable)
        column = table.columns.get("device")  # type: ignore[call-overload]
        return column.width if column is not None else self._name_cells

    def _set_columns(self, columns: list[tuple[str, str, int]], hidden: list[str]) -> None:
        table = self.query_one("#monitor-table", DataTable)
        if [(str(c.key.value), c.width) for c in table.columns.values()] == [(k, w) for _, k, w in columns]:
            return
        kept = self._selected_key()  # the new columns' rows keep the cursor's row (a resize moved it to
        table.clear(columns=True)     # the first: newuser19 #1 saw Monitor on vda, the others on loop0)
        self._row_keys, self.hidden_columns = [], hidden
        for label, key, width in columns:
            table.add_column(self._heading(label, key), key=key, width=width)
        if self.sample is not None:
            self._draw_table(self.sample, kept)
            self._draw_summary(self.sample)

    def _row_cells(self, key: str, layer: LayerSample, live: bool,
                   device_cells: int) -> tuple[dict[str, Text], bool]:
        """The row's cells, and whether they may differ from the last ones made for it (at 5,000 devices
        making every row's cells each tick took a third of a second of the UI thread)."""
        spark = sparkline_of(tuple(self.history.get(layer.row.kname, ()))) if live else ""
        made_from = (layer.row, rate_cells_key(layer.delta) if live else layer.counters, layer.saturated,
                     spark, device_cells, live)
        memo = self._row_memo.get(key)
        if memo is not None and memo[0] == made_from:
            return memo[1], False
        cells = rate_cells(layer.delta) if live else counter_cells(layer)
        util = layer.delta.util if layer.delta is not None else None
        style = util_style(util, layer.saturated)
        table = self.query_one("#monitor-table", TitleRowTable)  # whole when it may spill: the table cuts it
        label = layer_label(layer) if table.spill_first else middle_ellipsis(layer_label(layer), device_cells)
        row = {"device": Text(label, style="bold white on red" if layer.saturated else "")}
        row.update({key: Text(value, justify="right") for key, value in cells.items()})
        if "util" in row:
            row["util"].stylize(style)
        if live:
            row["spark"] = Text(spark, style="red" if layer.saturated else "cyan")
        self._row_memo[key] = (made_from, row)
        return row, True

    def _draw_table(self, sample: MonitorSample, kept: str | None = None) -> None:
        """The rows of `sample`, the cursor kept on its row (or on `kept`, the row before a clear)."""
        table = self.query_one("#monitor-table", DataTable)
        live = sample.seconds is not None or self.root.live
        keys: list[str] = []
        rows: dict[str, dict[str, Text]] = {}
        device_cells = self._device_cells()
        fresh: list[str] = []
        """The rows whose cells may have changed (the others were made from the same figures)."""
        if self.sort_key is not None:
            keys, rows = self._sorted_rows(sample, live, device_cells)
            fresh = keys
        for group in sample.groups if self.sort_key is None else ():
            key = f"group|{group.group.key}"
            keys.append(key)
            fresh.append(key)
            rows[key] = {"device": Text(visible(group.group.title), style="bold")}  # drawn over the row
            for layer in group.layers:
                key = f"{group.group.key}|{layer.row.kname}"
                keys.append(key)
                rows[key], changed = self._row_cells(key, layer, live, device_cells)
                if changed:
                    fresh.append(key)
        keys = self._kept(keys, sample)
        if self.filter_text:  # only the rows the filter keeps are in the table
            shown = set(keys)
            fresh = [key for key in fresh if key in shown]
        column_keys = [str(column.key.value) for column in table.columns.values()]
        if keys != self._row_keys:
            selected = self._selected_key() or kept
            table.clear()
            for key in keys:
                table.add_row(*(rows[key].get(column, "") for column in column_keys), key=key)
            self._row_keys = keys
            self._shown_cells = {(key, column): _look(cell) for key, row in rows.items()
                                 for column, cell in row.items()}
            self._row_memo = {key: memo for key, memo in self._row_memo.items() if key in rows}
            if selected in keys:
                table.move_cursor(row=keys.index(selected))
                if kept is not None:  # the columns were made again: the group in view as when placed
                    table.call_after_refresh(self._reveal_group)
            elif self.app.screen is self:
                self._show_selection()
            if selected is None or selected == self._placed_key:  # still where the screen put it: the
                self._placed_key = self._selected_key()           # default row is nobody's choice
            self._fit_heights()
            return
        changes: dict[tuple[str, str], Text] = {}
        for key in fresh:
            for column in column_keys:
                cell = rows[key].get(column)
                if cell is not None and self._shown_cells.get((key, column)) != (look := _look(cell)):
                    changes[key, column] = cell
                    self._shown_cells[(key, column)] = look
        update_cells(table, changes)  # only what changed is repainted

    def _kept(self, keys: list[str], sample: MonitorSample) -> list[str]:
        """The rows the filter keeps: a device whose name, kernel name or type has the text (under its
        filesystem's heading), and a filesystem whose title has it, whole; sorted, each device once."""
        if not self.filter_text:
            return keys
        kept: set[str] = set()
        knames: set[str] = set()
        kname_of: dict[str, str] = {}
        for group in sample.groups:
            whole = matches(self.filter_text, group.group.title)
            for layer in group.layers:
                key = f"{group.group.key}|{layer.row.kname}"
                kname_of[key] = layer.row.kname
                if whole or matches(self.filter_text, layer.row.name, layer.row.kname, layer.row.kind):
                    kept.update((key, f"group|{group.group.key}"))
                    knames.add(layer.row.kname)
            if whole:
                kept.add(f"group|{group.group.key}")
        if self.sort_key is not None:  # a device is listed under its first group: kept if kept under any
            return [key for key in keys if kname_of.get(key) in knames]
        return [key for key in keys if key in kept]

    def action_filter(self) -> None:
        if not self.filter_text:  # a kept filter opened again: the row before the first `/` stays
            self._before_filter = BeforeFilter(self._selected_key(), self._placed_key, chosen(self.app))
        self.query_one(FilterBar).open()

    @on(DataTable.RowSelected, "#monitor-table")
    @on(FilterBar.Kept)
    def _acted(self) -> None:
        """Enter on a row, or on the filter (keeping it), chooses the row a filter's jump placed the cursor
        on."""
        if self._selected_key() == self._placed_key:
            self._placed_key = None

    @on(FilterBar.Filter)
    def _filter_changed(self, message: FilterBar.Filter) -> None:
        """Redraw now (a capture has no ticks); the rows stay filtered at every tick after. The cursor's
        move to a kept row is placed, not chosen; Esc on it puts back the row before `/` (newuser24 #12);
        a row the user moved to stays (newuser11 #2)."""
        self.filter_text = message.text
        if self.sample is None:
            return
        before = self._selected_key()
        self._draw_table(self.sample)
        back = self._before_filter if message.cleared else None
        if message.cleared:
            self._before_filter = None
        if back is not None and before == self._jump and back.cursor in self._row_keys:
            self.query_one("#monitor-table", DataTable).move_cursor(row=self._row_keys.index(back.cursor))
            self._placed_key = back.placed
            restore(self.app, back.held)
        elif (key := self._selected_key()) != before:
            self._placed_key = self._jump = key
        self._draw_summary(self.sample)

    def _sorted_rows(self, sample: MonitorSample, live: bool,
                     device_cells: int) -> tuple[list[str], dict[str, dict[str, Text]]]:
        """Every device once, the largest value of the sort column first (as htop's sorted view)."""
        served = {f"{mounts[0] if mounts else ''}|{layer.row.kname}": (mounts, layer)  # its first group's key
                  for mounts, layer in self._served(sample)}
        rows = {key: self._row_cells(key, layer, live, device_cells)[0] for key, (_, layer) in served.items()}
        column = self.sort_key or ""
        keys = sorted(rows, key=lambda key: -sort_value(rows[key].get(column, Text("")).plain))
        left_out = 0
        among = frozenset(visible(mounts[0]) for mounts, _ in served.values() if mounts)  # cut once per tick
        for key in keys:  # a copy: the row's memo keeps the grouped view's indented name
            mounts, layer = served[key]
            cell = sorted_cell(layer, mounts, device_cells, rows[key]["device"].style, among)
            left_out += bool(mounts) and not cell.spans  # its mountpoint (the dim span) left out
            rows[key] = {**rows[key], "device": cell}
        self._mounts_left_out = left_out
        return keys, rows

    def action_sort(self) -> None:
        """Sort by the next figure column (htop's F6); after the last, back to grouped by filesystem."""
        table = self.query_one("#monitor-table", DataTable)
        figures = [str(c.key.value) for c in table.columns.values() if str(c.key.value) not in
                   ("device", "spark")]
        order = [None, *figures]
        self.sort_key = order[(order.index(self.sort_key) + 1) % len(order)
                              if self.sort_key in order else 0]
        for column in table.columns.values():
            label = next((heading for heading, key, _ in self._all_columns() if key == column.key.value), "")
            column.label = self._heading(label, str(column.key.value))
        layer, key = self._selected_layer()[0], self._selected_key()
        placed = key is not None and key == self._placed_key
        self._row_keys = []
        if self.sample is not None:
            self._measure_names(self.sample)  # sorted, each name has its filesystem beside it
        self._fitted_width = 0  # fitted again for the new sorted column: the last one's ▼ and blank start
        self._fit_columns(self.size.width or self.app.size.width)  # gave f_await 7 cells (newuser24 #15)
        if self.sample is not None:
            self._draw_table(self.sample)
            self._draw_summary(self.sample)
        if layer is not None:  # the cursor stays on its device (it fell to the first row)
            kname = layer.row.kname
            row = next((index for index, each in enumerate(self._row_keys) if each == key), None)
            row = row if row is not None else next(
                (index for index, each in enumerate(self._row_keys) if each.endswith(f"|{kname}")), None)
            if row is not None:
                table.move_cursor(row=row)
                if placed:  # put there by the screen: still nobody's choice
                    self._placed_key = self._row_keys[row]
        table.refresh()

    def _selected_key(self) -> str | None:
        table = self.query_one("#monitor-table", DataTable)
        if not self._row_keys or table.cursor_row >= len(self._row_keys):
            return None
        return self._row_keys[table.cursor_row]

    def _selected_layer(self) -> tuple[LayerSample | None, str]:
        """The layer whose figures the side pane shows, and its heading: a filesystem's heading row shows
        its own device's (the pane keeps its height from row to row: a height change asks for a layout
        pass and two more frames, which were most of a key's time here)."""
        key, sample = self._selected_key(), self.sample
        if key is None or sample is None:
            return None, ""
        heading = key.startswith("group|")
        group_key, kname = key.removeprefix("group|"), ""
        if not heading:
            group_key, kname = key.split("|", 1)
        for group in sample.groups:
            if group.group.key == group_key:
                layer = next((layer for layer in group.layers if heading or layer.row.kname == kname), None)
                if layer is None:
                    return None, ""
                name = f"{visible(layer.row.name)} ({layer.row.kind})"
                # sorted, a device's heading names its first filesystem as a title row's does: no title
                # row is there, and the device column may have no room for the mountpoint (newuser19 #3)
                if not heading and (self.sort_key is None or not group_key):
                    return layer, name
                pane = self._heading_pane = self._pane_cells()
                title = visible(group.group.title)  # cut to the pane, never widening it (_draw_side)
                if cell_len(one_line := one_line_heading(title, layer)) <= pane:
                    return layer, one_line
                # on its own line: whole where it fits there, else cut at a "/" to the whole pane, never
                # to what the name leaves (newuser19 #4: `/tmp…mnt (ext4) on loop0 (loop)` at 80x24)
                return layer, f"{labelled_path_ellipsis(title, pane)}\non {name}"
        return None, ""

    def _pane_cells(self) -> int:
        """The width a heading is fitted to: under the table the figures' own beside "who does the I/O",
        beside it the side pane's (which may be wider than its lines)."""
        if self.has_class("-side-below"):
            return self._below_cells(PROCESS_TABLE_CELLS)[1]
        return max(self._side_cells - SIDE_FRAME_CELLS, self.query_one("#monitor-side").content_size.width)

    @on(TitleRowTable.Resized, "#monitor-table")
    def _table_resized(self) -> None:
        """A table the side pane made shorter (or a terminal resized) keeps the cursor's group whole in view:
        its height changes after the scroll to a group picked elsewhere (at 80x24 the view stayed at row 18
        with the cursor on row 36, under the fold)."""
        self.call_after_refresh(self._keep_group_in_view)

    @on(DataTable.RowHighlighted, "#monitor-table")
    def _highlighted(self) -> None:
        self.call_after_refresh(self._keep_group_in_view)  # after the table's own scroll to the cursor
        if self.sample is not None:
            self._draw_side(self.sample)
            self._draw_trend()

    def _draw_trend(self) -> None:
        """The selected layer's last minute under the table, while the pane is shown."""
        if not self._trend_shown:
            return
        layer, _ = self._selected_layer()
        pane = self.query_one("#monitor-trend", LineView)
        width, height = pane.content_size.width, pane.content_size.height
        lines: list[Text] = []
        if layer is not None and width > 0 and height > 0:
            title = f"{visible(layer.row.name)} ({layer.row.kind})"
            lines = trend_lines(title, self.trend.of(layer.row.kname), width, height, self.interval)
        pane.show(lines)

    def _draw_side(self, sample: MonitorSample) -> None:
        layer, heading = self._selected_layer()
        detail = self._detail(layer, heading)
        who = Text.assemble(("Who does the I/O\n", "bold"))
        live = sample.live or self.root.live
        limit = self._who_room(detail)
        table, notes = process_table(sample.processes, live, limit=limit,
                                     name_cells=self._process_name_cells(sample, limit))
        shown = process_order(sample.processes, limit) if sample.processes else []
        for index, line in enumerate(table):  # a table: its heading, then a row a process (dim: a kernel
            dim = 0 < index <= len(shown) and rewriter(shown[index - 1])  # worker writing data again)
            who.append(line + "\n", style="underline" if index == 0 else "dim" if dim else "")
        again_notes = set(rewriter_notes(shown))
        for line in notes:
            who.append(line + "\n", style="dim" if line in again_notes else "")
        said = writeback_note(sample)  # a paragraph, wrapped once at the pane's own width (WhoText)
        cache = writeback_lines(sample)[:-len(said) or None]
        for line in [*cache, *([" ".join(said)] if said else [])]:
            who.append(line + "\n", style="dim")
        if self.has_class("-side-below"):  # as wide as the process table, every tick (notes wrap in it)
            room = self._fit_who_below(PROCESS_TABLE_CELLS)
            cut = "\n".join(heading_line(line, room) for line in heading.splitlines())  # each line
            if cut != heading:
                detail = self._detail(layer, cut)
        self._show("#monitor-who", who)
        self._show("#monitor-selected", detail)
        width = max(self.query_one("#monitor-who").content_size.width, 1)
        drawn = who.copy()
        drawn.rstrip()
        rows = len(balanced_lines(drawn, width))  # as drawn there (a paragraph wrapped at the width)
        if rows > self._who_lines:  # the most it held, so the table does not jump
            self._who_lines = rows
            self._fit_heights()
        headings = heading.splitlines()  # cut to the pane or wrapped: the table's titles come first
        lines = [*(line for line in detail.plain.splitlines() if line not in headings), *notes, *cache, *said]
        wanted = max([PROCESS_TABLE_CELLS, *(cell_len(line) for line in lines)]) + SIDE_FRAME_CELLS
        # sized from every line it holds (the notes are short lines: newuser15 saw them wrap at 200 beside a
        # table with room to spare); it only grows, so the split between the table and the pane stays
        # where it is from tick to tick (newuser14 saw it jump 38 -> 57)
        if wanted > self._side_cells:  # a longer line: the pane grows to hold it (or goes under the table)
            self._side_cells, self._fitted_width = wanted, 0
            self._fit_columns(self.size.width)

    def _who_cells(self) -> int:
        """The width "who does the I/O" draws its lines in: under the table the one _fit_who_below gives it,
        beside it what its pane has (less a scrollbar), before any layout the process table's."""
        if self.has_class("-side-below"):
            return self._below_cells(PROCESS_TABLE_CELLS)[0]
        return self.query_one("#monitor-who").content_size.width or PROCESS_TABLE_CELLS

    def _process_name_cells(self, sample: MonitorSample, limit: int) -> int:
        """The process column's width: as wide as the longest name so far (it never narrows tick to tick,
        so the figures stay put) within the room the pane's row has, at least PROCESS_NAME_CELLS (newuser23
        #7: `kworker/u…onversion[28978]` cut to 28 columns beside 27 blank ones)."""
        room = self._who_cells() - (PROCESS_TABLE_CELLS - PROCESS_NAME_CELLS)
        self._process_cells = max(self._process_cells, process_name_cells(sample.processes, limit))
        self._who_drawn_cells = self._who_cells()
        return max(PROCESS_NAME_CELLS, min(self._process_cells, room))

    def _in_details(self) -> frozenset[str]:
        """The columns the details pane lists for the selected layer (every figure but the util trend),
        none while it is not shown."""
        if not self.query_one("#monitor-side").display or not self.query_one("#monitor-selected").display:
            return frozenset()
        return frozenset(label for label, _, _ in self._columns)

    @staticmethod
    def _detail(layer: LayerSample | None, heading: str) -> Text:
        """The selected layer's heading and every figure of its row, one a line."""
        detail = Text()
        if layer is not None:
            detail.append(f"\n{heading}\n", style="bold")
            cells = rate_cells(layer.delta) if layer.delta is not None else counter_cells(layer)
            columns = COLUMNS if layer.delta is not None else COUNTER_COLUMNS
            for label, key, _ in columns:
                detail.append(f"  {label:<9} {cells[key]}\n")
        return detail

    def _fit_who_below(self, cells: int) -> int:
        """Under the table, "who does the I/O" is as wide as its process table (`cells`) or what the selected
        layer's SELECTED_ROOM_CELLS leave, the same every tick (newuser14 saw the divider jump from column
        38 to 57 as a long process line came and went; a note wraps in it only at 80 columns), while the
        figures keep SELECTED_MIN_CELLS beside: returns the figures' width."""
        cells, figures = self._below_cells(cells)
        who = self.query_one("#monitor-who", Static)
        if who.styles.width is None or who.styles.width.value != cells:
            who.styles.width = cells
        return figures

    def _below_cells(self, cells: int) -> tuple[int, int]:
        """Under the table: the widths of "who does the I/O" (at least `cells`, its process table) and of the
        selected layer's figures beside it, which get the longest one-line heading ("TITLE on DEVICE (kind)")
        where "who" can give up the cells (newuser19 #4: `…/newuser19-ext4mnt (ext4)` beside ~35 blank cells
        of "who"; newuser20 #12: the title whole but `on loop1 (loop)` wrapped beside ~30)."""
        content = max(self.size.width - SIDE_FRAME_CELLS, 1)
        selected = max(SELECTED_ROOM_CELLS, self._heading_cells)  # the same every tick and every row
        rest = min(content - selected - SELECTED_GAP_CELLS - SCROLLBAR_CELLS,  # a wide screen:
                   SIDE_CELLS - SIDE_FRAME_CELLS)                              # its notes on a row
        cells = max(min(max(cells, rest), content - SELECTED_MIN_CELLS - SELECTED_GAP_CELLS), 1)
        return cells, max(content - cells - SELECTED_GAP_CELLS - SCROLLBAR_CELLS, 1)  # the pane may scroll

    def _who_room(self, detail: Text) -> int:
        """How many processes the pane lists: as many as its rows hold beside the selected layer's figures
        (which sit under the processes beside the table, and beside them under it)."""
        if self.has_class("-side-below"):  # the pane may grow for its lines (less its top border)
            rows = self._side_rows_most(self._body_rows()) - 1
        else:
            rows = self.query_one("#monitor-side").content_size.height - detail.plain.count("\n")
        return max(min(rows - WHO_EXTRA_LINES, PROCESS_LINES), 3)

    @staticmethod
    def _side_rows_most(body: int) -> int:
        """The most rows the pane under the table may take: SIDE_BELOW_ROWS, or more for its lines while
        the table keeps TABLE_KEEP_ROWS and half the body (at 80x24 the table keeps its rows)."""
        return max(SIDE_BELOW_ROWS, min(body // 2, body - TABLE_KEEP_ROWS))

    def _body_rows(self) -> int:
        """The rows of the table and side pane together: the screen's less its one-line bars."""
        return self.size.height - sum(child.outer_size.height for child in self.children
                                      if child.id != "monitor-body" and child.display)

    def _fit_heights(self) -> None:
        """Under the table, the side pane takes every row the table's rows do not need (at least
        SIDE_BELOW_ROWS); beside it, the table and the trend pane under it have the whole height: on the live
        host the trend takes the rows the table does not need, where they are TREND_MIN_ROWS or more."""
        table = self.query_one("#monitor-table", DataTable)
        side = self.query_one("#monitor-side")
        height: int | None = None
        own: int | None = None
        """The table's own height beside the side pane with the trend under it (None: all of its column)."""
        wanted = table.row_count + table.header_height
        if self.has_class("-side-below") and side.display:
            body = self._body_rows()
            if body <= 0:  # not laid out yet
                return
            side_rows = max(SIDE_BELOW_ROWS, min(self._who_lines + 1, self._side_rows_most(body)))  # + border
            height = max(min(wanted, body - side_rows), min(body, 3))
        elif self.root.live and self.trend.kept and self._body_rows() - wanted >= TREND_MIN_ROWS:
            own = wanted
        if (height, own) != (self._table_rows, self._table_own_rows):
            self._table_rows, self._table_own_rows = height, own
            self.query_one("#monitor-main").styles.height = height if height is not None else "1fr"
            table.styles.height = own if own is not None else "1fr"
            self._trend_shown = own is not None
            self.query_one("#monitor-trend").display = self._trend_shown
            self.call_after_refresh(self._keep_group_in_view)  # a shorter table: the group still whole
            self.call_after_refresh(self._redraw_status)
            self.call_after_refresh(self._draw_trend)

    def _laid_out(self, _screen: object) -> None:
        """After each layout: the status again when the rows below the fold are no longer what it says."""
        if fold_note(self.query_one("#monitor-table", DataTable)) != self._fold_said:
            self._redraw_status()
        # the heading was fitted to the pane before its layout: fitted again (a capture has no tick to do
        # it; long-names at 200x60 wrapped a title cut to 80 cells in a 55-cell pane)
        if self._heading_pane and self.sample is not None and self._pane_cells() != self._heading_pane:
            self._draw_side(self.sample)
        elif self._who_drawn_cells and self.sample is not None and self._who_cells() != self._who_drawn_cells:
            self._draw_side(self.sample)  # the process column fitted to the pane's new width (a scrollbar)

    def _redraw_status(self) -> None:
        """The status line again once the table has its height (it says the rows below the fold)."""
        if self.sample is not None:
            self._draw_summary(self.sample)

    def _draw_summary(self, sample: MonitorSample) -> None:
        parts = [cpu_line(sample.cpu, self.root.live) if self.root.live else
                 "capture: counters since boot; rates, CPU and processes need the live host"]
        busiest = sample.busiest()
        if busiest is not None and busiest.delta is not None and busiest.delta.util is not None:
            parts.append(f"busiest: {busiest.row.name} {busiest.delta.util:.0%}"
                         + (" SATURATED" if busiest.saturated else ""))
        self._show("#monitor-summary", Text(" · ".join(parts)))
        width = max(self.size.width - STATUS_PADDING_CELLS, 1)
        status: list[str | tuple[str, ...]] = []  # a part may have shorter forms (fit_parts)
        heading = next((name for name, key, _ in self._columns if key == self.sort_key), self.sort_key)
        sorting = sorted_note(heading, self._mounts_left_out) if heading is not None else ""
        if self.hidden_columns:  # leaving room for the shortest note of a left-out mountpoint
            room = width - (cell_len(sorting[-1]) + 3 if self._mounts_left_out and sorting else 0)
            status.append(hidden_note(self.hidden_columns, max(room, 1), self._in_details()))
        said_filter = False
        if self.filter_text:  # said once: on the filter line, on the status line only while it is typed
            shown = {key.rsplit("|", 1)[1] for key in self._row_keys if not key.startswith("group|")}
            devices = {layer.row.kname for layer in sample.layers()}
            note = filter_note(self.filter_text, len(shown), len(devices), "devices")
            bar = self.query_one(FilterBar)
            words = (note.removesuffix(" · Esc clears"),)
            if bar.words != words or bar.kept != (len(shown), len(devices)):
                bar.counted(len(shown), len(devices), words)
            said_filter = isinstance(self.focused, FilterBar)
            if said_filter:
                status.insert(0, note)
        status += [sample.note] if sample.note else []
        if sorting:
            status.append(sorting)
        if sample.appeared:
            status.append("appeared: " + ", ".join(sample.appeared))
        if sample.vanished:
            status.append("vanished: " + ", ".join(sample.vanished))
        if sample.late_ticks:
            status.append(f"{sample.late_ticks} late ticks skipped")
        if self.paused:
            status.append("paused (p resumes)")
        elif self.root.live:
            status.append(f"every {self.interval:g} s · {self.hotplug_note}")
        first = 1 + bool(self.hidden_columns and said_filter)  # what the table leaves out comes first
        lead = first if self.hidden_columns or said_filter else 0
        if sorting and self._mounts_left_out:  # a mountpoint the table leaves out: said with its columns,
            status.remove(sorting)             # before the fold note (newuser24 #4: at 80x24 the fold
            status.insert(lead, sorting)       # note kept its place and the count went)
            lead += 1
        below = self._fold_said = fold_note(self.query_one("#monitor-table", DataTable))
        if below:  # and the rows below the fold
            status.insert(lead, below)
            lead += 1
        first = max(first, lead)
        parts = [(part, 0 if index < first else 1) for index, part in enumerate(status)]
        if self._deviceless is not None and chosen(self.app) is self._deviceless:  # first: why not shown
            parts.insert(0, (no_device_words(self.app, self._deviceless, "nothing to watch", width), 0))
        self._show("#monitor-status", Text(fit_parts(parts, width)))

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The filter line took or gave up the focus: the status line says the filter only while it is typed
        (then the filter line says it: once, as on Stack)."""
        if self.sample is not None and self.filter_text:
            self._draw_summary(self.sample)

    on_descendant_blur = on_descendant_focus

    def actions_not_here(self) -> frozenset[str]:
        """Pause only where something ticks, and watch only where processes run (the live host): on a
        capture neither key is in the footer or the help."""
        return frozenset() if self.root.live else self.LIVE_ONLY_ACTIONS

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return action not in self.actions_not_here()

    def action_pause(self) -> None:
        """Stop or restart the ticks."""
        if self._timer is None:
            return
        self.paused = not self.paused
        if self.paused:
            self._timer.pause()
        else:
            self._timer.resume()
        if self.sample is not None:
            self._draw_summary(self.sample)

    def action_rescan(self) -> None:
        """Read the device stack again at the next tick (and now, on a capture)."""
        if self.monitor is not None:
            self.monitor.request_rescan()
        if not self.root.live:
            self.tick()

    def action_watch(self) -> None:
        """Open the Watch screen: pick a running database and see its own sync calls."""
        from .watch_screen import WatchScreen

        self.app.push_screen(WatchScreen(self.root))
