"""TRIM gives its list the rows the details leave blank (newuser21 #12, 120x40 live with 17 mounts: `13 of 17
rows fit: ↓ for more` above 2 blank rows under the finding card), and takes them back for a longer card."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import FIXTURES
from diskdoctor.probes.root import Root
from test_trim_tui import open_trim
from test_tui import running, settled, text_of


def _many_mounts(tmp_path: Path) -> Root:
    """lab-ssd with 8 more filesystems, btrfs with async discard: OK, no card (20 rows in all)."""
    root = tmp_path / "many"
    shutil.copytree(FIXTURES / "lab-ssd", root, symlinks=True)
    with (root / "proc/self/mountinfo").open("a") as mountinfo:
        for index in range(1, 9):
            mountinfo.write(f"{60 + index} 28 9:0 / /lab/extra-{index} rw,relatime - btrfs /dev/md0 "
                            "rw,ssd,discard=async,space_cache=v2\n")
    return Root(str(root), live=False)


async def test_the_list_takes_the_rows_the_details_leave_blank(tmp_path: Path) -> None:
    async with running(_many_mounts(tmp_path), (120, 40)) as (app, pilot):
        table = await open_trim(app, pilot)
        assert table.row_count == 20
        share = table.size.height
        assert share < 21 and "rows fit" in text_of(app, "#status")  # the first row's card needs the room
        table.move_cursor(row=19)  # OK, no card: 11 lines of details
        await settled(app, pilot)
        await pilot.pause()
        await pilot.pause()
        assert not app.screen.verdicts[app.screen.selected].findings
        assert table.size.height == 21, table.size  # every row shows
        assert "rows fit" not in text_of(app, "#status")
        pane = app.screen.query_one("#trim-details")
        assert pane.max_scroll_y == 0  # and the details whole
        table.move_cursor(row=0)  # a long card: the list gives the rows back
        await settled(app, pilot)
        await pilot.pause()
        await pilot.pause()
        assert table.size.height == share, table.size
        assert f"{share - 1} of 20 rows fit" in text_of(app, "#status")
