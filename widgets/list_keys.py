"""The keys every list, table and tree shares, as in less, vim, htop and k9s: j/k move, g/Home go to the
first row, G/End to the last."""

from __future__ import annotations

from textual.binding import Binding

TABLE_KEYS = [
    Binding("j", "cursor_down", "Down", show=False),
    Binding("k", "cursor_up", "Up", show=False),
    Binding("g,home", "scroll_top", "First row", show=False),
    Binding("G,end", "scroll_bottom", "Last row", show=False),
]
"""For a row-cursor DataTable (its own Home/End scroll sideways; here they go to the first/last row)."""

TREE_KEYS = [
    Binding("j", "cursor_down", "Down", show=False),
    Binding("k", "cursor_up", "Up", show=False),
    Binding("g,home", "scroll_home", "First row", show=False),
    Binding("G,end", "scroll_end", "Last row", show=False),
]
"""For a Tree (its scroll_home/scroll_end move the cursor to the first/last line)."""

OPTION_KEYS = [
    Binding("j", "cursor_down", "Down", show=False),
    Binding("k", "cursor_up", "Up", show=False),
    Binding("g", "first", "First row", show=False),
    Binding("G", "last", "Last row", show=False),
]
"""For an OptionList (its own Home/End already go to the first/last option)."""

SCROLL_KEYS = [
    Binding("j", "line_down", "Down", show=False),
    Binding("k", "line_up", "Up", show=False),
    Binding("g", "top", "Top", show=False),
    Binding("G", "bottom", "End", show=False),
]
"""For a scrolling text pane (help, a long explanation): j/k a line, g/G the top and the end (the pane's
own actions, which do not animate, so a key typed right after another starts from where it left off)."""
