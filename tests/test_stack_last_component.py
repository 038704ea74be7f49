"""NAME gives cells before a mountpoint's last component is cut (newuser21 #9): at 120x40 on long-names a
59-cell NAME kept its names whole while MOUNTPOINTS showed `…/pg_wal_archi…me_recovery`, cut twice."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.widgets import StackTree
from diskdoctor.widgets.stack_tree import GAP, GUIDE_WIDTH, MIN_NAME_CELLS, ColumnWidths, StackRow, _depth

WAL = "/srv/postgresql/16/main/pg_wal_archive_for_point_in_time_recovery"
LAST = WAL.rsplit("/", 1)[-1]

ALIKE = ("no", "none", "2T", "4K")
OTHER = ("yes", "bfq", "0B", "0B")
"""Another row's ROTA, SCHED, DISC-MAX, DISC-GRAN: the extra columns tell rows apart (newuser23 #12)."""


def _row(name: str, mounts: str) -> StackRow:
    return StackRow(key=name, name=name, kind="lvm", size="1G", trim="yes", fstype="ext4", mounts=mounts,
                    has_children=False, extra=ALIKE if name[0] in "an" else OTHER)


@pytest.mark.parametrize("extra", [0, 2])
def test_a_long_name_gives_cells_to_a_last_component(extra: int) -> None:
    widths = ColumnWidths()
    widths.see(_row("vg_elasticsearch_hot-lv_postgresql_write_ahead_log", WAL), 2)
    widths.see(_row("nvme0n1", "/"), 0)
    fixed = widths.natural(extra) - widths.name - widths.mounts
    width = fixed + len(LAST) + 2 + 30  # the names' floor and the last component fit; names whole do not
    fitted = widths.fitted(width, extra=extra)
    assert fitted.shown_extra == extra
    assert fitted.mounts >= len(LAST) + 2, fitted
    assert fitted.name + fitted.mounts == widths.fitted(10_000).name + len(LAST) + 2 + 30 - widths.name
    assert fitted.name < widths.name  # the name is cut in its middle instead


def _mount_cells(tree: StackTree) -> list[tuple[str, str]]:
    """Each row in view's mountpoint and the MOUNTPOINTS cell drawn for it."""
    w = tree._fitted
    assert w is not None and w.has_mounts
    start = w.name + w.kind + w.size + w.trim + w.fstype + 5 * GAP
    top = round(tree.scroll_y)
    found = []
    for line in range(top, min(top + tree.scrollable_content_region.height, tree.last_line + 1)):
        node = tree.get_node_at_line(line)
        if node is None or node.data is None or not node.data.mounts:
            continue
        label = tree.render_label(node, tree.rich_style, tree.rich_style).plain
        cell = label[start - _depth(node) * GUIDE_WIDTH:][: w.mounts].rstrip()
        found.append((node.data.mounts, cell))
    return found


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_no_last_component_is_cut_while_names_could_give(size: tuple[int, int]) -> None:
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=size) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        tree = app.screen.query_one(StackTree)
        seen = []
        for _ in range(2):  # the rows on top, then those at the bottom (the WAL volume's at 80x24)
            w = tree._fitted
            assert w is not None
            room = w.name - min(w.name, w.indent + MIN_NAME_CELLS) + w.mounts  # names at their floor
            for mounts, cell in _mount_cells(tree):
                last = mounts.rsplit("/", 1)[-1]
                if cell != mounts and not cell.endswith("/" + last):
                    assert len(last) + 2 > room, (mounts, cell, w)
                seen.append((mounts, cell))
            await pilot.press("G")
            await pilot.pause()
            await pilot.pause()
        assert any(mounts == WAL for mounts, _ in seen)
        if size == (120, 40):
            assert (WAL, f"…/{LAST}") in seen
