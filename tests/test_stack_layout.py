"""The Stack screen's layout as a new user saw it in tmux (issue 23): names that tell devices apart, no
mountpoint repeated in the mountpoints-down view, the TRIM screen's verdict words, paths wrapped at "/"."""

from __future__ import annotations

from itertools import pairwise

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.widgets import LayerTable, StackTree
from rich.cells import cell_len
from rich.console import Console
from textual.widgets import DataTable, Static

LAB = "lab-ssd"
ICONS = "▼▶ "


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()


def drawn_rows(tree: StackTree) -> list[tuple[str, str, str]]:
    """(device name, the name cell as drawn, the whole drawn line) for every line of the tree."""
    rows = []
    for line in range(tree.last_line + 1):
        node = tree.get_node_at_line(line)
        if node is None or node.data is None:
            continue
        label = tree.render_label(node, tree.rich_style, tree.rich_style).plain
        rows.append((node.data.name, label.lstrip(ICONS).split(" ", 1)[0], label))
    return rows


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)], ids=["80x24", "120x40", "200x60"])
async def test_names_cut_short_still_tell_devices_apart(size: tuple[int, int]) -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        tree = app.screen.query_one(StackTree)
        shown: dict[str, set[str]] = {}
        for name, cell, _line in drawn_rows(tree):
            shown.setdefault(cell, set()).add(name)
        assert all(len(names) == 1 for names in shown.values()), shown
        if size[0] >= 200:
            assert all(cell in names for cell, names in shown.items())  # room: every name whole


async def test_names_come_before_a_wide_fstype_at_120() -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        tree = app.screen.query_one(StackTree)
        fitted = tree._fitted
        assert fitted is not None and fitted.name < tree.widths.name  # names are cut here...
        assert fitted.fstype < len("linux_raid_member")  # ...so FSTYPE is not 17 wide for one value
        cells = {cell for _name, cell, _line in drawn_rows(tree)}
        assert {"vg0-pool_passdown_tdata", "vg0-thin_passdown", "vg0-pool_ignore"} <= cells


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_mounts_down_repeats_no_mountpoint_and_cuts_no_column(size: tuple[int, int]) -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("v")
        await settle(pilot)
        tree = app.screen.query_one(StackTree)
        header = str(app.screen.query_one("#stack-columns", Static).render())
        room = tree.scrollable_content_region.width
        for node_line in range(tree.last_line + 1):
            node = tree.get_node_at_line(node_line)
            if node is None or node.data is None:
                continue
            top = node
            while top.parent is not None and top.parent.parent is not None:
                top = top.parent
            label = tree.render_label(node, tree.rich_style, tree.rich_style).plain
            guides = tree._tree_lines[node_line]._get_guide_width(tree.guide_depth, tree.show_root)
            assert guides + cell_len(label.rstrip()) <= room, label  # every cell on screen
            if node is not top:
                assert top.data.name not in label, label  # the top row's mountpoint, not again
        assert cell_len(header) <= room and "MOUNTPOINTS" not in header


async def test_mounts_down_says_the_trim_screens_words() -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("v")
        await settle(pilot)
        stack = {node.data.name: node.data.trim for node in app.screen.query_one(StackTree).root.children}
        await pilot.press("2")
        await settle(pilot)
        table = app.screen.query_one("#trim-table", DataTable)
        trim = {str(row.key.value): str(table.get_row(row.key)[2]) for row in table.ordered_rows}
        assert stack and {point: stack[point] for point in trim} == trim
        assert stack["/lab/data"] == "UNSCHEDULED"


async def test_details_wrap_paths_at_a_slash_with_the_sources_on() -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("s")
        await settle(pilot)
        table = app.screen.query_one(LayerTable)
        width = table.columns["value"].width  # type: ignore[index]
        console = Console(width=width, file=None, legacy_windows=False)
        paths = 0
        for row in table.ordered_rows:
            cell = table.get_row(row.key)[1]
            lines = ["".join(segment.text for segment in line).rstrip()
                     for line in console.render_lines(cell, console.options.update_width(width), pad=False)]
            for before, after in pairwise(lines):
                if before.endswith("/"):
                    paths += 1
                    # the rest of the path, indented unless only the line's full width holds its next part
                    assert after.startswith("  ") or cell_len(after) > width - 2, (before, after)
                elif before and after:
                    joined = f"{before.split()[-1]} {after.split()[0]}"
                    assert joined in cell.plain.replace("\n", " "), (before, after)  # broken at a space
        assert paths  # the fixture's sysfs paths are long enough to wrap
        assert table.columns["attribute"].width < 22  # type: ignore[index]  # as wide as its labels
