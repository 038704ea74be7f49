"""The Stack's status line cuts a long TRIM verdict after a whole clause or word, never mid-word (newuser15:
at 80x24 `… fstrim does n… · +2 hidden` on lab-ssd's luks1, `… discard (co…` on a live host)."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.stack_status import NAME_STUB, StackStatus, clause_cut
from diskdoctor.widgets import StackTree
from diskdoctor.widgets.fit_text import ELLIPSIS
from test_stack_layout import settle

BLOCKED = "BLOCKED at luks1 (dm-crypt without allow_discards): fstrim does nothing for this filesystem"
OK = "OK: discard passes down to vda; trimmed on delete by mount option discard (continuous)"
UNSCHEDULED = ("UNSCHEDULED: discard passes down to sda, sdb through md0, sda1, sdb1; nothing trims it (no "
               "timer, no cron job, no discard mount option)")


@pytest.mark.parametrize("text", [BLOCKED, OK, UNSCHEDULED])
def test_a_verdict_is_cut_after_a_whole_clause_or_word(text: str) -> None:
    words = set(text.replace(";", " ").replace(":", " ").replace(",", " ").split())
    for width in range(12, len(text)):
        cut = clause_cut(text, width)
        assert len(cut) <= width and cut.endswith(ELLIPSIS), (width, cut)
        last = cut[:-1].replace(";", " ").replace(":", " ").replace(",", " ").split()[-1]
        # a whole word, not "n" of "nothing"; or the start of a long name, which still tells it
        stub = len(last) >= NAME_STUB and any(word.startswith(last) for word in words)
        assert last in words or stub, (width, cut)
    assert clause_cut(BLOCKED, 60) == "BLOCKED at luks1 (dm-crypt without allow_discards)…"
    assert clause_cut(text, len(text)) == text


async def test_at_80_the_status_line_never_ends_in_a_cut_word() -> None:
    """Every row of lab-ssd at 80x24: the verdict on the status line ends in a whole word."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        tree = app.screen.query_one(StackTree)
        status = app.screen.query_one(StackStatus)
        seen = []
        for _ in range(tree.last_line + 1):
            line = str(status.render())
            verdict = line.split(" · ")[0]
            if verdict.endswith(ELLIPSIS):
                whole = status.parts[0][0]
                whole = whole if isinstance(whole, str) else whole[0]
                head = verdict[:-1]
                seen.append(verdict)
                stub = head.rsplit(" ", 1)[-1]
                assert whole.startswith(head), (verdict, whole)
                assert whole[len(head)] in " :;," or len(stub) >= NAME_STUB, (verdict, whole)
            await pilot.press("j")
            await settle(pilot)
        assert seen  # long verdicts were seen, and cut
