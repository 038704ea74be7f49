"""The Stack's status line: the count of columns a wider terminal shows stays beside a long verdict."""

from __future__ import annotations

from diskdoctor.widgets import StatusLine
from diskdoctor.widgets.fit_text import SEPARATOR, Part, fit_end, fit_parts, part_text
from rich.cells import cell_len
from rich.text import Text

LEAST_VERDICT = 40
"""A verdict is cut at its end to keep the hidden-columns note only while it keeps this many cells."""


class StackStatus(StatusLine):
    """A status line whose `note` ("+2 hidden") is kept, before the help key, when a long verdict would push
    it off the line: the verdict is cut at its end if need be (newuser10 #9, newuser11 #6)."""

    def __init__(self, text: str = "", *, id: str | None = None) -> None:
        super().__init__(text, id=id)
        self.note = ""

    def render(self) -> Text:
        width = max(self.content_size.width, 1)
        return Text(keep_note(self.parts, self.note, width), style=self.style)


def keep_note(parts: tuple[Part, ...], note: str, width: int) -> str:
    """`parts` fitted to `width`; where that drops `note` (the hidden columns' short form) because the first
    part (the verdict) is long, the note is kept in the longest form that fits: before the help key, and
    with the first part cut at its end when even its short form does not fit beside it."""
    line = fit_parts(parts, width)
    if not note or not parts or note in line:
        return line
    first, rest = parts[0], parts[1:]
    hidden = next((part for part in rest if isinstance(part[0], tuple) and part[0][-1] == note), None)
    if hidden is None:
        return line  # a line without the note ("reading the host again…")
    others = [part for part in rest if part[1] <= 2 and part_text(part)]  # a filter, the host's warnings
    shortest = [text[-1] if isinstance(text, tuple) else text for text, _ in others]
    room = width - sum(cell_len(SEPARATOR + text) for text in [*shortest, note])
    if room < LEAST_VERDICT:
        return line
    verdict = part_text(first)
    if cell_len(verdict) > room:
        verdict = fit_end(verdict, room)
    helps = [(text, 4) for text, priority in rest if priority > 2 and (text, priority) != hidden]
    # the verdict first, then the note (its shorter forms before it goes), then the others, the help last
    return fit_parts([(verdict, 0), (hidden[0], 1), *((text, priority + 1) for text, priority in others),
                      *helps], width)
