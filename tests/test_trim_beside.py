"""TRIM at 200x60 sizes the verdict text and the fix cards beside it from their contents (newuser19 #9: the
verdict wrapped at ~80 cells, `... (no timer, no cron` / `job, no discard mount option)`, beside a 116-cell
card with 10-20 blank cells on most lines)."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.trim_screen import CARD_LEAST_CELLS, cards_fit_beside, cards_need, verdict_text
from diskdoctor.widgets import FindingCard
from rich.cells import cell_len
from test_trim_tui import drawn_lines, open_trim
from test_tui import running, settled


@pytest.mark.parametrize("fixture", ["lab-ssd", "long-names"])
async def test_verdict_lines_do_not_wrap_beside_the_cards_where_there_is_room(fixture: str) -> None:
    async with running(fixture_root(fixture), (200, 60)) as (app, pilot):
        table = await open_trim(app, pilot)
        whole_rows = 0
        for row in range(table.row_count):
            table.move_cursor(row=row)
            await settled(app, pilot)
            await pilot.pause()
            screen = app.screen
            verdict = screen.verdicts[screen.selected]
            if not verdict.findings:
                continue
            card = screen.query(FindingCard).first()
            widget = screen.query_one("#trim-verdict")
            room = screen.query_one("#trim-details").scrollable_content_region.width
            if not cards_fit_beside(verdict, room):  # a 133-character path: the card goes under, whole
                assert card.region.y >= widget.region.bottom, screen.selected  # (newuser21 #8)
                continue
            assert card.region.x > widget.region.right - 1, screen.selected  # beside, not under
            assert card.region.width >= CARD_LEAST_CELLS, (screen.selected, card.region.width)
            lines = verdict_text(verdict, screen.facts).plain.splitlines()
            drawn = drawn_lines(app, "#trim-verdict")
            if max(map(cell_len, lines)) + cards_need(verdict) <= room:  # room for both: every line whole
                assert drawn == lines, screen.selected
            if max(map(cell_len, lines[1:])) + cards_need(verdict) <= room:  # the layers, discard mode and
                whole_rows += 1                                          # periodic trim whole; a long
                assert drawn[-(len(lines) - 1):] == lines[1:], screen.selected  # summary may wrap
        assert whole_rows >= (table.row_count if fixture == "lab-ssd" else 1), whole_rows
