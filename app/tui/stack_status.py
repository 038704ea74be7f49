"""The Stack's status line: the count of columns a wider terminal shows stays beside a long verdict."""

from __future__ import annotations

import re

from diskdoctor.widgets import StatusLine
from diskdoctor.widgets.fit_text import ELLIPSIS, SEPARATOR, Part, fit_parts, fit_words, part_text
from rich.cells import cell_len
from rich.text import Text

LEAST_CUT = 16
"""Narrower, the verdict is left out rather than cut to a stub beside the filter and the note."""
CLAUSE_END = re.compile(r"[:;] ")
"""Where a verdict's clause ends ("BLOCKED at luks1 (…): fstrim does nothing…", "OK: …; trimmed on…")."""
NAME_STUB = 8
"""A word cut to this many characters or more is kept cut (a long device name's start tells which);
shorter, it is left out ("fstrim does n…" was no word)."""
CLAUSE_SHARE = 2 / 3
"""A verdict cut at a clause's end when that keeps this share of the room, else at a word's."""


class StackStatus(StatusLine):
    """A status line whose `note` ("+2 hidden") is kept, before the help key, when a long verdict would push
    it off the line: the verdict is cut at its end if need be (newuser10 #9, newuser11 #6)."""

    def __init__(self, text: str = "", *, id: str | None = None) -> None:
        super().__init__(text, id=id)
        self.note = ""

    def render(self) -> Text:
        width = max(self.content_size.width, 1)
        parts = self.parts
        if parts and isinstance(parts[0][0], str) and cell_len(parts[0][0]) > width:
            parts = (((parts[0][0], clause_cut(parts[0][0], width)), parts[0][1]), *parts[1:])
        return Text(keep_note(parts, self.note, width), style=self.style)


def clause_cut(text: str, width: int) -> str:
    """`text` cut to `width` cells where a reader loses least: after a whole clause ("BLOCKED at luks1
    (dm-crypt without allow_discards)…") when that keeps most of the room, else after a whole word, not
    mid-word ("fstrim does n…", "discard (co…" at 80 columns, newuser15) unless the word is a long name
    whose start still tells it; the details say it whole."""
    if cell_len(text) <= width:
        return text
    heads = [text[:found.start()] for found in CLAUSE_END.finditer(text)]
    whole = [head for head in heads if cell_len(head) + 1 <= width]
    if whole and cell_len(whole[-1]) >= width * CLAUSE_SHARE:
        return whole[-1] + ELLIPSIS
    cut = fit_words(text, width)  # never a figure without its unit
    if not text.isascii() or " " not in cut or text[len(cut) - 1] == " ":
        return cut
    head, word = cut[:-1].rsplit(" ", 1)
    if len(word) >= NAME_STUB:
        return cut  # the start of a long device name still tells which ("vg_elasticsea…")
    return head.rstrip(" ·,:;(") + ELLIPSIS  # a cut word of prose left out ("n…", "(co…")


def keep_note(parts: tuple[Part, ...], note: str, width: int) -> str:
    """`parts` fitted to `width`; where that drops `note` (the hidden columns' names) or a typed
    filter's statement because the first part (the verdict) is long, both are kept: in the longest forms
    that fit beside the whole verdict, else in their short forms with the verdict cut at its end
    (newuser12 saw typing a filter at 80 drop the note; the note's names whole, newuser23 #11, else its
    count when the names leave the verdict no room), the help key last."""
    line = fit_parts(parts, width)
    if not parts:
        return line
    if not note:
        return _keep_statements(parts, line, width)
    first, rest = parts[0], parts[1:]
    hidden = next((part for part in rest if isinstance(part[0], tuple) and note in part[0]), None)
    if hidden is None:
        return line  # a line without the note ("reading the host again…")
    filters = [part for part in rest if part[1] <= 1 and part_text(part) and part != hidden]
    if note in line and all(_forms(part)[-1] in line for part in filters):
        return line
    warnings = [part for part in rest if part[1] == 2 and part_text(part)]  # the host's: only where room
    helps = [(text, 4) for text, priority in rest if priority > 2 and (text, priority) != hidden]
    verdict = part_text(first)
    together = [_forms(part) for part in filters]
    named = _forms(hidden)[:_forms(hidden).index(note) + 1]  # the forms that keep every name
    tail = _together(together, named, width - cell_len(verdict + SEPARATOR))
    if verdict and cell_len(verdict + SEPARATOR + tail) <= width:  # the verdict whole, they in the rest
        return fit_parts([(verdict, 0), (tail, 0), *warnings, *helps], width)
    for kept in dict.fromkeys((note, _forms(hidden)[-1])):  # the names, else the count ("+4 hidden")
        shortest = SEPARATOR.join([*(_forms(part)[-1] for part in filters), kept])
        room = width - cell_len(shortest + SEPARATOR)  # they in short forms, the verdict cut to the rest
        if verdict and room >= LEAST_CUT:
            return fit_parts([(clause_cut(verdict, room), 0), (shortest, 0), *warnings, *helps], width)
    return fit_parts([(_together(together, _forms(hidden), width), 0), *warnings, *helps], width)


def _keep_statements(parts: tuple[Part, ...], line: str, width: int) -> str:
    """`line` without a hidden-columns note: a statement (priority 1: the typed filter's, the hidden
    selection's) the long verdict pushed off is kept in its short form, the verdict cut to the rest."""
    statements = [part for part in parts[1:] if part[1] <= 1 and part_text(part)]
    if all(any(form in line for form in _forms(part)) for part in statements):  # in any of its forms
        return line
    shortest = SEPARATOR.join(_forms(part)[-1] for part in statements)
    room = width - cell_len(shortest + SEPARATOR)
    if room < LEAST_CUT:
        return line
    warnings = [part for part in parts[1:] if part[1] == 2 and part_text(part)]  # the host's: where room
    helps = [(text, 4) for text, priority in parts[1:] if priority > 2]
    return fit_parts([(clause_cut(part_text(parts[0]), room), 0), (shortest, 0), *warnings, *helps], width)


def _forms(part: Part) -> tuple[str, ...]:
    """A part's forms, longest first."""
    return part[0] if isinstance(part[0], tuple) else (part[0],)


def _together(filters: list[tuple[str, ...]], note: tuple[str, ...], width: int) -> str:
    """The filters' statements and the note joined in the longest forms that fit `width` (the filter's
    "· Esc clears" and the note's "(a wider terminal shows them)" go first, then names, one at a time), else
    their shortest forms."""
    steps = max((len(forms) for forms in filters), default=1)
    combos = sorted(((f, n) for f in range(steps) for n in range(len(note))), key=lambda c: (sum(c), c[1]))
    joined = ""
    for step, form in combos:
        joined = SEPARATOR.join([*(forms[min(step, len(forms) - 1)] for forms in filters), note[form]])
        if cell_len(joined) <= width:
            return joined
    return joined
