"""An option list and a scrolling pane that take the keys every list shares (j/k, g/G), as less and k9s do."""

from __future__ import annotations

from textual.containers import VerticalScroll
from textual.widgets import OptionList

from .list_keys import OPTION_KEYS, SCROLL_KEYS


class KeyedOptionList(OptionList):
    """An OptionList that also moves with j/k and jumps with g/G."""

    BINDINGS = OPTION_KEYS


class KeyedScroll(VerticalScroll):
    """A VerticalScroll that also scrolls with j/k and jumps with g/G, at once (never animated)."""

    BINDINGS = SCROLL_KEYS

    def action_line_down(self) -> None:
        self.scroll_to(y=self.scroll_y + 1, animate=False, immediate=True)

    def action_line_up(self) -> None:
        self.scroll_to(y=self.scroll_y - 1, animate=False, immediate=True)

    def action_top(self) -> None:
        self.scroll_home(animate=False, immediate=True)

    def action_bottom(self) -> None:
        self.scroll_end(animate=False, immediate=True)
