"""A fix command shown on several lines pastes as the command (newuser21 #8: on long-names the TRIM card at
200x60 and the Advice card at 120 and 80 broke `'/var/lib/kubelet/…/kubernetes.io~csi/` / `pvc-…/mount'`
inside its quotes, which copied with the mouse is another path): it breaks only between words, each broken
line ending ` \\`; a word wider than the card runs to the edge, cut with `…`, and the card says so."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.cards import CUT_NOTE, VERIFY_CUT_NOTE
from diskdoctor.widgets import FindingCard
from diskdoctor.widgets.finding_card import card_text
from rich.console import Console
from test_advice_fit import _advice
from test_trim_tui import open_trim
from test_tui import running, settled

SIZES = [(80, 24), (120, 40), (200, 60)]


def shown_lines(card: FindingCard) -> list[str]:
    """The card's lines as drawn at its content width."""
    width = card.content_size.width
    console = Console(width=width, color_system=None, legacy_windows=False)
    rendered = console.render_lines(card_text(card.card), console.options.update_width(width), pad=False)
    return ["".join(segment.text for segment in line).rstrip() for line in rendered]


def _words(line: str) -> str:
    return " ".join(line.split(" # ")[0].split())


def pasted_commands(lines: list[str], label: str) -> list[str]:
    """The commands as a mouse copy of the lines under `label` pastes them (comments left out)."""
    start = next(index for index, line in enumerate(lines) if line.startswith(label)) + 1
    commands, joined = [], ""
    for line in lines[start:]:
        if not line.startswith("  ") or line.startswith("  ("):  # Risk:, Verify:, the cut note
            break
        joined = f"{joined} {line.strip()}" if joined else line.strip()
        if joined.endswith(" \\"):
            joined = joined.removesuffix(" \\")
            continue
        if not joined.startswith("#"):
            commands.append(_words(joined))
        joined = ""
    return commands


def check_card(card: FindingCard, whole: bool) -> int:
    """Each fix and check command pastes whole, or is cut at the edge with the card saying so; the number
    cut."""
    lines = shown_lines(card)
    assert all(len(line) <= card.content_size.width for line in lines), lines
    cut = 0
    for label, commands, note in (("Fix:", card.card.fix, CUT_NOTE), ("Verify:", card.card.verify,
                                                                        VERIFY_CUT_NOTE)):
        wanted = [_words(line) for line in commands if not line.lstrip().startswith("#")]
        if not wanted:
            continue
        shown = pasted_commands(lines, label)
        assert len(shown) == len(wanted), (shown, wanted)
        for got, command in zip(shown, wanted, strict=True):
            if got != command:
                assert not whole, (got, command)
                assert got.endswith("…") and command.startswith(got[:-1]), (got, command)
                assert f"  ({note})" in lines, lines  # said, not silently
                cut += 1
    return cut


@pytest.mark.parametrize("size", SIZES)
async def test_trim_fix_commands_paste_whole_on_long_names(size: tuple[int, int]) -> None:
    async with running(fixture_root("long-names"), size) as (app, pilot):
        table = await open_trim(app, pilot)
        checked = 0
        for row in range(table.row_count):
            table.move_cursor(row=row)
            await settled(app, pilot)
            await pilot.pause()
            for card in app.screen.query(FindingCard):
                check_card(card, whole=size[0] >= 200)  # at 200 the card is sized so the path fits
                checked += bool(card.card.fix or card.card.verify)
        assert checked


@pytest.mark.parametrize("size", SIZES)
async def test_advice_fix_commands_paste_whole_on_long_names(size: tuple[int, int]) -> None:
    async with running(fixture_root("long-names"), size) as (app, pilot):
        screen = await _advice(app, pilot)
        table = screen.query_one("#advice-table")
        checked = 0
        for row in range(table.row_count):
            table.move_cursor(row=row)
            await settled(app, pilot)
            await pilot.pause()
            card = screen.query_one("#advice-card", FindingCard)
            if card.display:
                check_card(card, whole=False)
                checked += 1
        assert checked
