"""One phrasing on every screen for table columns left out for want of width: which, and where to see them."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len

WIDER = ("wider terminal",)
"""Where columns no other pane lists show: a wider terminal (no shorter word)."""
WIDER_OR_DETAILS = ("wider terminal or details", "see details")
"""Where columns the screen's details pane also lists show, and its short form for a narrow line."""


def hidden_columns_forms(hidden: Sequence[str], where: Sequence[str] = WIDER) -> tuple[str, ...]:
    """The note's forms, longest first (newuser21 #10 read three phrasings on two screens):
    `+4 hidden: ROTA, SCHED, DISC-MAX, DISC-GRAN (wider terminal or details)`, the place's short form
    (`… (see details)`) before a name goes, then fewer names (`+4 hidden: ROTA, SCHED … (see details)`),
    then the count with the place (`+4 hidden (see details)`), then one column's name alone
    (`+1 hidden: DISC-GRAN`), then `+4 hidden`; none for no column (the first that fits is shown)."""
    if not hidden:
        return ()
    count = f"+{len(hidden)} hidden"
    named = [f"{count}: {', '.join(hidden[:shown])}{'' if shown == len(hidden) else ' …'}"
             for shown in range(len(hidden), 0, -1)]
    alone = named if len(hidden) == 1 else []
    return tuple(dict.fromkeys([*(f"{name} ({place})" for name in named for place in where),
                                *(f"{count} ({place})" for place in where), *alone, count]))


def hidden_columns_note(hidden: Sequence[str], width: int, where: Sequence[str] = WIDER) -> str:
    """The longest form of the note that fits `width` cells (its shortest, `+4 hidden`, when none does)."""
    forms = hidden_columns_forms(hidden, where)
    return next((form for form in forms if cell_len(form) <= width), forms[-1] if forms else "")
