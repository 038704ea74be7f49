"""Coming back to Stack after a resize made on another screen, the cursor's row is in view (newuser23 #2:
200x60 -> 80x24 on TRIM, then `1`: the details said vg0-thin_ignore and no row was highlighted)."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.widgets import StackTree


def cursor_in_view(tree: StackTree) -> bool:
    node = tree.cursor_node
    top = round(tree.scroll_y)
    return node is not None and top <= node.line < top + tree.scrollable_content_region.height


@pytest.mark.parametrize("other", ["2", "4", "6"])
async def test_the_cursor_row_is_in_view_after_a_resize_on_another_screen(other: str) -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(200, 60)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("G")
        await pilot.pause()
        tree = app.screen.query_one(StackTree)
        key = tree.cursor_key()
        assert cursor_in_view(tree)
        await pilot.press(other)
        await pilot.pause()
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
        await pilot.pause()
        tree = app.screen.query_one(StackTree)
        assert tree.cursor_key() == key
        assert cursor_in_view(tree), (tree.cursor_node.line, tree.scroll_y)


async def test_the_cursor_row_stays_in_view_when_stack_itself_is_resized() -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(200, 60)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("G")
        await pilot.pause()
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert cursor_in_view(app.screen.query_one(StackTree))
