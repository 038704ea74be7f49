"""Stack's details keep their value column in one place as the cursor moves: the label column's width
depends on the pane's width alone, never on the labels of the row under the cursor (newuser22 #11: the
values moved 2 cells sideways from vda, 21 wide, to a loop device, 23 wide)."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.widgets.layer_table import LayerTable
from test_tui import settled


@pytest.mark.parametrize("capture", ["lab-ssd", "long-names"])
@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)])
async def test_the_value_column_stays_put_as_the_cursor_moves(capture: str, size: tuple[int, int]) -> None:
    app = DiskDoctorApp(fixture_root(capture))
    async with app.run_test(size=size) as pilot:
        await settled(app, pilot)
        table = app.screen.query_one(LayerTable)
        widths = {}
        for _ in range(12):  # the disks, their partitions and the layers above
            await pilot.press("down")
            await settled(app, pilot)
            title = str(app.screen.query_one("#details-title").render())
            widths[title] = table.columns["attribute"].width
        assert len(set(widths.values())) == 1, widths
