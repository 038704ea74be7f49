"""Pilot steps the Advice tests share: open the Advice screen with its cursor on one finding's row."""

from __future__ import annotations

from diskdoctor.app.tui.advice_screen import AdviceScreen
from diskdoctor.app.tui.app import DiskDoctorApp
from test_tui import settled
from textual.widgets import DataTable


async def advice_on(app: DiskDoctorApp, pilot, finding_id: str) -> AdviceScreen:  # type: ignore[no-untyped-def]
    """Press 4 once the host is read, then put the cursor on the first row of `finding_id`."""
    await settled(app, pilot)
    await pilot.press("4")
    await settled(app, pilot)
    screen = app.screen
    assert isinstance(screen, AdviceScreen)
    index = next(i for i, row in enumerate(screen.rows) if row.finding.id == finding_id)
    screen.query_one("#advice-table", DataTable).move_cursor(row=index)
    await pilot.pause()
    return screen
