"""A `/` filter on the Stack keeps its matches under their parents and nothing kept for nothing (newuser15):
at 80x24 `/luks` on lab-ssd opened on `vg0-luks2on` with sda and sda3 scrolled off (an orphan on top), kept
30 of 37 devices (every sibling of a match on the same disk), and `G` went to a row that did not match.
As in k9s and lazygit, the view starts at the first match's branch from its disk, only the matches, the
rows they rest on and the rows on them stay, `g`/`G`/`n`/`N` land on matches, and the title counts them."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.widgets import StackTree
from test_stack_layout import on_screen, settle, view_lines
from textual.widgets import Static
from textual.widgets.tree import TreeNode

SIZES = [(80, 24), (120, 40), (200, 60)]
CASES = [("lab-ssd", "luks"), ("lab-ssd", "ext4"), ("lab-ssd", "thin_ignore"), ("long-names", "elastic"),
         ("long-names", "pg_wal")]


def _path(node: TreeNode) -> list[TreeNode]:
    """The node and the rows it rests on, its top-level row first."""
    path = [node]
    while path[0].parent is not None and path[0].parent.parent is not None:
        path.insert(0, path[0].parent)
    return path


def _has_match_under(node: TreeNode) -> bool:
    return any(child.data.marks or _has_match_under(child) for child in node.children)


def _stray_rows(tree: StackTree) -> list[str]:
    """Rows that neither match, nor lead to a match, nor rest on one: kept for nothing."""
    stray = []
    for line in range(tree.last_line + 1):
        node = tree.get_node_at_line(line)
        if not (any(row.data.marks for row in _path(node)) or _has_match_under(node)):
            stray.append(node.data.name)
    return stray


async def filtered(pilot, text: str) -> StackTree:  # type: ignore[no-untyped-def]
    """The Stack's tree once `/` TEXT Enter has filtered it."""
    await settle(pilot)
    await pilot.press("slash", *text, "enter")
    await settle(pilot)
    return pilot.app.screen.query_one(StackTree)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40", "200x60"])
@pytest.mark.parametrize(("fixture", "text"), CASES)
async def test_a_filter_opens_on_its_first_match_under_its_parents(fixture: str, text: str,
                                                                   size: tuple[int, int]) -> None:
    app = DiskDoctorApp(fixture_root(fixture))
    async with app.run_test(size=size) as pilot:
        tree = await filtered(pilot, text)
        await pilot.pause(0.1)
        assert not _stray_rows(tree), _stray_rows(tree)
        node = tree.cursor_node
        assert node.data.marks, node.data.name  # the cursor on a match
        assert node.line == tree.marked_lines()[0]
        shown = {line for line, _ in on_screen(tree)}
        missing = [row.data.name for row in _path(node) if row.line not in shown]
        assert not missing, (missing, view_lines(tree))  # no orphan: the match's parents are on screen
        title = str(app.screen.query_one("#stack-title", Static).content)
        assert " match · " in title or " matches · " in title, title  # matches apart from rows kept


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40", "200x60"])
@pytest.mark.parametrize(("fixture", "text"), CASES)
async def test_g_and_n_land_on_matches_with_their_parents_in_view(fixture: str, text: str,
                                                                   size: tuple[int, int]) -> None:
    app = DiskDoctorApp(fixture_root(fixture))
    async with app.run_test(size=size) as pilot:
        tree = await filtered(pilot, text)
        marked = tree.marked_lines()
        assert marked
        await pilot.press("G")
        await settle(pilot)
        assert tree.cursor_line == marked[-1], (tree.cursor_node.data.name, view_lines(tree))
        assert tree.cursor_node.parent.line in {line for line, _ in on_screen(tree)} or \
            tree.cursor_node.parent is tree.root
        await pilot.press("g")
        await settle(pilot)
        assert tree.cursor_line == marked[0]
        visited = []
        for _ in marked:
            await pilot.press("n")
            await settle(pilot)
            visited.append(tree.cursor_line)
            assert tree.cursor_line in {line for line, _ in on_screen(tree)}
        assert visited == [*marked[1:], marked[0]], (visited, marked)  # round to the first, as less does
        await pilot.press("N")
        await settle(pilot)
        assert tree.cursor_line == marked[-1]
        await pilot.press("escape")  # without a filter, g and G are the first and the last row again
        await settle(pilot)
        await pilot.press("G")
        await settle(pilot)
        assert tree.cursor_line == tree.last_line


async def test_at_80_luks_shows_its_matches_from_the_disk_and_keeps_no_sibling() -> None:
    """newuser15 as seen: `/luks` at 80x24 opened on `├── ▼ vg0-luks2on` with sda and sda3 off screen."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", "l", "u", "k", "s", "enter")
        await settle(pilot)
        await pilot.pause(0.1)
        tree = app.screen.query_one(StackTree)
        names = [line.lstrip("│├└─▼ ").split(" ", 1)[0] for line in view_lines(tree)]
        assert names == ["sda", "sda3", "vg0-luks2on", "luks2on", "vg0-luks2off", "luks2off", "vg0-luks1",
                         "luks1"], view_lines(tree)
        title = str(app.screen.query_one("#stack-title", Static).content)
        assert title.endswith("· 6 matches · 8 of 37 devices"), title


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40", "200x60"])
async def test_from_the_mountpoints_down_a_filter_keeps_the_matching_branch(size: tuple[int, int]) -> None:
    """From the mountpoints down, `/sdb` keeps each mountpoint's path down to sdb, not its path to sda."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("v", "slash", "s", "d", "b", "enter")
        await settle(pilot)
        tree = app.screen.query_one(StackTree)
        names = [tree.get_node_at_line(line).data.name for line in range(tree.last_line + 1)]
        assert "sdb" in names and "sda" not in names and "sda3" not in names, names
        assert not _stray_rows(tree), _stray_rows(tree)
        assert tree.cursor_node.data.marks


@pytest.mark.parametrize("fixture", ["lab-ssd", "long-names"])
async def test_mountpoints_down_says_the_layer_type_under_type_not_the_filesystem_again(fixture: str) -> None:
    """newuser15: from the mountpoints down, `/lab/luks1  ext4 … ext4`: TYPE repeated FSTYPE. TYPE is the
    layer's type, as lsblk and the disks-up view say it (`crypt` under /lab/luks1), FSTYPE the filesystem."""
    from diskdoctor.probes.host import read_host

    host = read_host(fixture_root(fixture))
    app = DiskDoctorApp(fixture_root(fixture))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("v")
        await settle(pilot)
        tree = app.screen.query_one(StackTree)
        tops = [node.data for node in tree.root.children]
        assert tops
        for row in tops:
            mounted = host.mount_for_path(row.name)
            assert row.kind == host.devices[mounted.kname].kind, (row.name, row.kind)
            assert row.fstype and row.kind != row.fstype, (row.name, row.kind, row.fstype)
        lines = view_lines(tree)
        assert lines[0].split()[2] in {"crypt", "lvm", "part", "raid0", "raid1", "dm", "disk"}, lines


async def test_a_filter_matching_nothing_shows_no_device_in_the_details_and_esc_brings_them_back() -> None:
    """`/zzzq` on lab-ssd left no row, yet the details went on showing sda as if it were selected."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        tree = await filtered(pilot, "zzzq")
        assert not tree.root.children
        title = str(app.screen.query_one("#details-title", Static).content)
        assert title == "Details: no device matches 'zzzq' (Esc clears the filter)", title
        await pilot.press("slash", "escape")
        await settle(pilot)
        await pilot.pause(0.2)
        title = str(app.screen.query_one("#details-title", Static).content)
        assert title.startswith("Details: sda"), title
