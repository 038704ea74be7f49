"""A lazily expanded storage-stack tree with aligned TYPE / SIZE / TRIM / FSTYPE / MOUNT columns."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

NAME_WIDTH = 30
GUIDE_WIDTH = 4
ICON_WIDTH = 2
TRIM_STYLES = {"yes": "green", "no": "red", "BLOCKED": "bold red", "ok": "green",
               "unsupported": "yellow", "?": "dim"}


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


def header_text() -> Text:
    """The column header shown above the tree."""
    return Text(f"{'NAME':<{NAME_WIDTH + ICON_WIDTH}} {'TYPE':<7} {'SIZE':>7}  {'TRIM':<11} {'FSTYPE':<7} "
                "MOUNTPOINTS", style="bold")


def row_label(row: StackRow, depth: int) -> Text:
    """The row's cells padded so columns line up whatever the indentation."""
    icon = 0 if row.has_children else ICON_WIDTH
    width = max(8, NAME_WIDTH - depth * GUIDE_WIDTH + icon)
    name = row.name if len(row.name) <= width else row.name[: width - 1] + "…"
    label = Text(f"{name:<{width}} ", style=row.emphasis or "bold")
    label.append(f"{row.kind:<7} {row.size:>7}  ")
    label.append(f"{row.trim:<11} ", style=TRIM_STYLES.get(row.trim, ""))
    label.append(f"{row.fstype:<7} {row.mounts}")
    return label


def _depth(node: TreeNode[StackRow]) -> int:
    """How many visible ancestors a node has (top-level rows are at depth 0)."""
    depth, parent = 0, node.parent
    while parent is not None and parent.parent is not None:
        depth += 1
        parent = parent.parent
    return depth


class StackTree(Tree[StackRow]):
    """Shows rows from `load_children(key)`; children are fetched only when a node is expanded."""

    DEFAULT_CSS = """
    StackTree { width: 1fr; height: 1fr; }
    """

    BINDINGS = [
        Binding("right", "expand_cursor", "Expand", show=False),
        Binding("left", "collapse_cursor", "Collapse / parent", show=False),
    ]

    class LayerSelected(Message):
        """The cursor moved to a row."""

        def __init__(self, row: StackRow) -> None:
            super().__init__()
            self.row = row

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("stack", id=id)
        self.show_root = False
        self.guide_depth = GUIDE_WIDTH
        self._load_children: Callable[[str | None], list[StackRow]] = lambda _key: []
        self._loaded: set[int] = set()

    def show_rows(self, load_children: Callable[[str | None], list[StackRow]],
                  expand_depth: int = 0) -> None:
        """Replace the tree with the rows `load_children(None)` returns, expanding a few levels."""
        self._load_children = load_children
        self._loaded.clear()
        self.clear()
        self._add_children(self.root, None, depth=0)
        self._loaded.add(self.root.id)
        if expand_depth:
            self._expand(self.root, expand_depth)
        self.move_cursor_to_line(0)

    def _add_children(self, node: TreeNode[StackRow], key: str | None, depth: int) -> None:
        for row in self._load_children(key):
            node.add(row_label(row, depth), data=row, allow_expand=row.has_children)

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

    def cursor_key(self) -> str | None:
        """The key of the highlighted row, to restore it after the rows are rebuilt."""
        node = self.cursor_node
        return node.data.key if node is not None and node.data is not None else None

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
            self.move_cursor(node)
        return found

    def expand_all_below_cursor(self) -> None:
        """Expand the highlighted row and everything under it."""
        node = self.cursor_node
        if node is not None and node.allow_expand:
            self._ensure_loaded(node)
            node.expand()
            self._expand(node, 64)

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

    def _on_tree_node_highlighted(self, event: Tree.NodeHighlighted[StackRow]) -> None:
        if event.node.data is not None:
            self.post_message(self.LayerSelected(event.node.data))
