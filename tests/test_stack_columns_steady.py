"""The Stack tree's columns are fitted to every row shown (collapsed rows' children aside), not to the rows
in view: scrolling never moves a column (newuser23 #1: at 80x24 on lab-ssd one `k` moved FSTYPE)."""

from __future__ import annotations

import re

from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.widgets import StackTree
from diskdoctor.widgets.stack_tree import ColumnWidths, _depth
from textual.widgets import Static


def offsets(header: str) -> list[int]:
    """Where each heading starts in the header line."""
    return [match.start() for match in re.finditer(r"\S+", header)]


async def test_scrolling_lab_ssd_at_80x24_never_moves_a_column() -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.pause()
        tree = app.screen.query_one(StackTree)
        header = app.screen.query_one("#stack-columns", Static)
        seen = {str(header.render())}
        lines = tree.last_line + 1
        for key in ["j"] * lines + ["k"] * lines + ["G", "g"]:
            await pilot.press(key)
            await pilot.pause()
            seen.add(str(header.render()))
        assert len({tuple(offsets(text)) for text in seen}) == 1, seen
        assert tree.scroll_y == 0 and lines > tree.scrollable_content_region.height  # it did scroll


def walked(tree: StackTree) -> ColumnWidths:
    """The widths of every line shown, measured one by one."""
    widths = ColumnWidths(mounts=0)
    for line in range(tree.last_line + 1):
        node = tree.get_node_at_line(line)
        widths.see(node.data, _depth(node))
    return widths


async def test_the_fit_is_that_of_every_row_shown_and_follows_a_collapse() -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        tree = app.screen.query_one(StackTree)
        assert tree._shown_widths() == walked(tree)
        before = tree._fitted
        tree.scroll_to(y=tree.last_line, animate=False)
        await pilot.pause()
        assert tree._fitted == before
        for node in list(tree.root.children):
            node.collapse()
        await pilot.pause()
        await pilot.pause()
        assert tree._shown_widths() == walked(tree)
        names = [tree.get_node_at_line(line).data.name for line in range(tree.last_line + 1)]
        assert tree._fitted.name <= max(len(name) for name in names) + 2, (tree._fitted, names)


async def test_rows_loaded_by_a_reveal_but_not_opened_are_not_measured() -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        tree = app.screen.query_one(StackTree)
        for node in list(tree.root.children):
            node.collapse()
        await pilot.pause()
        await pilot.pause()
        tree.root.children[0].expand()  # loaded and opened again: every row loaded shown but those
        await pilot.pause()
        await pilot.pause()
        assert tree._shown_widths() == walked(tree)
