"""One arrangement by terminal size, widths from both panes (newuser17 #9): at 200x60 lab-ssd put the
details beside a 133-cell tree and long-names under it; beside, the tree kept scrollbar cells it never
drew."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.stack_screen import BESIDE_FROM, BORDER_CELLS
from diskdoctor.widgets import LayerTable, StackTree
from diskdoctor.widgets.stack_tree import EDGE

SIZES = [(80, 24), (120, 40), (200, 60), (239, 60), (240, 60)]


async def _settle(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause(0.1)


def _assert_transport_on_one_line(table: LayerTable) -> None:
    row = next(row for row in table.ordered_rows if table.get_row(row.key)[0].plain == "transport")
    assert row.height == 1 and "is not in the capture" in str(table.get_row(row.key)[1])


async def test_at_200_the_details_longest_lines_are_whole() -> None:
    """lab-ssd at 200x60: `transport  unknown: SCSI disk; its adapter (host2)` wrapped in a 62-cell details
    pane beside a 133-cell tree; under the tree the details have the whole width, the tree every column."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(200, 60)) as pilot:
        await _settle(pilot)
        _assert_transport_on_one_line(app.screen.query_one(LayerTable))
        tree = app.screen.query_one(StackTree)
        assert tree._fitted is not None and tree._fitted.shown_extra == 4


@pytest.mark.parametrize("fixture", ["lab-ssd", "long-names", "lvm-multi-pv"])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_the_details_go_beside_the_tree_by_size_alone(fixture: str, size: tuple[int, int]) -> None:
    app = DiskDoctorApp(fixture_root(fixture))
    async with app.run_test(size=size) as pilot:
        await _settle(pilot)
        pane = app.screen.query_one("#stack-pane").region
        details = app.screen.query_one("#details-pane").region
        if size[0] >= BESIDE_FROM:
            assert details.x >= pane.right and details.y == pane.y, (pane, details)
        else:
            assert details.y >= pane.bottom and details.width == size[0], (pane, details)


async def test_beside_the_tree_pane_is_as_wide_as_the_columns_it_draws() -> None:
    """lab-ssd at 240x60: every row fits the pane's height, so no scrollbar is drawn and its two cells go
    to the details; the tree's last column ends one cell before the border."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(240, 60)) as pilot:
        await _settle(pilot)
        tree = app.screen.query_one(StackTree)
        assert tree._fitted is not None and tree._fitted.shown_extra == 4
        assert tree.last_line + 1 <= tree.size.height  # no vertical scrollbar
        pane = app.screen.query_one("#stack-pane").region
        assert pane.width == tree.widths.natural(4) + EDGE + BORDER_CELLS, pane
        details = app.screen.query_one("#details-pane").region
        assert details.width == 240 - pane.width
        _assert_transport_on_one_line(app.screen.query_one(LayerTable))


async def test_beside_a_tree_that_scrolls_keeps_its_scrollbar_cells() -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(240, 30)) as pilot:
        await _settle(pilot)
        tree = app.screen.query_one(StackTree)
        assert tree.last_line + 1 > tree.size.height
        pane = app.screen.query_one("#stack-pane").region
        assert pane.width == tree.base_width(4) + BORDER_CELLS, pane
        assert tree._fitted is not None and tree._fitted.shown_extra == 4
