"""One extra column left out is named on the Stack status line even beside a long verdict: `+1 hidden`
alone did not say which (newuser16 #11)."""

from __future__ import annotations

from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.widgets import StackTree
from diskdoctor.widgets.status_line import StatusLine


async def test_a_single_hidden_column_is_named_beside_a_long_verdict() -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        named = []
        for width in range(80, 200, 3):
            await pilot.resize_terminal(width, 24)
            await app.workers.wait_for_complete()
            await pilot.pause()
            await pilot.pause()
            hidden = app.screen.query_one(StackTree).hidden_extra()
            if len(hidden) != 1:
                continue
            for _ in range(4):  # the rows whose verdicts are long as well as the short ones
                status = str(app.screen.query_one(StatusLine).render())
                assert f"+1 hidden: {hidden[0]}" in status, (width, status)
                named.append(width)
                await pilot.press("down")
                await pilot.pause()
        assert named


async def test_at_80_every_hidden_column_is_named_beside_a_long_verdict() -> None:
    """newuser23 #11: at 80x24 a long verdict left `+4 hidden` alone; the verdict (also in the details) is
    cut first, so the names stay: `+4 hidden: ROTA, SCHED, DISC-MAX, DISC-GRAN`."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.pause()
        tree = app.screen.query_one(StackTree)
        hidden = tree.hidden_extra()
        assert len(hidden) == 4, hidden
        cut = 0
        for _ in range(tree.last_line + 1):
            status = str(app.screen.query_one(StatusLine).render())
            assert "+4 hidden: ROTA, SCHED, DISC-MAX, DISC-GRAN" in status, status
            cut += status.split(" · ")[0].endswith("…")
            await pilot.press("down")
            await pilot.pause()
        assert cut  # rows with a long verdict were seen
