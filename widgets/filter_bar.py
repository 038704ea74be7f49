"""The `/` filter line of a list or tree: hidden until asked for, it narrows the rows as the user types."""

from __future__ import annotations

from rich.cells import cell_len
from rich.segment import Segment
from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.strip import Strip
from textual.widgets import Input
from textual.widgets.input import Selection

from .text_field import consumes

TYPING_HINTS = ("Enter keeps the filter · Esc clears it", "Enter keeps · Esc clears", "⏎ keeps · Esc clears")
"""What the line says at its right end while the user types, the longest that fits after the text typed
(the placeholder says it before anything is typed; once typed, nothing else would)."""
HINT_GAP = 2
"""Cells kept between the text typed (and its cursor) and the hint."""


class FilterBar(Input):
    """Type to keep the rows that contain the text; Enter keeps the filter and returns to the list,
    Esc clears it. The screen does the filtering (it knows what a row says) and tells the bar how many rows
    it kept, which the bar says once the list has the focus again ("filter: ssd (2 of 12) · Esc clears");
    `/` again selects the old text, so typing replaces it."""

    DEFAULT_CSS = """
    FilterBar { display: none; height: 1; border: none; padding: 0 1; background: $boost; }
    FilterBar.-open { display: block; }
    FilterBar.-textual-compact { padding: 0 1; }
    """
    BINDINGS = [Binding("enter", "submit", "Keep filter", tooltip="Keep the filter; back to the list."),
                Binding("escape", "clear_filter", "Clear filter", tooltip="Every row again.")]
    """Shown in the footer while the filter is typed, as the line's own hint says."""

    class Filter(Message):
        """The filter text changed ("" shows every row); `cleared`: by Esc, so the screen puts its cursor
        back where it was before `/` (newuser24 #12: the first match was left as the selection)."""

        def __init__(self, bar: FilterBar, text: str, cleared: bool = False) -> None:
            super().__init__()
            self.bar, self.text, self.cleared = bar, text, cleared

        @property
        def control(self) -> FilterBar:
            return self.bar

    class Kept(Message):
        """Enter kept the filter: the row its jump put the cursor on is the user's (newuser11 #1)."""

    def __init__(self, *, id: str | None = None) -> None:
        # compact: one line without a border, also while typing (Input's own :focus rule would draw its
        # tall border over the one line and hide the text typed)
        super().__init__(placeholder="filter: type to keep matching rows · Enter keeps it · Esc clears",
                         id=id, select_on_focus=False, compact=True)
        self._return_to = None
        self._clearing = False
        self.kept: tuple[int, int] | None = None
        """(rows shown, rows in all) of the last filtering, as the screen counted them."""
        self.words: tuple[str, ...] = ()
        """The screen's own statement of what the filter keeps (said instead of the count)."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return consumes(key, character)  # "/" too: it types a slash while the filter is typed

    def open(self) -> None:
        """Show the line and type into it (the focused list gets the focus back on Enter or Esc); the old
        text is selected, so typing replaces it and the arrow keys keep it."""
        self._return_to = self.screen.focused
        self.add_class("-open")
        self.focus()
        self.selection = Selection(0, len(self.value))

    def counted(self, shown: int, total: int, words: tuple[str, ...] = ()) -> None:
        """The screen's count of the rows this filter keeps (said on the line once the list has the focus),
        or, given, its own words for it, longest first (a tree keeps rows for their stacks: "filter 'slow':
        2 match, 30 of 37 devices with their stacks", then "filter 'slow': 2 match")."""
        self.kept = (shown, total)
        self.words = tuple(form for form in words if form)
        self.refresh()

    @property
    def summary(self) -> str:
        """What the line says while the list has the focus: "filter: ssd (2 of 12) · Esc clears"."""
        if self.words:
            room = self.scrollable_content_region.width or cell_len(self.words[-1]) + 13
            forms = [f"{words} · Esc clears" for words in self.words] + [self.words[-1]]
            return next((form for form in forms if cell_len(form) <= room), forms[-1])
        counts = f" ({self.kept[0]} of {self.kept[1]})" if self.kept is not None else ""
        return f"filter: {self.value.strip()}{counts} · Esc clears"

    @property
    def _value(self) -> Text:
        """The text typed, or the summary while the list has the focus."""
        if self.has_focus or not self.value:
            return super()._value
        return Text(self.summary, no_wrap=True, overflow="ellipsis", end="")

    def render_line(self, y: int) -> Strip:
        """The line as Input draws it, with the keys' hint at its right end while a filter is typed."""
        strip = super().render_line(y)
        if y != 0 or not self.has_focus or not self.value:
            return strip
        width = self.scrollable_content_region.width
        typed = self._value.cell_len + 1 - self.scroll_offset.x  # the text and the cursor after it
        hint = next((hint for hint in TYPING_HINTS if typed + HINT_GAP + cell_len(hint) <= width), None)
        if hint is None:
            return strip
        style = self.rich_style + self.get_component_rich_style("input--placeholder")
        hinted = strip.crop(0, width - cell_len(hint)).extend_cell_length(width - cell_len(hint))
        return Strip.join([hinted, Strip([Segment(hint, style)])]).extend_cell_length(strip.cell_length,
                                                                                  self.rich_style)

    def on_blur(self) -> None:
        """The summary from its start; an empty line closes (newuser22 #14: `/` then Tab left its typing
        hint below the list, which Esc on the list did not clear)."""
        if not self.value:
            self.remove_class("-open")
        self.scroll_to(0, animate=False)
        self.refresh()

    def on_focus(self) -> None:
        self.refresh()

    def _on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(self.Filter(self, event.value.strip(), cleared=self._clearing))
        self._clearing = False

    def _on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if not self.value.strip():
            self.remove_class("-open")
        else:
            self.post_message(self.Kept())
        self._back()

    def action_clear_filter(self) -> None:
        """Esc: every row again, and back to the list (one Filter message: a second rebuild would start
        from the first one's cursor, not the row the user was on)."""
        self.remove_class("-open")
        if self.value:
            self._clearing = True
            self.value = ""  # Input.Changed says it
        else:
            self.post_message(self.Filter(self, "", cleared=True))
        self._back()

    def _back(self) -> None:
        if self._return_to is not None and self._return_to.is_mounted:
            self._return_to.focus()


def matches(text: str, *fields: str) -> bool:
    """Whether every word of the filter appears in one of the fields (case-insensitive)."""
    haystack = " ".join(fields).casefold()
    return all(word in haystack for word in text.casefold().split())


def match_count(count: int) -> str:
    """How many rows a filter matched, in every screen's words: "1 match", "2 matches"."""
    return f"{count} match" if count == 1 else f"{count} matches"


def filter_note(text: str, shown: int, total: int, rows: str) -> str:
    """The line that says what a filter keeps: "filter 'ssd': 3 of 12 filesystems · Esc clears", or that
    it keeps nothing ("filter 'x': none of the 12 filesystems matches · Esc clears")."""
    kept = f"{shown} of {total} {rows}" if shown else f"none of the {total} {rows} matches"
    return f"filter '{text}': {kept} · Esc clears"
