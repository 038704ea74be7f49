"""With two runs picked at 80x24 the comparison gets the room (newuser18): the list kept 40% of the screen
(9 of 10 runs) and the comparison's judged p99 needed PgDn; the list now keeps a fifth, the picked run in
view, and the p99 shows."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from conftest import fixture_root
from diskdoctor.app.core.runs.store import RunStore
from diskdoctor.app.tui.app import DiskDoctorApp
from support.runs_support import saved_run
from test_runs_screen import FIXTURE, open_runs
from test_text_fit import screen_lines
from textual.widgets import DataTable


async def test_two_picked_runs_leave_the_comparisons_p99_on_screen_at_80x24(private_state_dir: Path) -> None:
    store = RunStore()
    for index in range(10):
        run_id = f"202611{10 + index}-143000-wal-{index:04x}"
        store.save(dataclasses.replace(saved_run(20 + index), id=run_id))
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_runs(pilot)
        table = app.screen.query_one(DataTable)
        before = table.size.height
        await pilot.press("space", "down", "down", "down", "down", "down", "space")
        await pilot.pause(0.3)
        lines = screen_lines(app)
        screen = "\n".join(lines)
        assert table.size.height < before, (table.size.height, before)
        assert any(line.lstrip().startswith("p99 fdatasync") for line in lines), screen
        assert sum("●" in line for line in lines) >= 1, screen  # the picked run under the cursor in view
        assert table.cursor_row == 5
        row_top = table.scroll_y
        assert row_top <= table.cursor_row < row_top + table.size.height - 1, (row_top, table.size.height)
