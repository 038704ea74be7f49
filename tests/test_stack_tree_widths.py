"""The Stack tree measures its rows from the fitted columns without building each label: the width it
counts for every row is the width of the row it draws (so its horizontal extent and scrollbar are
unchanged), on captures with long, cut and unusual names, in both directions and at several sizes."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.widgets import StackTree
from diskdoctor.widgets.stack_tree import (
    GUIDE_WIDTH,
    ColumnWidths,
    StackRow,
    _depth,
    _lines_from,
    label_width,
)
from rich.cells import cell_len
from textual.widgets import Tree


@pytest.mark.parametrize("fixture", ["long-names", "lab-ssd", "multipath", "etcd-raid0-lvm-luks"])
@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)])
async def test_every_row_is_counted_as_wide_as_it_is_drawn(fixture: str, size: tuple[int, int]) -> None:
    app = DiskDoctorApp(fixture_root(fixture))
    async with app.run_test(size=size) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        for direction in ("disks up", "mounts down"):
            tree = app.screen.query_one(StackTree)
            tree.expand_all_below_cursor()
            await pilot.pause()
            nodes = [tree.get_node_at_line(line) for line in range(tree.last_line + 1)]
            assert len(nodes) > 3, direction
            for node in nodes:
                assert node is not None
                assert tree.get_label_width(node) == Tree.get_label_width(tree, node), node.data
            await pilot.press("v")
            await pilot.pause()


def test_a_row_with_wide_characters_is_measured_from_its_built_label() -> None:
    row = StackRow(key="sda", name="データ", kind="disk", size="1G", trim="yes", fstype="ext4",
                   mounts="/srv/データ", has_children=False)
    assert label_width(row, 0) is None
    assert label_width(StackRow(key="sda", name="sda", kind="disk", size="1G", trim="yes", fstype="ext4",
                                mounts="/srv", has_children=False), 0) is not None


@pytest.mark.parametrize("name, mounts", [("sda", "/srv"), ("データ", "/srv/データ"), ("ｗｉｄｅ", ""),
                                          ("e\u0301", "/mnt/e\u0301"), ("", "")])
def test_columns_are_as_wide_as_their_widest_cell_drawn(name: str, mounts: str) -> None:
    row = StackRow(key="k", name=name, kind="disk", size="1G", trim="yes", fstype="ext4", mounts=mounts,
                   has_children=False, extra=("no", "none", "0B", "データ"))
    widths = ColumnWidths()
    widths.see(row, 2)
    assert widths.name == max(len("NAME"), 2 * GUIDE_WIDTH + cell_len(name))
    assert widths.mounts == max(len("MOUNTPOINTS"), cell_len(mounts))
    assert widths.extra[3] == max(len("DISC-GRAN"), cell_len("データ"))
    assert list(widths.name_cells) == [2 * GUIDE_WIDTH + cell_len(name)]


@pytest.mark.parametrize("top", [0, 3, 50])
async def test_the_rows_in_view_before_a_layout_are_the_rows_drawn_there(top: int) -> None:
    app = DiskDoctorApp(fixture_root("multipath"))
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        tree = app.screen.query_one(StackTree)
        tree.expand_all_below_cursor()
        await pilot.pause()
        drawn = [tree.get_node_at_line(line) for line in range(top, min(top + 10, tree.last_line + 1))]
        walked = _lines_from(tree.root, top, 10)
        assert [node for node, _depth in walked] == drawn
        assert [depth for _node, depth in walked] == [_depth(node) for node in drawn if node is not None]
