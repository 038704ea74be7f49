"""The Stack screen's layout as a new user saw it in tmux (issue 23): names that tell devices apart, no
mountpoint repeated in the mountpoints-down view, the TRIM screen's verdict words, paths wrapped at "/"."""

from __future__ import annotations

from itertools import pairwise

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.widgets import LayerTable, StackTree
from diskdoctor.widgets.layer_table import LABEL_WIDTH
from diskdoctor.widgets.stack_tree import EDGE, GUIDE_WIDTH, ColumnWidths
from rich.cells import cell_len
from rich.console import Console
from textual.widgets import DataTable, Static
from textual.widgets.tree import TreeNode

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


def on_screen(tree: StackTree) -> list[tuple[int, TreeNode]]:
    """(line, node) of every row the tree shows on screen."""
    top = round(tree.scroll_y)
    shown = []
    for line in range(top, min(top + tree.scrollable_content_region.height, tree.last_line + 1)):
        node = tree.get_node_at_line(line)
        if node is not None and node.data is not None:
            shown.append((line, node))
    return shown


def room_for_all(tree: StackTree) -> bool:
    """Whether every row shown fits the tree's width with every name, FSTYPE and mountpoint whole."""
    need = ColumnWidths(mounts=0)
    for line in range(tree.last_line + 1):
        node = tree.get_node_at_line(line)
        depth = tree._tree_lines[line]._get_guide_width(tree.guide_depth, tree.show_root) // GUIDE_WIDTH
        need.see(node.data, depth)
    need.kind, need.size, need.trim = tree.widths.kind, tree.widths.size, tree.widths.trim
    return need.natural(0) <= tree.scrollable_content_region.width - EDGE  # a cell before the scrollbar


def cut_on_screen(tree: StackTree) -> list[str]:
    """The names, FSTYPEs and mountpoints of the rows on screen that are drawn cut."""
    cut = []
    for _line, node in on_screen(tree):
        label = tree.render_label(node, tree.rich_style, tree.rich_style).plain
        cut += [whole for whole in (node.data.name, node.data.fstype, node.data.mounts)
                if whole and whole not in label]
    return cut


@pytest.mark.parametrize("keys", [(), ("slash", "m", "d", "enter"), ("v",)],
                         ids=["disks-up", "filter-md", "mounts-down"])
async def test_at_80_nothing_is_cut_where_the_rows_shown_leave_room(keys: tuple[str, ...]) -> None:
    """lab-ssd at 80x24: the columns are sized from every row shown (newuser23 #1: from the rows in view,
    one `k` moved FSTYPE): scrolling through the whole tree, no name, FSTYPE or mountpoint is cut when
    the rows shown fit whole, and the header lines up with the rows at every step."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(*keys)
        await settle(pilot)
        tree = app.screen.query_one(StackTree)
        fstypes = {node.data.fstype for _line, node in on_screen(tree)}
        if keys == ():
            assert {"linux_raid_member", "LVM2_member"} <= fstypes
        elif keys != ("v",):  # the RAID stacks alone (newuser15: no sibling kept for nothing)
            assert "linux_raid_member" in fstypes and "LVM2_member" not in fstypes
        roomy = room_for_all(tree)
        assert roomy == (keys == ("slash", "m", "d", "enter"))  # the RAID stacks alone fit whole
        for _step in range(tree.last_line + 1):
            if roomy:
                assert not cut_on_screen(tree), (round(tree.scroll_y), cut_on_screen(tree))
            header = str(app.screen.query_one("#stack-columns", Static).render())
            line, node = on_screen(tree)[0]
            label = tree.render_label(node, tree.rich_style, tree.rich_style).plain
            guides = tree._tree_lines[line]._get_guide_width(tree.guide_depth, tree.show_root)
            assert header.index("TYPE") == guides + label.index(f" {node.data.kind} ") + 1, (header, label)
            await pilot.press("j")
            await pilot.pause()


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
    async with app.run_test(size=(80, 24)) as pilot:
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
        # one label width per pane width, whatever the row's labels (newuser22 #11)
        assert table.columns["attribute"].width == LABEL_WIDTH  # type: ignore[index]


SIZES = [(80, 24), (120, 40), (200, 60)]
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]
MIN_VALUE_CELLS = 30


def cut_cells(tree: StackTree) -> list[tuple[str, str]]:
    """(row name, the cell's whole text) for every name, FSTYPE or mountpoint drawn with an ellipsis."""
    cut = []
    for line in range(tree.last_line + 1):
        node = tree.get_node_at_line(line)
        if node is None or node.data is None:
            continue
        label = tree.render_label(node, tree.rich_style, tree.rich_style).plain
        row = node.data
        for whole in (row.name, row.fstype, row.mounts):
            if whole and whole not in label:
                assert "…" in label, (whole, label)  # never cut without saying so
                cut.append((row.name, whole))
    return cut


@pytest.mark.parametrize("fixture", [LAB, "long-names"])
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_the_layout_comes_from_what_the_panes_hold(fixture: str, size: tuple[int, int]) -> None:
    """Names, FSTYPE and mountpoints whole where the width allows (an ellipsis only when the columns
    fill the tree's width), a details value column of 30 cells or more, the details under the tree when
    its columns do not fit beside them, and a short tree that leaves the height to the details."""
    app = DiskDoctorApp(fixture_root(fixture))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.pause(0.1)
        screen = app.screen
        tree = screen.query_one(StackTree)
        fitted = tree._fitted
        room = tree.scrollable_content_region.width
        assert fitted is not None
        cut = cut_cells(tree)
        if cut:  # cut only when every cell of the line is taken
            assert fitted.natural(fitted.shown_extra, fitted.skipped) >= room - 1, (room, fitted, cut)
        if size[0] >= 120 and (fixture == LAB or size[0] >= 200):  # at 120 long-names' names give cells to
            assert not [name for name, whole in cut if whole == name], cut  # its mountpoints' last components
            assert fixture != LAB or not cut, cut  # lab-ssd: every FSTYPE and mountpoint whole too
        table = screen.query_one(LayerTable)
        assert table.columns["value"].width >= MIN_VALUE_CELLS  # type: ignore[index]
        pane, details = screen.query_one("#stack-pane").region, screen.query_one("#details-pane").region
        if details.y > pane.y:  # stacked: a short tree takes only its rows
            assert pane.height <= tree.last_line + 1 + 3 or tree.size.height < tree.last_line + 1
            assert details.width == size[0]
        header = str(screen.query_one("#stack-columns", Static).render())
        shown = [h for h in ("ROTA", "SCHED", "DISC-MAX", "DISC-GRAN") if h in header]
        assert len(shown) == len(fitted.shown_indexes())
        if fitted.shown_extra:  # a real value under every extra column shown
            rows = [node.data for node in tree.root.children if node.data is not None]
            for at, index in enumerate(fitted.shown_indexes()):
                assert any(row.extra[index] for row in rows), shown[at]
        if size[0] >= 200:  # only the 131-cell kubelet path is longer than the room left
            assert not [whole for _name, whole in cut if cell_len(whole) < 100], cut
        if size == (200, 60) and fixture == LAB:  # under the tree below 240 columns (newuser17 #9)
            assert shown == ["ROTA", "SCHED", "DISC-MAX", "DISC-GRAN"] and details.y > pane.y


async def test_at_120_the_details_go_under_a_tree_whose_columns_do_not_fit_beside_them() -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        pane, details = screen.query_one("#stack-pane").region, screen.query_one("#details-pane").region
        assert details.y > pane.y and pane.width == details.width == 120
        table = screen.query_one(LayerTable)
        vendor = next(row for row in table.ordered_rows
                      if table.get_row(row.key)[0].plain == "vendor")
        assert vendor.height == 1  # "unknown: only SCSI-family disks report a vendor" on one line


async def test_a_short_tree_leaves_the_height_to_the_details_and_follows_its_rows() -> None:
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        tree = screen.query_one(StackTree)
        rows = tree.last_line + 1
        assert screen.query_one("#stack-pane").region.height == rows + 3
        await pilot.press("home", "left")  # collapse the first disk
        await settle(pilot)
        assert tree.last_line + 1 < rows
        assert screen.query_one("#stack-pane").region.height == tree.last_line + 1 + 3


async def test_details_of_a_layer_with_the_same_rows_go_in_place(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Moving from one loop device to the next puts in only the values that differ: the table is not
    cleared and drawn again (every key rebuilt it and re-rendered every visible cell)."""
    from diskdoctor.probes.root import Root
    from support.sysfs_builder import SysrootBuilder

    builder = SysrootBuilder(tmp_path, hostname="siblings")
    for index in range(3):
        builder.loop(f"loop{index}", f"7:{index}", 1 << 30, f"/images/{index}.img")
    app = DiskDoctorApp(Root(str(builder.finish()), live=False))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = app.screen.query_one(LayerTable)
        rows, count = [row.key for row in table.ordered_rows], table._update_count
        await pilot.press("down")
        await settle(pilot)
        assert app.screen.query_one(StackTree).cursor_node.data.name == "loop1"
        assert [row.key for row in table.ordered_rows] == rows and table._update_count == count
        cells = {table.get_row(row.key)[0].plain: table.get_row(row.key)[1] for row in table.ordered_rows}
        assert str(cells["name"]) == "loop1" and str(cells["path"]) == "/dev/loop1"
        assert "loop1 (loop)" in cells  # a TRIM path layer's name, in the attribute column
        await pilot.press("s")  # the sources replace the caveats: the table is built again
        await settle(pilot)
        assert table._update_count != count and "from " in str(table.get_row(table.ordered_rows[1].key)[1])


def loops_with_long_mountpoints(tmp_path):  # type: ignore[no-untyped-def]
    """Three mounted loop devices: the six columns fit beside the details at 120, ROTA and SCHED do not."""
    from diskdoctor.probes.root import Root
    from support.sysfs_builder import SysrootBuilder

    builder = SysrootBuilder(tmp_path, hostname="wide-mounts")
    for index in range(3):
        builder.loop(f"loop{index}", f"7:{index}", 1 << 30, f"/images/{index}.img")
        builder.mount(f"7:{index}", f"/srv/mountpoints/loop-data-{index}", "ext4", f"/dev/loop{index}")
    return Root(str(builder.finish()), live=False)


async def test_a_wider_screen_never_shows_fewer_tree_columns(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """At 120 the tree went beside the details and dropped ROTA and SCHED that it showed at 80: side by
    side only when the tree keeps them and the details keep a 30-cell value column; otherwise stacked."""
    root = loops_with_long_mountpoints(tmp_path)
    shown = []
    for size in SIZES:
        app = DiskDoctorApp(root)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await pilot.pause(0.1)
            screen = app.screen
            header = str(screen.query_one("#stack-columns", Static).render())
            shown.append([h for h in ("ROTA", "SCHED", "DISC-MAX", "DISC-GRAN") if h in header])
            table = screen.query_one(LayerTable)
            assert table.columns["value"].width >= MIN_VALUE_CELLS  # type: ignore[index]
    assert shown[0][:2] == ["ROTA", "SCHED"], shown
    assert all(set(before[:2]) <= set(after) for before, after in pairwise(shown)), shown


async def test_at_80_one_deep_name_does_not_cut_every_mountpoint() -> None:
    """lab-ssd at 80x24, j×25: NAME was as wide as its one deepest name (4+ blank cells on every row on
    screen) while `/l…/luks2off` and `/lab/t…gnore` were cut; NAME and MOUNTPOINTS now share the room so
    the fewest cells are hidden, and no line runs past the tree's room (the scrollbar's)."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(*["j"] * 25)
        await settle(pilot)
        tree = app.screen.query_one(StackTree)
        room = tree.scrollable_content_region.width
        top = int(tree.scroll_offset.y)
        on_screen = range(top, top + tree.scrollable_content_region.height)
        drawn = {}
        for line in on_screen:
            node = tree.get_node_at_line(line)
            if node is None or node.data is None:
                continue
            label = tree.render_label(node, tree.rich_style, tree.rich_style).plain
            guides = tree._tree_lines[line]._get_guide_width(tree.guide_depth, tree.show_root)
            assert guides + cell_len(label.rstrip()) <= room, label
            if node.data.mounts:
                drawn[node.data.mounts] = label
        assert {"/lab/luks2off", "/lab/thin_ignore", "/lab/luks2on"} <= set(drawn), drawn
        assert all(mounts in label for mounts, label in drawn.items()), drawn
        cut = {(name, whole) for name, whole in cut_cells(tree) if whole == name or whole.startswith("/")}
        assert cut <= {("vg0-pool_nopassdown-tpool", "vg0-pool_nopassdown-tpool"),
                                        ("vg0-pool_passdown-tpool", "vg0-pool_passdown-tpool"),
                                        ("vg0-thin_passdown", "/lab/thin_passdown"),
                                        ("vg0-thin_nopassdown", "/lab/thin_nopassdown")}, cut


async def test_every_extra_column_has_a_value_in_both_directions() -> None:
    """lsblk's extra columns are never blank: md0 has no scheduler (`none`: its queue/scheduler is empty),
    and a mountpoint's row in the mounts-down view shows its device's values, as it shows its size."""
    from diskdoctor.app.tui.stack_view import DISKS_UP, MOUNTS_DOWN, StackView
    from diskdoctor.probes.host import read_host

    host = read_host(fixture_root("etcd-raid0-lvm-luks"))
    for mode in (DISKS_UP, MOUNTS_DOWN):
        view = StackView(host, mode)
        rows = view.children(None)
        while rows:
            row = rows.pop()
            assert len(row.extra) == 4 and all(row.extra), (mode, row.name, row.extra)
            if row.has_children:
                rows.extend(view.children(row.key))


def small_vm(tmp_path):  # type: ignore[no-untyped-def]
    """This project's CI VM as `lsblk -o NAME,SCHED` shows it: loop0 (none), vda (mq-deadline) and zram0,
    whose queue/ has no scheduler file at all on Linux 6.18 (a bio-based device: lsblk leaves SCHED
    blank)."""
    from diskdoctor.probes.root import Root
    from support.sysfs_builder import SysrootBuilder

    builder = SysrootBuilder(tmp_path, hostname="vm")
    builder.loop("loop0", "7:0", 300 << 20, "/root/newuser7.img")
    builder.mount("7:0", "/mnt/newuser7", "ext4", "/dev/loop0")
    builder.whole("vda", "sys/devices/pci0000:00/0000:00:04.0/virtio1/block/vda", "254:0", 256 << 30,
                  queue={"rotational": "1", "scheduler": "none [mq-deadline] kyber bfq",
                         "discard_max_bytes": str(1 << 30)})
    builder.mount("254:0", "/", "ext4", "/dev/vda")
    zram = builder.whole("zram0", "sys/devices/virtual/block/zram0", "251:0", 0)
    (tmp_path / zram / "queue" / "scheduler").unlink()
    return Root(str(builder.finish()), live=False)


async def test_at_120_a_small_host_shows_every_extra_column(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The live VM at 120x40: the tree sat beside the details 61 cells wide with ROTA and SCHED only
    (DISC-MAX and DISC-GRAN needed 200). A tree whose columns fit the width stacked keeps them all:
    the details go under it, or beside it when they keep a 30-cell value column, and a tree beside them
    is no wider than the columns it shows. SCHED says what sysfs says: loop0's `[none]`, and `none` for
    zram0, a bio-based device whose queue/ has no scheduler file on Linux 6.x (newuser9 #14 read `-` as
    unknown)."""
    root = small_vm(tmp_path)
    for size in SIZES[1:]:
        app = DiskDoctorApp(root)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await pilot.pause(0.1)
            screen = app.screen
            header = str(screen.query_one("#stack-columns", Static).render())
            assert header.split()[-4:] == ["ROTA", "SCHED", "DISC-MAX", "DISC-GRAN"], (size, header)
            tree = screen.query_one(StackTree)
            rows = {name: line.split() for name, _cell, line in drawn_rows(tree)}
            assert rows["loop0"][-4:] == ["yes", "none", "2T", "4K"], rows  # "[none] mq-deadline"
            assert rows["vda"][-4:] == ["yes", "mq-deadline", "1G", "4K"], rows
            assert rows["zram0"][-4:] == ["no", "none", "2T", "4K"], rows  # bio-based: no scheduler file
            table = screen.query_one(LayerTable)
            assert table.columns["value"].width >= MIN_VALUE_CELLS  # type: ignore[index]
            pane, details = screen.query_one("#stack-pane").region, screen.query_one("#details-pane").region
            if details.x > pane.x:  # beside: no blank cells right of the last column
                assert pane.width <= tree.base_width(4) + 1, (pane.width, tree.base_width(4))


@pytest.mark.parametrize("fixture,size", [(LAB, (120, 40)), ("long-names", (200, 60)), (LAB, (200, 60))])
async def test_the_status_names_the_extra_columns_left_out(fixture: str, size: tuple[int, int]) -> None:
    """newuser8 #4: at 120x40 on lab-ssd the header ended `MOUNTPOINTS  ROTA SCHED` and DISC-MAX/DISC-GRAN
    were gone without a word (at 200 on long-names all four): the status line names them, as the Monitor
    says `+7 hidden: …`, and says nothing when every column is shown."""
    from diskdoctor.widgets import StatusLine
    from diskdoctor.widgets.stack_tree import EXTRA_HEADINGS

    app = DiskDoctorApp(fixture_root(fixture))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        header = app.screen.query_one("#stack-columns", Static).render()
        shown = [name for name in EXTRA_HEADINGS if name in str(header).split()]
        hidden = [name for name in EXTRA_HEADINGS if name not in shown]
        status = app.screen.query_one(StatusLine).plain
        if hidden:
            assert f"+{len(hidden)} hidden: {', '.join(hidden)}" in status, (header, status)
        else:
            assert "hidden" not in status, status
        if size == (120, 40):
            assert hidden, header  # the case newuser8 saw


async def test_at_200_a_very_long_mountpoint_is_cut_so_the_short_columns_show() -> None:
    """newuser9 #12: at 200x60 on long-names ROTA, SCHED, DISC-MAX and DISC-GRAN were all hidden so that a
    127-cell mountpoint could take the room, and it was still cut. MOUNTPOINTS keeps a third of the line,
    cut in the middle (its last folder whole), and the short columns show; ROTA and SCHED, the same on every
    row (`no`, `none`), give their cells to the mountpoints and are listed hidden (paths16, newuser24 #12)."""
    from diskdoctor.widgets import StatusLine

    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(pilot)
        header = str(app.screen.query_one("#stack-columns", Static).render())
        assert header.split()[-2:] == ["DISC-MAX", "DISC-GRAN"] and "ROTA" not in header, header
        tree = app.screen.query_one(StackTree)
        kubelet = [line for _name, _cell, line in drawn_rows(tree) if "/var/lib/kubelet/" in line]
        assert kubelet, drawn_rows(tree)
        for line in kubelet:
            path = next(word for word in line.split() if word.startswith("/var/"))
            assert "…" in path and path.endswith("/mount") and len(path) >= 200 // 3, path
            assert line.split()[-4:-2] != ["no", "none"], line
        assert "hidden: ROTA, SCHED" in app.screen.query_one(StatusLine).plain


@pytest.mark.parametrize("fixture", [LAB, "long-names"])
async def test_at_80_the_status_says_which_columns_are_hidden(fixture: str) -> None:
    """newuser9 #6: at 80x24 all four extra columns were left out and the status line said only
    `discard passes down to sda · F1 help`, 40 cells short of full: the note is shortened to fit
    (newuser21 #10) instead of dropped; its names stay whole (newuser23 #11), before the verdict's end and
    "F1 help" (the footer says F1 too)."""
    from diskdoctor.widgets import StatusLine

    app = DiskDoctorApp(fixture_root(fixture))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        header = str(app.screen.query_one("#stack-columns", Static).render())
        assert "ROTA" not in header, header
        drawn = str(app.screen.query_one(StatusLine).render())
        assert "+4 hidden: ROTA, SCHED, DISC-MAX, DISC-GRAN" in drawn, drawn


async def test_at_80_a_cut_mountpoint_leaves_a_cell_before_the_scrollbar() -> None:
    """newuser9 #14: at 80x24 on long-names `/var/…/mount▇▇` ran into the scrollbar: every line the tree
    draws keeps its last cell blank."""
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        tree = app.screen.query_one(StackTree)
        width = tree.scrollable_content_region.width
        lines = [tree.render_line(y).text for y in range(tree.scrollable_content_region.height)]
        assert any("/var/" in line for line in lines), lines
        assert all(len(line) < width or line[width - 1] == " " for line in lines), lines


def test_a_bio_based_device_shows_scheduler_none_and_unknown_shows_a_dash(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """newuser9 #14: zram0 showed `-` under SCHED. A bio-based device has no scheduler, which sysfs says with
    an empty queue/scheduler (the loop-image capture's zram0) or, on Linux 6.x, no such file in a queue/
    without mq/ (the live VM's zram0): SCHED says `none`; `-` is left for a value truly unknown."""
    from diskdoctor.app.tui.stack_view import device_extra
    from diskdoctor.probes.host import read_host

    captured = read_host(fixture_root("loop-image")).devices["zram0"]
    assert device_extra(captured)[1] == "none"
    vm = read_host(small_vm(tmp_path)).devices
    assert device_extra(vm["zram0"])[1] == "none"
    assert "no queue/scheduler file" in (vm["zram0"].scheduler.why_unknown or "")
    assert [device_extra(vm[name])[1] for name in ("loop0", "vda")] == ["none", "mq-deadline"]
    old = read_host(fixture_root("old-kernels/rhel5-2.6.18")).devices  # 2.6.18: md and dm had no queue/
    assert [device_extra(old[name])[1] for name in ("md0", "dm-0")] == ["-", "-"]


async def test_a_filter_marks_the_rows_that_match_and_puts_the_cursor_on_the_first() -> None:
    """newuser9 #13: `/ luks` on lab-ssd kept 30 of 37 devices (a whole disk's stack matches), the first
    screenful had no luks row and no row was marked. The rows that match are marked (the text matched
    highlighted), the cursor is on the first of them, and the title and status count the matches apart from
    the rows kept for their stacks."""
    from diskdoctor.widgets import StatusLine
    from diskdoctor.widgets.stack_tree import MATCH_STYLE
    from rich.style import Style

    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(pilot)
        await pilot.press("slash", "l", "u", "k", "s")
        await settle(pilot)
        screen = app.screen
        tree = screen.query_one(StackTree)
        title = str(screen.query_one("#stack-title", Static).content)
        assert title.endswith("· 6 matches · 8 of 37 devices"), title  # 30 before newuser15: whole disks
        status = screen.query_one(StatusLine).plain
        assert "filter 'luks': 6 matches, 8 of 37 devices with their stacks" in status, status
        marked = Style.parse(MATCH_STYLE)
        first = None
        for line in range(tree.last_line + 1):
            node = tree.get_node_at_line(line)
            label = tree.render_label(node, Style(), Style())
            lit = [label.plain[span.start:span.end] for span in label.spans if span.style == MATCH_STYLE
                   or span.style == marked]
            matches = "luks" in f"{node.data.name} {node.data.fstype} {node.data.mounts}".casefold()
            assert bool(lit) == matches, (node.data.name, lit)
            assert all(text.casefold() == "luks" for text in lit), lit
            first = line if matches and first is None else first
        assert first is not None and tree.cursor_line == first, (first, tree.cursor_line)
        assert tree.cursor_node.data.name == "vg0-luks2on"  # its FSTYPE is crypto_LUKS
        assert "Details: vg0-luks2on" in str(screen.query_one("#details-title", Static).content)
        await pilot.press("enter")
        await settle(pilot)
        # still said once the tree has the keys, once: on the filter line (the status line keeps its room)
        assert "filter 'luks': 6 matches" in screen.query_one("#stack-filter").summary
        assert "match" not in screen.query_one(StatusLine).plain
        await pilot.press("slash", "escape")
        await settle(pilot)
        assert "match" not in str(screen.query_one("#stack-title", Static).content)


async def test_at_80_a_filter_shows_its_matches_under_the_first() -> None:
    """newuser9 #13 at 80x24: the cursor on the first match sat on the tree's last line with the other
    matches below the pane; the first match goes near the top and the six `luks` rows are all on screen."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", "l", "u", "k", "s", "enter")
        await settle(pilot)
        tree = app.screen.query_one(StackTree)
        shown = [node.data.name for _line, node in on_screen(tree) if node.data.marks]
        assert shown == ["vg0-luks2on", "luks2on", "vg0-luks2off", "luks2off", "vg0-luks1", "luks1"], shown
        assert tree.cursor_node.data.name == "vg0-luks2on"


async def test_a_long_verdict_is_cut_rather_than_the_hidden_columns_note() -> None:
    """newuser10 #9: at 120x40 on lab-ssd `BLOCKED at thin pool vg0/pool_ignore (discards=ignore): the pool
    drops every discard: fstrim frees nothing in the poo…` pushed `+2 hidden` off the status line: the note
    stays in its short form, the verdict is cut at its end before it."""
    from diskdoctor.widgets import StatusLine

    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        status = app.screen.query_one(StatusLine)
        for _ in range(40):
            if status.plain.startswith("BLOCKED at thin pool vg0/pool_ignore"):
                break
            await pilot.press("down")
            await pilot.pause()
        assert status.plain.startswith("BLOCKED at thin pool vg0/pool_ignore"), status.plain
        drawn = str(status.render())
        assert drawn.startswith("BLOCKED at thin pool vg0/pool_ignore (discards=ignore)"), drawn
        # cut after a whole word (newuser15), the note kept; F1 help where that leaves room
        assert "… · +2 hidden" in drawn and cell_len(drawn) <= status.content_size.width, drawn


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_the_other_direction_opens_on_the_branch_from_its_mountpoint(size: tuple[int, int]) -> None:
    """newuser10 #11: at 80x24 on lab-ssd `v` opened mid-branch, `│   └── ▼ sdb3` on the first row with no
    mountpoint above it: the cursor's device is kept on its topmost row, and its branch shows from the
    mountpoint down."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("v")
        await settle(pilot)
        await pilot.pause(0.2)
        tree = app.screen.query_one(StackTree)
        node = tree.cursor_node
        assert node is not None and str(node.label) == "sda", node
        lines = [tree.render_line(y).text for y in range(tree.scrollable_content_region.height)]
        assert lines[0].startswith("▼ /"), lines
        top = round(tree.scroll_y)
        root = node
        while root.parent is not None and root.parent is not tree.root:
            root = root.parent
        assert top <= root.line < node.line < top + len(lines), (root.line, node.line, top)


async def test_at_80_the_columns_are_fitted_to_the_rows_finally_in_view() -> None:
    """newuser10 #11: at 80x24 on lab-ssd the fit of the 8 rows first in view stayed when the horizontal
    scrollbar went and a 9th, deeper row showed (`vg0-pool_pa…down_tdata` in Pilot, `linux_raid_memb…` in a
    terminal): the columns are those of the rows on screen, names whole first."""
    from diskdoctor.widgets.stack_tree import EDGE

    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.pause(0.2)
        tree = app.screen.query_one(StackTree)
        width = tree.scrollable_content_region.width - EDGE
        assert tree._fitted == tree.widths.in_view(tree._shown_widths(), width)
        cells = [cell for name, cell, _line in drawn_rows(tree) if name == "vg0-pool_passdown_tdata"]
        assert cells == ["vg0-pool_passdown_tdata"], cells  # on screen, whole


def view_lines(tree: StackTree) -> list[str]:
    """The tree's rows as drawn in its pane, top to bottom."""
    return [tree.render_line(y).text.rstrip() for y in range(tree.scrollable_content_region.height)]


def branch_problems(tree: StackTree) -> list[str]:
    """What breaks the rule of a jump (newuser14 #8): the cursor and its rows under it in view (when they
    fit); the top row a title, a row of the cursor's own branch or the top of a branch beside it, never
    the tail of the group before, except at the tree's end, where the view cannot start lower."""
    node = tree.cursor_node
    top, rows = round(tree.scroll_y), tree.scrollable_content_region.height
    path = [node]
    while path[0].parent is not tree.root:
        path.insert(0, path[0].parent)
    end = node
    while end.is_expanded and end.children:
        end = end.children[-1]
    first = tree.get_node_at_line(top)
    problems = []
    at_end = top >= tree.last_line + 1 - rows
    if first.parent is not tree.root and first not in path and first.parent not in path and not at_end:
        problems.append(f"orphan on top: {first.data.name}")
    if not top <= node.line < top + rows:
        problems.append(f"cursor {node.data.name} out of view")
    elif end.line - node.line < rows and end.line >= top + rows:
        problems.append(f"{node.data.name}'s rows cut")
    return problems


@pytest.mark.parametrize("fixture", [LAB, "long-names"])
@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)], ids=["80x24", "120x40", "200x60"])
async def test_the_other_direction_and_a_filter_open_on_a_whole_branch(fixture: str,
                                                                       size: tuple[int, int]) -> None:
    """newuser14 #8: at 80x24 on lab-ssd `v` with vg0-luks2on selected opened on `└── ▼ sda3` / `└── sda`
    (the end of the group before) with the selected branch on the last row, and `/luks` on
    `vg0-thin_ignore` (no match, its parents off screen). Both directions, from rows all down the tree:
    the top row is a title or of the cursor's branch, the cursor's rows under it in view."""
    app = DiskDoctorApp(fixture_root(fixture))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        tree = app.screen.query_one(StackTree)
        seen = []
        for step in range(0, tree.last_line + 1, 5):
            await pilot.press("home", *["down"] * step)
            await settle(pilot)
            for _ in range(2):
                await pilot.press("v")
                await settle(pilot)
                await pilot.pause(0.1)
                seen.append((step, tree.cursor_node.data.name, branch_problems(tree), view_lines(tree)[:3]))
        assert not [entry for entry in seen if entry[2]], [entry for entry in seen if entry[2]]
        if fixture == LAB:
            await pilot.press("home", "slash", "l", "u", "k", "s", "enter")
            await settle(pilot)
            await pilot.pause(0.1)
            lines = view_lines(tree)
            top = round(tree.scroll_y)
            assert tree.cursor_node.data.name == "vg0-luks2on", lines
            assert tree.cursor_line - top < len(lines) // 2 and "vg0-thin_ignore" not in lines[0], lines
            if size == (80, 24):  # the match under its parents (newuser15: no orphan on top)
                assert lines[0].startswith("▼ sda ") and "sda3 " in lines[1], lines
            assert not branch_problems(tree), (branch_problems(tree), lines)


async def test_at_80_the_other_direction_opens_on_the_selected_mountpoint() -> None:
    """newuser14 #8 as seen: at 80x24 on lab-ssd, vg0-luks2on selected, `v` shows `/lab/luks2on` on the
    top row and its branch down to `sda` under it."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        tree = app.screen.query_one(StackTree)
        for _ in range(60):
            if tree.cursor_node.data.name == "vg0-luks2on":
                break
            await pilot.press("down")
            await pilot.pause()
        await pilot.press("v")
        await settle(pilot)
        await pilot.pause(0.1)
        lines = view_lines(tree)
        assert lines[0].startswith("▼ /lab/luks2on "), lines
        names = [line.lstrip("│├└─▼ ").split(" ", 1)[0] for line in lines[:5]]
        assert names == ["/lab/luks2on", "luks2on", "vg0-luks2on", "sda3", "sda"], lines
