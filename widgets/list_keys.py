"""The keys every list, table and tree shares, as in less, vim, htop and k9s: j/k move, g/Home go to the
first row, G/End to the last."""

from __future__ import annotations

from textual.binding import Binding


def _keys(down: str, up: str, first: str, last: str, first_keys: str = "g", last_keys: str = "G",
          first_label: str = "First row", last_label: str = "Last row") -> list[Binding]:
    """j/k bound to `down`/`up`, `first_keys`/`last_keys` to `first`/`last`, none of them in the footer."""
    return [Binding("j", down, "Down", show=False), Binding("k", up, "Up", show=False),
            Binding(first_keys, first, first_label, show=False),
            Binding(last_keys, last, last_label, show=False)]


TABLE_KEYS = _keys("cursor_down", "cursor_up", "scroll_top", "scroll_bottom", "g,home", "G,end")
"""For a row-cursor DataTable (its own Home/End scroll sideways; here they go to the first/last row)."""

TREE_KEYS = _keys("cursor_down", "cursor_up", "scroll_home", "scroll_end", "g,home", "G,end")
"""For a Tree (its scroll_home/scroll_end move the cursor to the first/last line)."""

OPTION_KEYS = _keys("cursor_down", "cursor_up", "first", "last")
"""For an OptionList (its own Home/End already go to the first/last option)."""

SCROLL_KEYS = _keys("line_down", "line_up", "top", "bottom", first_label="Top", last_label="End")
"""For a scrolling text pane (help, a long explanation): j/k a line, g/G the top and the end (the pane's
own actions, which do not animate, so a key typed right after another starts from where it left off)."""
