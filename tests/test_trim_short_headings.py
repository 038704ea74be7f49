"""TRIM's table gives a long mountpoint the cells of headings wider than their values, and the last cell
where no scrollbar is shown (newuser22 #5: at 80x24 long-names `…/pg_wal_arch…e_recovery` in 24 cells
beside `Periodic trim` over `none` and `Warnings` over `1`; live `/tmp/newuser22-ext4` cut 1 cell short
beside a free cell at the right edge)."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import FIXTURES, fixture_root
from diskdoctor.app.tui.trim_screen import COLUMNS, TIMER_COLUMNS, headings_and_room
from diskdoctor.probes.root import Root
from test_tui import running, settled
from textual.widgets import DataTable

LAST = "pg_wal_archive_for_point_in_time_recovery"
LIVE_LIKE = "/tmp/trim14-live-ext4-mnt"
"""25 characters: at 80 columns exactly the Mountpoint column's room with every cell taken."""


def cells(table: DataTable[object]) -> list[str]:
    return [str(table.get_row_at(row)[0]) for row in range(table.row_count)]


async def test_the_cut_pg_wal_name_takes_the_short_headings_cells_at_80() -> None:
    async with running(fixture_root("long-names"), (80, 24)) as (app, pilot):
        await pilot.press("2")
        await settled(app, pilot)
        table = app.screen.query_one("#trim-table", DataTable)
        labels = tuple(str(column.label) for column in table.columns.values())
        assert labels == TIMER_COLUMNS, labels
        pg_wal = next(cell for cell in cells(table) if "pg_wal" in cell)
        assert pg_wal.startswith("…/pg_wal_archive_fo") and pg_wal.endswith("_in_time_recovery"), pg_wal
        assert len(pg_wal) >= len(LAST) - 4, pg_wal  # 24 cells before: `…/pg_wal_arch…e_recovery`
        widths = sum(column.get_render_width(table) for column in table.columns.values())
        assert widths == table.scrollable_content_region.width, widths  # every cell, no scrollbar
        assert not table.show_horizontal_scrollbar and not table.show_vertical_scrollbar


async def test_a_live_like_mountpoint_takes_the_last_cell_at_80(tmp_path: Path) -> None:
    root = tmp_path / "long-names"
    shutil.copytree(FIXTURES / "long-names", root, symlinks=True)
    mountinfo = root / "proc" / "self" / "mountinfo"
    text = mountinfo.read_text().replace("/srv/postgresql/16/main/" + LAST, LIVE_LIKE)
    mountinfo.write_text(text.replace(
        "/var/lib/kubelet/pods/8f0c2a4e-5b1d-4c0e-9a77-3c1f2d4e5f60/volumes/kubernetes.io~csi/"
        "pvc-4d5e6f70-8192-4a3b-bc4d-5e6f708192a3/mount", "/var/lib/kubelet/mount"))
    async with running(Root(str(root), live=False), (80, 24)) as (app, pilot):
        await pilot.press("2")
        await settled(app, pilot)
        table = app.screen.query_one("#trim-table", DataTable)
        labels = tuple(str(column.label) for column in table.columns.values())
        assert labels == COLUMNS, labels  # whole headings: the path fits in every cell
        assert LIVE_LIKE in cells(table), cells(table)  # was `…/trim14-live-ext4-mnt`, 1 cell short
        assert not table.show_horizontal_scrollbar and not table.show_vertical_scrollbar


def test_the_cell_before_a_scrollbar_is_kept_only_with_one() -> None:
    row = (LIVE_LIKE, "ext4", "unscheduled", "off", "none", "1")
    others = sum(max(len(label), len(cell)) + 2 for label, cell in zip(COLUMNS[1:], row[1:], strict=True))
    width = len(LIVE_LIKE) + 2 + others
    assert headings_and_room([row], width) == (COLUMNS, len(LIVE_LIKE))
    # with a scrollbar the cell before it is kept: `Sched` and `Warn` give the cells instead, both together
    # (newuser23 #13d: `Periodic trim` beside `Warn` read as a half-done step)
    assert headings_and_room([row], width, scrolls=True) == (TIMER_COLUMNS, len(LIVE_LIKE) - 1 + 8 + 4)


def test_the_short_periodic_heading_is_not_read_as_the_fstrim_timer() -> None:
    """newuser24 #5: the header said `fstrim.timer enabled (systemd not running)` over a column headed
    `Timer` with `none` on every row: a contradiction. The short form says what `Periodic trim` says."""
    assert "Timer" not in TIMER_COLUMNS and "Sched" in TIMER_COLUMNS
    assert len(TIMER_COLUMNS) == len(COLUMNS)
