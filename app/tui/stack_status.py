"""The Stack's status line: the count of columns a wider terminal shows stays beside a long verdict."""

from __future__ import annotations

from diskdoctor.widgets import StatusLine
from diskdoctor.widgets.fit_text import SEPARATOR, Part, fit_end, fit_parts, part_text
from rich.cells import cell_len
from rich.text import Text

LEAST_VERDICT = 40
"""A verdict is cut at its end to keep the hidden-columns note only while it keeps this many cells."""


class StackStatus(StatusLine):
    """A status line whose `note` ("+2 hidden") is kept in its short form when a long verdict would push it
    off the line: the verdict is cut at its end instead (newuser10 #9)."""

    def __init__(self, text: str = "", *, id: str | None = None) -> None:
        super().__init__(text, id=id)
        self.note = ""

    def render(self) -> Text:
        width = max(self.content_size.width, 1)
        return Text(keep_note(self.parts, self.note, width), style=self.style)


def keep_note(parts: tuple[Part, ...], note: str, width: int) -> str:
    """`parts` fitted to `width`; where that drops `note` (the hidden columns' short form) because the first
    part (the verdict) is long, the first part is cut at its end so the parts above the help key and
    `note` fit."""
    line = fit_parts(parts, width)
    if not note or not parts or note in line:
        return line
    first, rest = parts[0], parts[1:]
    if not any(isinstance(text, tuple) and text[-1] == note for text, _ in rest):
        return line  # a line without the note ("reading the host again…")
    others = [part for part in rest if part[1] <= 2 and part_text(part)]  # a filter, the host's warnings
    shortest = [text[-1] if isinstance(text, tuple) else text for text, _ in others]
    room = width - sum(cell_len(SEPARATOR + text) for text in [*shortest, note])
    if room < LEAST_VERDICT or cell_len(part_text(first)) <= room:
        return line
    return fit_parts([(fit_end(part_text(first), room), 0), *others, (note, 2)], width)
