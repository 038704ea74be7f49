"""A cut cell takes the tree's last cells (newuser21 #12): live at 120
`/tmp/pytest-of-root/pytest-801/…/mnt-btrfs` was 1 cell short of whole beside a free cell at the right edge;
the cell kept before a scrollbar (`EDGE`, newuser9 #14) was kept without one too."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.widgets import StackTree
from diskdoctor.widgets.stack_tree import EDGE


@pytest.mark.parametrize("fixture, size, scrolls", [("long-names", (120, 40), False),
                                                    ("long-names", (80, 24), True),
                                                    ("lab-ssd", (80, 24), True)])
async def test_the_columns_add_up_to_the_width_when_a_cell_is_cut(
        fixture: str, size: tuple[int, int], scrolls: bool) -> None:
    app = DiskDoctorApp(fixture_root(fixture))
    async with app.run_test(size=size) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.pause()
        tree = app.screen.query_one(StackTree)
        fitted = tree._fitted
        assert fitted is not None and tree.show_vertical_scrollbar == scrolls
        assert fitted.mounts < tree.widths.mounts or fitted.name < tree.widths.name  # a cell is cut
        room = tree.scrollable_content_region.width - (EDGE if scrolls else 0)
        assert fitted.natural(fitted.shown_extra) == room, (room, fitted)
        assert not tree.show_horizontal_scrollbar
