"""The first screen: the storage stack tree, the selected layer's details, and TRIM reach."""

from __future__ import annotations

from diskdoctor.probes.host import Host, read_host
from diskdoctor.probes.layer_details import read_layer_details
from diskdoctor.probes.root import Root
from diskdoctor.widgets import LayerTable, StackTree
from diskdoctor.widgets.stack_tree import header_text
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from .messages import HostLoaded, HostLoadFailed
from .stack_view import DISKS_UP, MOUNTS_DOWN, StackView, detail_groups, trim_group

VIEW_TITLES = {DISKS_UP: "from the disks up", MOUNTS_DOWN: "from the mountpoints down"}
EXPAND_LEVELS = 16
MAX_AUTO_EXPAND_ROOTS = 64


class StackScreen(Screen[None]):
    """Storage stack of one host: navigate layers, switch direction, read any value's source."""

    BINDINGS = [
        Binding("v", "toggle_view", "Disks up / mounts down", tooltip="Switch the tree direction."),
        Binding("s", "toggle_sources", "Sources", tooltip="Show where each value was read."),
        Binding("e", "expand_all", "Expand", tooltip="Expand everything under the cursor."),
        Binding("r", "refresh", "Refresh", tooltip="Read the host again."),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, root: Root) -> None:
        super().__init__()
        self.root = root
        self.host: Host | None = None
        self.view: StackView | None = None
        self.mode = DISKS_UP

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
        yield Static("Reading the host…", id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.load_host()

    @work(thread=True, exclusive=True, group="probe", exit_on_error=False)
    def load_host(self) -> None:
        """Read the passive snapshot off the UI thread (a slow sysfs must not freeze the UI)."""
        try:
            self.post_message(HostLoaded(read_host(self.root)))
        except Exception as err:  # a probe bug must never kill the app
            self.post_message(HostLoadFailed(f"could not read the host: {err}"))

    @on(HostLoaded)
    def show_host(self, message: HostLoaded) -> None:
        refreshing = self.host is not None
        self.host = message.host
        self.sub_title = f"{message.host.hostname or '?'} · kernel {message.host.kernel or '?'}" \
                         f" · {message.host.root_label}"
        self._show_tree(keep_cursor=refreshing)

    @on(HostLoadFailed)
    def show_failure(self, message: HostLoadFailed) -> None:
        self.query_one("#status", Static).update(Text(message.reason))

    def _show_tree(self, keep_cursor: bool = False) -> None:
        if self.host is None:
            return
        tree = self.query_one(StackTree)
        previous = tree.cursor_key() if keep_cursor else None
        self.view = StackView(self.host, self.mode)
        few = len(self.host.roots()) <= MAX_AUTO_EXPAND_ROOTS
        tree.show_rows(self.view.children, expand_depth=EXPAND_LEVELS if few else 0)
        if previous:
            tree.reveal(StackView.ancestor_keys(previous))
        count = len(self.host.devices)
        self.query_one("#stack-title", Static).update(
            f"Storage stack {VIEW_TITLES[self.mode]} · {count} devices")
        self.query_one("#status", Static).update(Text(self._status_line()))
        tree.focus()

    def _status_line(self) -> str:
        assert self.host is not None
        warnings = "; ".join(self.host.warnings)
        return warnings or "↑↓ move · → expand · v switch direction · s show sources"

    @on(StackTree.LayerSelected)
    def show_layer(self, message: StackTree.LayerSelected) -> None:
        if self.view is None or self.host is None:
            return
        kname = self.view.kname_of(message.row.key)
        if kname is None or kname not in self.host.devices:
            return
        groups = detail_groups(read_layer_details(self.root, self.host, kname))
        groups.insert(1, trim_group(self.host, kname))
        device = self.host.devices[kname]
        title = f"{message.row.name} · {device.kind}"
        if message.row.name != device.name:
            title = f"{message.row.name} on {device.name} · {device.kind}"
        self.query_one("#details-title", Static).update(Text(f"Details: {title}"))
        self.query_one(LayerTable).show_groups(groups)
        self.query_one("#status", Static).update(Text(groups[1].rows[0].value))

    def action_toggle_view(self) -> None:
        self.mode = MOUNTS_DOWN if self.mode == DISKS_UP else DISKS_UP
        self._show_tree()

    def action_toggle_sources(self) -> None:
        table = self.query_one(LayerTable)
        table.show_sources = not table.show_sources

    def action_expand_all(self) -> None:
        self.query_one(StackTree).expand_all_below_cursor()

    def action_refresh(self) -> None:
        self.query_one("#status", Static).update("Reading the host…")
        self.load_host()
