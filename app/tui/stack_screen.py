"""The first screen: the storage stack tree, the selected layer's details, and TRIM reach."""

from __future__ import annotations

from contextlib import suppress

from diskdoctor.probes.discard_path import layers_below
from diskdoctor.probes.host import Host
from diskdoctor.probes.hotplug import HotplugWatcher, watch_block_devices
from diskdoctor.probes.layer_details import DetailSection, read_layer_details
from diskdoctor.probes.root import Root
from diskdoctor.widgets import LayerTable, StackTree, StatusLine
from diskdoctor.widgets.filter_bar import FilterBar, match_count
from diskdoctor.widgets.fit_text import Part
from diskdoctor.widgets.fitted_footer import FittedFooter
from diskdoctor.widgets.hidden_columns import WIDER_OR_DETAILS, hidden_columns_forms
from diskdoctor.widgets.layer_table import CELL_PADDING, LABEL_WIDTH
from diskdoctor.widgets.stack_tree import StackRow, header_text
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Header, Static
from textual.worker import get_current_worker

from ..core.trim.order import worst_first
from .host_snapshot import HostSnapshot, SnapshotScreen
from .screen_help import STACK_HELP
from .selection import SCREEN_NAMES, BeforeFilter, Selection, choose, chosen, look, no_device_words, restore
from .stack_status import StackStatus
from .stack_view import DISKS_UP, MOUNTS_DOWN, StackView, detail_groups, trim_group

HOTPLUG_SETTLE_S = 0.3
"""Events closer together than this are one change (one read of the host)."""
VIEW_TITLES = {DISKS_UP: "from the disks up", MOUNTS_DOWN: "from the mountpoints down"}
EXPAND_LEVELS = 16
MAX_AUTO_EXPAND_ROOTS = 64
DETAILS_MIN_CELLS = LABEL_WIDTH + CELL_PADDING + 30 + 2
"""Side by side, the details keep a value column of 30 cells (most values and caveats on one or two
lines) beside the widest labels, their padding and the scrollbar."""
BESIDE_FROM = 240
"""The details sit beside the tree on a terminal this wide or wider, under it on a narrower one: one rule
by size, whatever the host (lab-ssd went beside and long-names under at the same 200x60, newuser17 #9).
Under, both panes are full width: at 200 lab-ssd's 130-cell tree keeps every column and the details'
longest lines are whole; beside, from here, a tree as wide as lab-ssd's still leaves them 100 cells."""
BORDER_CELLS = 1
"""The line between the panes (right of the tree beside, under it when stacked)."""
PANE_CHROME_LINES = 3
"""Stacked, the tree pane's title, column header and bottom border."""
TREE_SHARE = 0.6
"""Stacked, the most of the height the tree pane takes when its rows need more (the details get the
rest); a short tree takes only its rows."""


class StackScreen(SnapshotScreen):
    """Storage stack of one host: navigate layers, switch direction, read any value's source."""

    SCREEN_HELP = STACK_HELP
    LIVE_ONLY_ACTIONS = frozenset({"bench_selected"})
    """Keys that on a capture only say the live host is needed: F1 leaves them out there."""
    BINDINGS = [
        Binding("v", "toggle_view", "Direction",
                tooltip="Switch the tree: from the disks up / from the mounts down."),
        Binding("s", "toggle_sources", "Sources",
                tooltip="Show where each value was read (file or command)."),
        Binding("b", "bench_selected", "Bench this",
                tooltip="Benchmark the selected filesystem (opens screen 3 with it chosen)."),
        Binding("e", "expand_all", "Expand all", tooltip="Expand everything under the cursor."),
        Binding("slash", "filter", "Filter",
                tooltip="Keep the devices, types, filesystems or mountpoints that have the text, under their "
                        "parents (n / N: next / previous match)."),
        Binding("r", "refresh", "Refresh",
                tooltip="Read the host again (selection and collapsed rows stay)."),
        Binding("q", "app.quit", "Quit", tooltip="Quit diskdoctor."),
    ]

    class DetailsRead(Message):
        """The selected layer's details were read off the UI thread."""

        def __init__(self, kname: str, title: str, sections: list[DetailSection]) -> None:
            super().__init__()
            self.kname, self.title, self.sections = kname, title, sections

    def __init__(self, root: Root) -> None:
        super().__init__()
        with suppress(RuntimeError):  # in a running app the arrangement is known from its width alone
            self.set_class(self.app.size.width < BESIDE_FROM, "-stacked", update=False)  # styled once
        self.root = root
        self.host: Host | None = None
        self.view: StackView | None = None
        self.mode = DISKS_UP
        self.trim_verdicts: dict[str, str] = {}
        self.trim_order: list[tuple[str, str]] = []
        """Each filesystem's mountpoint and the device it is mounted on, in the TRIM screen's order."""
        self.trim_summaries: dict[str, str] = {}
        """The TRIM screen's verdict line by the kernel name of a device a filesystem is mounted on."""
        self._placed: str | None = None
        """The row this screen put the cursor on itself (not the user's choice)."""
        self._before_filter: BeforeFilter | None = None
        """Where the cursor was when `/` opened the filter (None: no filter kept)."""
        self._jump: str | None = None
        """The row a filter moved the cursor to (its first match), until the user moves."""
        self._hidden_selection: tuple[Selection, str] | None = None
        """The selection made on another screen that the filter (its text kept) hid on arrival."""
        self._deviceless: Selection | None = None
        """The selection made on another screen that has no block device (a tmpfs): no row shows it."""
        self._watcher: HotplugWatcher | None = None
        self.hotplug_note = ""
        self._hotplug_timer: Timer | None = None
        self._changes: list[str] = []
        self.filter_text = ""
        self._details_read: dict[str, list[DetailSection]] = {}
        """The details last read per device of this Host: drawn at once when the cursor comes back
        (then read again; the pane changes only if they did)."""
        self._details_shown: tuple[str, str, list[DetailSection]] | None = None
        self._sizing = False
        """A pane sizing is queued (expansions come in bursts)."""
        self._pane_size: tuple[int | None, int | None] | None = None
        """The tree pane's width and height last set (None: the stylesheet's)."""

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="stack-body"):
            with Vertical(id="stack-pane"):
                yield Static(id="stack-title", classes="pane-title")
                yield Static(header_text(), id="stack-columns")
                yield StackTree(id="stack-tree")
            with Vertical(id="details-pane"):
                yield Static("Details", id="details-title", classes="pane-title")
                yield LayerTable(id="details")
        yield FilterBar(id="stack-filter")
        yield StackStatus("Reading the host…", id="status")
        yield FittedFooter()

    class DeviceEvent(Message):
        """A block device appeared, vanished or changed (a pyudev event, posted from its thread)."""

        def __init__(self, action: str, kname: str) -> None:
            super().__init__()
            self.action, self.kname = action, kname

    def on_mount(self) -> None:
        self.query_one(StackTree).on_cursor = self._show_row
        self.take_snapshot(getattr(self.app, "snapshot", None))
        if self.root.live:
            self._watcher, self.hotplug_note = watch_block_devices(
                self.root, lambda action, kname: self.post_message(self.DeviceEvent(action, kname)))

    def on_unmount(self) -> None:
        if self._watcher is not None:
            self._watcher.stop()

    @on(DeviceEvent)
    def _device_event(self, message: DeviceEvent) -> None:
        """A device came, went or changed (a loop device attached, a partition table re-read): read the
        host again once the burst of events is over (an LVM activation sends several)."""
        said = {"add": "appeared", "remove": "vanished", "change": "changed"}.get(message.action)
        if said is None:
            return
        self._changes.append(f"{message.kname} {said}")  # a loop device attached is a "change"
        if self._hotplug_timer is not None:
            self._hotplug_timer.stop()
        self._hotplug_timer = self.set_timer(HOTPLUG_SETTLE_S, self._hotplug_refresh)

    def _hotplug_refresh(self) -> None:
        self._hotplug_timer = None
        changes, self._changes = self._changes, []
        self.query_one(StatusLine).say(", ".join(changes[-3:]) + ": reading the host again…")
        self.request_refresh()

    def on_screen_resume(self) -> None:
        """Show what was chosen on another screen (its device, or the device under its filesystem), the
        cursor's row in view (the terminal may have been resized meanwhile)."""
        super().on_screen_resume()
        self.query_one(StackTree).call_after_refresh(self.query_one(StackTree).cursor_into_view)
        selection = chosen(self.app)
        if selection is None or selection.by == "stack" or self.view is None or self.host is None:
            self._placed = self.query_one(StackTree).cursor_key()
            return
        kname = selection.kname
        if kname is None and selection.mountpoint:
            mounted = self.host.mount_for_path(selection.mountpoint)
            kname = mounted.kname if mounted else None
        key = self.view.key_for(kname) if kname else None
        tree = self.query_one(StackTree)
        if key is None and no_device_words(self.app, selection, ""):  # a tmpfs: say so, never another row
            self._placed = tree.cursor_key()
            self._deviceless = selection
            self._say_status()
            return
        if key and not tree.shows(StackView.ancestor_keys(key)):  # a kept filter hides it: only looked at
            self._placed = tree.cursor_key()
            self._hidden_selection = (selection, self.filter_text)
            self._say_status()
        elif key and (tree.cursor_node is None or tree.cursor_key() != key):
            tree.reveal(StackView.ancestor_keys(key))
            self._placed = key

    def on_screen_suspend(self) -> None:
        """Leaving: the row the user moved to here becomes the selection of every screen."""
        key = self.query_one(StackTree).cursor_key()
        if key is None or self.view is None:
            return
        if key == self._placed:  # only looked at: a suggestion for Benchmark, never the selection
            self._look(key)
            return
        kname, mountpoint = self.view.kname_of(key), self.view.mountpoint_of(key)
        above = tuple(self.filesystems_above(kname)) if kname and not mountpoint else ()
        choose(self.app, kname, mountpoint or next(iter(above), None), "stack", above=above)
        self._placed = key

    def _look(self, key: str) -> None:
        """The cursor's row, not chosen, is what every screen shows before any choice (Stack is the first
        screen seen): its filesystem, else the first one a layer above it holds (a disk's partition)."""
        assert self.view is not None
        kname, mountpoint = self.view.kname_of(key), self.view.mountpoint_of(key)
        if kname and not mountpoint:
            mountpoint = next(iter(self.filesystems_above(kname)), None)
        look(self.app, kname, mountpoint, "stack")

    def filesystems_above(self, kname: str) -> list[str]:
        """The filesystems a lower layer serves (a volume under /lab/slow), in the TRIM screen's order
        (before its verdicts are in, by mountpoint), so choosing it selects them on TRIM and Advice."""
        if self.host is None:
            return []
        order = self.trim_order or [(m.mount.mountpoint, m.kname or "") for m in self.host.block_mounts()]
        return [point for point, top in order if top and kname in layers_below(self.host, top)]

    def show_snapshot(self, snapshot: HostSnapshot) -> None:
        """Draw the tree of a new Host (the TRIM-only update of the same Host changes nothing here)."""
        ordered = worst_first(list(snapshot.trim_verdicts))
        verdicts = {v.mountpoint: str(v.verdict) for v in ordered}
        self.trim_order = [(v.mountpoint, v.kname) for v in ordered]
        placed = self.query_one(StackTree).cursor_key()
        if placed is not None and placed == self._placed and self.view and chosen(self.app) is None:
            self._look(placed)  # a disk's first filesystem in TRIM's order, now that the order is known
        summaries: dict[str, str] = {}
        for verdict in snapshot.trim_verdicts:
            summaries.setdefault(verdict.kname, verdict.summary)
        if snapshot.host is self.host:
            if list(verdicts.items()) != list(self.trim_verdicts.items()):  # a new order redraws too
                self.trim_verdicts = verdicts
                if self.mode == MOUNTS_DOWN:
                    self._show_tree(keep_cursor=True, keep_expansion=True)
            if summaries != self.trim_summaries:
                self.trim_summaries = summaries
                self._show_trim_of_cursor()
            return
        self.trim_verdicts = verdicts
        self.trim_summaries = summaries
        refreshing = self.host is not None
        self.host = snapshot.host
        self._details_read.clear()
        self._details_shown = None
        host = snapshot.host
        self.sub_title = f"{host.hostname or '?'} · kernel {host.kernel or '?'} · {host.root_label}"
        self._show_tree(keep_cursor=refreshing, keep_expansion=refreshing)
        self.call_after_refresh(self._details_follow_cursor)

    def _details_follow_cursor(self) -> None:
        """After a new Host, the details of the tree's cursor row: a rebuilt tree with its cursor on the same
        line says nothing, so the pane went on naming a device gone from it (newuser24 #2: `loop0 · loop`
        at first launch, the tree showing vda and zram0)."""
        node = self.query_one(StackTree).cursor_node
        if node is not None and node.data is not None:
            self._show_row(node.data)

    def show_snapshot_failure(self, reason: str) -> None:
        self.query_one(StatusLine).say(reason)

    @on(StackTree.ColumnsChanged)
    def show_columns(self, message: StackTree.ColumnsChanged) -> None:
        # The header is one line whatever it says: no layout pass for it (it changes on a scroll).
        self.query_one("#stack-columns", Static).update(message.header, layout=False)
        self._size_panes()
        self._say_status()

    def _say_status(self) -> None:
        """The status line again (the columns shown changed): the cursor's verdict, else the host's."""
        if self.host is None:
            return
        kname = self._cursor_kname()
        if kname is not None and kname in self.host.devices:
            self._say_trim(kname)
        else:
            self.query_one(StatusLine).say(*self._status_parts())

    def _hidden_part(self) -> list[Part]:
        """The extra columns the tree leaves out for want of width, in every screen's phrasing
        (hidden_columns.py: "+4 hidden: ROTA, SCHED, DISC-MAX, DISC-GRAN (wider terminal or details)"); the
        names are kept whole without the place ("+4 hidden: ROTA, SCHED, DISC-MAX, DISC-GRAN") before any
        goes, and beside a long verdict, which is cut instead (it is in the details too: newuser23 #11
        read `+4 hidden` alone); "+4 hidden" only when even the names do not fit before "F1 help"."""
        hidden = self.query_one(StackTree).hidden_extra()
        forms = list(hidden_columns_forms(hidden, WIDER_OR_DETAILS))
        if not forms:
            self.query_one(StackStatus).note = ""
            return []
        named = f"+{len(hidden)} hidden: {', '.join(hidden)}"
        if named not in forms:  # after the forms naming every column with the place
            forms.insert(len(WIDER_OR_DETAILS), named)
        self.query_one(StackStatus).note = named  # kept beside a long verdict, which is cut instead
        return [(tuple(forms), 4)]

    def on_resize(self) -> None:
        self._size_panes()

    @on(StackTree.NodeExpanded)
    @on(StackTree.NodeCollapsed)
    def _rows_changed(self) -> None:
        """A tree's pane follows its rows, sized once after a burst of expansions: stacked, a short tree's
        height; beside, the scrollbar's cells, kept only while the rows overflow the pane."""
        if not self._sizing:
            self._sizing = True
            self.call_after_refresh(self._size_panes)

    def _size_panes(self) -> None:
        """Layout by size (BESIDE_FROM), widths from content: beside, the tree pane as wide as the columns
        it draws (no scrollbar cells while its rows fit its height) and at most what leaves the details a
        value column of 30 cells, the details every cell left (their long lines whole where the tree has
        slack: lab-ssd's tree takes 132 of 240); under, both full width, the details under a tree as
        tall as its rows (up to TREE_SHARE of the height)."""
        self._sizing = False
        width = self.size.width
        if width <= 0:
            return
        tree = self.query_one(StackTree)
        pane = self.query_one("#stack-pane")
        beside = width >= BESIDE_FROM
        self.set_class(not beside, "-stacked")
        body = self.query_one("#stack-body").size.height or max(0, self.size.height - 3)
        if beside:
            room = width - DETAILS_MIN_CELLS - BORDER_CELLS
            scrolls = tree.last_line + 1 > body - (PANE_CHROME_LINES - 1)  # title and header above it
            self._size_pane(pane, tree.pane_width(room, scrolls) + BORDER_CELLS, None)
            return
        rows = tree.last_line + 1 + PANE_CHROME_LINES
        self._size_pane(pane, None, max(PANE_CHROME_LINES + 1, min(rows, int(body * TREE_SHARE))))

    def _size_pane(self, pane: Widget, width: int | None, height: int | None) -> None:
        """Give the tree pane this width and height (None: the stylesheet's), only if they changed: setting
        a size, even the same one, lays out the whole screen again (each key typed in the filter did so
        twice more)."""
        if self._pane_size == (width, height):
            return
        self._pane_size = (width, height)
        pane.styles.width = width
        pane.styles.height = height

    def _show_tree(self, keep_cursor: bool = False, keep_expansion: bool = False) -> None:
        if self.host is None:
            return
        tree = self.query_one(StackTree)
        previous = tree.cursor_key() if keep_cursor else None
        previous_kname = self.view.kname_of(previous) if previous and self.view else None
        expanded, collapsed = tree.expansion() if keep_expansion else (set(), set())
        self.view = StackView(self.host, self.mode, self.trim_verdicts)
        self.view.filter_text = self.filter_text
        few = len(self.host.roots()) <= MAX_AUTO_EXPAND_ROOTS
        tree.show_rows(self.view.children, expand_depth=EXPAND_LEVELS if few else 0)
        if previous is None:  # the cursor is on the first row: placed by the screen, not chosen
            first = tree.root.children[0] if tree.root.children else None
            self._placed = first.data.key if first is not None and first.data is not None else None
            if self._placed is not None and chosen(self.app) is None:
                self._look(self._placed)  # known before Stack is left, whatever screen comes next
        if keep_expansion:
            tree.restore_expansion(expanded, collapsed)
        if previous and not tree.reveal(StackView.ancestor_keys(previous)) and previous_kname:
            moved = self.view.key_for(previous_kname)  # the same device, in the other direction
            if moved:
                tree.reveal(StackView.ancestor_keys(moved))
        count = len(self.host.devices)
        shown = str(count)
        if self.filter_text:
            kept, matched = self.view.counts()
            kept_words = f"all {count}" if kept == count else f"{kept} of {count}"
            shown = f"{match_count(matched)} · {kept_words}"
        self.query_one("#stack-title", Static).update(  # one line whatever it says: no layout pass
            f"Storage stack {VIEW_TITLES[self.mode]} · {shown} devices", layout=False)
        self._size_panes()  # a filter or the other direction: other rows, maybe other widths
        if tree.cursor_node is None or tree.cursor_node.data is None:
            self.query_one(StatusLine).say(*self._status_parts())
        if not isinstance(self.focused, FilterBar):  # typing a filter goes on in the filter line
            tree.focus()

    def _status_parts(self) -> list[Part]:
        assert self.host is not None
        if self.host.warnings:
            return [*self._filter_part(), *((warning, 0) for warning in self.host.warnings)]
        return [("no block devices" if not self.host.devices else "", 0), *self._filter_part(),
                *self._selection_hidden_part(), *self._hidden_part(), ("F1 help", 3)]

    def _filter_words(self) -> tuple[str, str]:
        """What a `/` filter keeps, the rows that match apart from those kept for their stacks (as k9s and
        lazygit count matches), whole and short: "filter 'luks': 4 matches, 30 of 37 devices with their
        stacks" (every device kept: "…, all 37 devices shown with their stacks")."""
        if not self.filter_text or self.view is None or self.host is None:
            return "", ""
        kept, matched = self.view.counts()
        said = f"filter '{self.filter_text}': " + (match_count(matched) if matched else "no device matches")
        if not matched:
            return said, said
        total = len(self.host.devices)
        devices = f"all {total} devices shown" if kept == total else f"{kept} of {total} devices"
        return f"{said}, {devices} with their stacks", said

    def _filter_part(self) -> list[Part]:
        """The filter's statement on the status line, only while it is typed: once the tree has the focus,
        the filter line above says it (one statement), and the status line keeps its room for the row's
        verdict and the hidden columns' note."""
        whole, said = self._filter_words()
        if not whole or not isinstance(self.focused, FilterBar):
            return []
        return [((f"{whole} · Esc clears", whole, said), 1)]

    def _selection_hidden_part(self) -> list[Part]:
        """While the filter that hid the selection made on another screen is kept and nothing else was
        chosen: say so, as the cursor's row is not the selection ("/lab/raid1 (chosen on TRIM) is hidden
        by the filter", short "/lab/raid1 hidden by the filter"); likewise a selection with no block device
        ("/tmp/x (tmpfs, chosen on Runs) has no block device: not in this tree")."""
        if self._deviceless is not None and chosen(self.app) is self._deviceless:
            width = self.query_one(StatusLine).content_size.width or self.app.size.width
            return [(no_device_words(self.app, self._deviceless, "not in this tree", width), 1)]
        if self._hidden_selection is None:
            return []
        selection, text = self._hidden_selection
        if chosen(self.app) is not selection or self.filter_text != text or not selection.subject:
            return []
        by = SCREEN_NAMES.get(selection.by, selection.by)
        subject = selection.subject
        return [((f"{subject} (chosen on {by}) is hidden by the filter",
                  f"{subject} hidden by the filter"), 1)]

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        """The filter line lost the focus (Enter, Esc): the status line without the filter's words."""
        if isinstance(event.widget, FilterBar):
            self.call_after_refresh(self._say_status)

    @on(StackTree.LayerSelected)
    def show_layer(self, message: StackTree.LayerSelected) -> None:
        self._show_row(message.row)

    def _show_row(self, row: StackRow) -> None:
        """The row under the cursor: its TRIM verdict on the status line, its details beside the tree."""
        if self.view is None or self.host is None:
            return
        kname = self.view.kname_of(row.key)
        if kname is None or kname not in self.host.devices:
            return
        device = self.host.devices[kname]
        title = f"{row.name} · {device.kind}"
        if row.name != device.name:
            title = f"{row.name} on {device.name} · {device.kind}"
        self._say_trim(kname)
        known = self._details_read.get(kname)
        if known is not None:  # drawn in the same frame as the cursor; the read below confirms it
            self._draw_details(kname, title, known)
        self.read_details(self.host, kname, title, self._neighbours())

    def _say_trim(self, kname: str) -> None:
        """The status line: the selected layer's TRIM verdict (the TRIM screen's words for a device a
        filesystem is mounted on), the host's warnings, the help key."""
        assert self.host is not None
        group = trim_group(self.host, kname, self.trim_summaries.get(kname))
        self.query_one(StatusLine).say((group.rows[0].value, 0), *self._filter_part(),
                                       *self._selection_hidden_part(), *self.host_warnings(),
                                       *self._hidden_part(), ("F1 help", 3))

    def _show_trim_of_cursor(self) -> None:
        """The TRIM verdicts arrived after the cursor's layer was drawn: say them there too."""
        kname = self._cursor_kname()
        if self.host is None or kname is None or kname not in self.host.devices:
            return
        self._say_trim(kname)
        if self._details_shown is not None and self._details_shown[0] == kname:
            _, title, sections = self._details_shown
            self._details_shown = None
            self._draw_details(kname, title, sections)

    def _neighbours(self) -> list[str]:
        """The devices of the rows just above and below the cursor (the next ones a key moves to)."""
        tree = self.query_one(StackTree)
        found = []
        for line in (tree.cursor_line + 1, tree.cursor_line - 1):
            node = tree.get_node_at_line(line) if line >= 0 else None
            kname = self.view.kname_of(node.data.key) if node and node.data and self.view else None
            if kname is not None and kname not in self._details_read:
                found.append(kname)
        return found

    def _cursor_kname(self) -> str | None:
        key = self.query_one(StackTree).cursor_key()
        return self.view.kname_of(key) if key is not None and self.view is not None else None

    def host_warnings(self) -> list[tuple[str, int]]:
        """The host's warnings, shown after the selected row's verdict when there is room."""
        return [(warning, 2) for warning in self.host.warnings] if self.host else []

    @work(thread=True, exclusive=True, group="details", exit_on_error=False,
          description="read a device's details")
    def read_details(self, host: Host, kname: str, title: str, neighbours: list[str]) -> None:
        """Read a layer's details off the UI thread (a slow sysfs or blkid must not freeze the cursor),
        then those of the rows beside it, so the next move draws them at once (a newer move cancels)."""
        worker = get_current_worker()
        self.post_message(self.DetailsRead(kname, title, read_layer_details(self.root, host, kname)))
        for other in neighbours:
            if worker.is_cancelled:
                return
            self.post_message(self.DetailsRead(other, "", read_layer_details(self.root, host, other)))

    @on(DetailsRead)
    def show_details(self, message: DetailsRead) -> None:
        """Keep what was read; draw it if the cursor is on that device and it differs from what shows."""
        if self.host is None or message.kname not in self.host.devices:
            return
        self._details_read[message.kname] = message.sections
        if message.title and self._cursor_kname() in (None, message.kname):
            self._draw_details(message.kname, message.title, message.sections)

    def _draw_details(self, kname: str, title: str, sections: list[DetailSection]) -> None:
        assert self.host is not None
        if (kname, title, sections) == self._details_shown:
            return  # the read confirmed what the pane already shows: nothing to redraw
        self._details_shown = (kname, title, sections)
        groups = detail_groups(sections)
        groups.insert(1, trim_group(self.host, kname, self.trim_summaries.get(kname)))
        # A pane title is one line whatever it says: no layout pass for it.
        self.query_one("#details-title", Static).update(Text(f"Details: {title}"), layout=False)
        self.query_one(LayerTable).show_groups(groups)

    def action_filter(self) -> None:
        if not self.filter_text:  # a kept filter opened again: the row before the first `/` stays
            self._before_filter = BeforeFilter(self.query_one(StackTree).cursor_key(), self._placed,
                                               chosen(self.app))
        self.query_one(FilterBar).open()

    @on(StackTree.NodeSelected)
    @on(FilterBar.Kept)
    def _acted(self) -> None:
        """Enter on a row, or on the filter (keeping it), chooses the row a filter's jump placed the cursor
        on."""
        if self.query_one(StackTree).cursor_key() == self._placed:
            self._placed = None

    @on(FilterBar.Filter)
    def _filter_changed(self, message: FilterBar.Filter) -> None:
        self.filter_text = message.text
        tree = self.query_one(StackTree)
        before = tree.cursor_key()
        self._show_tree(keep_cursor=True)
        back = self._before_filter if message.cleared else None
        if message.cleared:
            self._before_filter = None
        if back is not None and back.cursor is not None and before == self._jump \
                and tree.reveal(StackView.ancestor_keys(back.cursor)):  # Esc on the filter's own jump
            self._placed = back.placed
            restore(self.app, back.held)
            before = None
        if self.view is not None and self.host is not None:
            message.bar.counted(self.view.shown_devices(), len(self.host.devices), self._filter_words())
        if message.text:
            self.query_one(StatusLine).say(*self._filter_part())
        if tree.root.children:
            tree.call_after_refresh(self._select_kept_row)
        else:
            self._show_no_details()
        tree.call_after_refresh(self._placed_by_filter, before)  # after the move to the first match

    def _show_no_details(self) -> None:
        """No row is left (a filter matched nothing): the details pane says so rather than go on showing
        a device the tree no longer lists."""
        self._details_shown = None
        self.query_one("#details-title", Static).update(
            Text(f"Details: no device matches '{self.filter_text}' (Esc clears the filter)"), layout=False)
        self.query_one(LayerTable).show_groups([])

    def _placed_by_filter(self, before: str | None) -> None:
        """A filter's move of the cursor (to its first match) is the screen's, not the user's choice."""
        key = self.query_one(StackTree).cursor_key()
        if before is not None and key != before:
            self._placed = self._jump = key

    def _select_kept_row(self) -> None:
        """The details follow the filter: the row under the cursor when it matches, else the first row that
        matches (a whole disk's stack is kept for one match deep in it), else the first kept row."""
        tree = self.query_one(StackTree)
        node = tree.cursor_node
        if self.filter_text and (node is None or node.data is None or not node.data.marks):
            node = tree.first_marked() or node
        if node is None or node.data is None:
            node = tree.root.children[0] if tree.root.children else None
            if node is None:
                return
        if node is not tree.cursor_node:
            tree.move_cursor(node)
        if self.filter_text:  # after the cursor's own scroll: the match near the top, its branch whole
            tree.call_after_refresh(tree.scroll_to_branch, True)
        if node.data is not None:
            tree.post_message(StackTree.LayerSelected(node.data))

    def action_toggle_view(self) -> None:
        self.mode = MOUNTS_DOWN if self.mode == DISKS_UP else DISKS_UP
        self._show_tree(keep_cursor=True)
        tree = self.query_one(StackTree)
        # after reveal's move: the cursor's group whole with its title on top (newuser10 #11, newuser14 #8)
        tree.call_after_refresh(tree.call_after_refresh, tree.scroll_to_branch)

    def action_toggle_sources(self) -> None:
        table = self.query_one(LayerTable)
        table.show_sources = not table.show_sources

    def action_expand_all(self) -> None:
        self.query_one(StackTree).expand_all_below_cursor()

    def action_refresh(self) -> None:
        self.query_one(StatusLine).say("Reading the host…")
        self.request_refresh()

    async def action_bench_selected(self) -> None:
        """Open the benchmark with the selected row's filesystem chosen."""
        key = self.query_one(StackTree).cursor_key()
        mountpoint = self.view.mountpoint_of(key) if self.view and key else None
        if mountpoint is None:
            self.notify("No filesystem is mounted on this row; pick a mountpoint or a mounted device.",
                        severity="warning")
            return
        if not self.root.live:
            self.notify("Benchmarks need the live host; this session reads a capture (--sysroot).",
                        severity="warning")
            return
        await self.app.benchmark_directory(mountpoint)  # type: ignore[attr-defined]
