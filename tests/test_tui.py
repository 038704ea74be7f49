"""The stack screen driven with Textual's Pilot, on fixture sysroots."""

from __future__ import annotations

from contextlib import asynccontextmanager

from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.root import Root
from diskdoctor.widgets import LayerTable, StackTree
from textual.widgets import Static

SIZE = (150, 40)


async def settled(app: DiskDoctorApp, pilot) -> None:  # type: ignore[no-untyped-def]
    await app.workers.wait_for_complete()
    await pilot.pause()


@asynccontextmanager
async def running(root: Root, size: tuple[int, int] = SIZE):  # type: ignore[no-untyped-def]
    """The app on `root`, started and settled: yields (app, pilot)."""
    app = DiskDoctorApp(root)
    async with app.run_test(size=size) as pilot:
        await settled(app, pilot)
        yield app, pilot


def visible_names(app: DiskDoctorApp) -> list[str]:
    tree = app.screen.query_one(StackTree)
    names = []
    for line in range(tree.last_line + 1):
        node = tree.get_node_at_line(line)
        if node is not None and node.data is not None:
            names.append(node.data.name)
    return names


def text_of(app: DiskDoctorApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def test_tree_shows_stack_and_details_follow_cursor() -> None:
    async with running(fixture_root("etcd-raid0-lvm-luks")) as (app, pilot):
        names = visible_names(app)
        assert names[:5] == ["nvme0n1", "nvme0n1p1", "md0", "vg0-etcd", "luks-etcd"]
        assert "Details: nvme0n1 · disk" in text_of(app, "#details-title")
        for _ in range(4):
            await pilot.press("down")
        await pilot.pause()
        assert "Details: luks-etcd · crypt" in text_of(app, "#details-title")
        assert "BLOCKED at luks-etcd" in text_of(app, "#status")
        table = app.screen.query_one(LayerTable)
        labels = [str(table.get_row_at(i)[0]) for i in range(table.row_count)]
        assert "crypt type" in labels and "discard_max_bytes" in labels


async def test_switch_to_mountpoints_down() -> None:
    async with running(fixture_root("etcd-raid0-lvm-luks")) as (app, pilot):
        await pilot.press("v")
        await pilot.pause()
        names = visible_names(app)
        assert names[:4] == ["/var/lib/etcd", "luks-etcd", "vg0-etcd", "md0"]  # BLOCKED first, as on TRIM
        assert "/" in names[4:]
        assert "from the mountpoints down" in text_of(app, "#stack-title")
        await pilot.press("v")
        await pilot.pause()
        assert visible_names(app)[0] == "nvme0n1"


async def test_sources_toggle_shows_where_values_come_from() -> None:
    async with running(fixture_root("sata-ext4")) as (app, pilot):
        table = app.screen.query_one(LayerTable)
        assert [c.label.plain for c in table.columns.values()][-1] == "value / note"
        await pilot.press("s")
        await pilot.pause()
        assert [c.label.plain for c in table.columns.values()][-1] == "value / source"
        cells = {str(table.get_row_at(i)[0]): str(table.get_row_at(i)[1])
                 for i in range(table.row_count)}
        assert cells["scheduler (active)"] == "mq-deadline\nfrom /sys/block/sda/queue/scheduler"
        assert cells["serial"] == "S3Z9NB0K123456A\nfrom /run/udev/data/b8:0 (ID_SERIAL_SHORT)"


async def test_children_load_only_when_expanded(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from diskdoctor.probes.root import Root
    from support.sysfs_builder import SysrootBuilder

    builder = SysrootBuilder(tmp_path)
    for index in range(80):
        builder.sata(f"sd{index}", f"8:{index * 16}", 1 << 30, port=index + 1, model="x")
        builder.partition(f"sd{index}", 1, f"8:{index * 16 + 1}", 2048, 1 << 29)
    async with running(Root(str(builder.finish()), live=False)) as (app, pilot):
        tree = app.screen.query_one(StackTree)
        first = tree.root.children[0]
        assert not first.is_expanded and len(first.children) == 0
        await pilot.press("right")
        await pilot.pause()
        assert [child.data.name for child in first.children] == ["sd0p1"]


async def test_ctrl_c_quits_with_interrupt_code() -> None:
    async with running(fixture_root("multipath")) as (app, pilot):
        await pilot.press("ctrl+c")
        await pilot.pause()
    assert app.return_code == 130


async def test_refresh_keeps_the_highlighted_row() -> None:
    async with running(fixture_root("etcd-raid0-lvm-luks")) as (app, pilot):
        await pilot.press("down", "down", "down")
        await pilot.pause()
        assert "Details: vg0-etcd" in text_of(app, "#details-title")
        await pilot.press("r")
        await settled(app, pilot)
        assert app.screen.query_one(StackTree).cursor_node.data.name == "vg0-etcd"


async def test_narrow_terminal_puts_details_under_the_tree() -> None:
    async with running(fixture_root("etcd-raid0-lvm-luks"), size=(80, 30)) as (app, _pilot):
        tree_region = app.screen.query_one("#stack-pane").region
        details_region = app.screen.query_one("#details-pane").region
        assert details_region.y > tree_region.y and details_region.width == 80
        row = visible_names(app)
        assert row[:2] == ["nvme0n1", "nvme0n1p1"]


async def test_long_sources_are_wrapped_not_cut() -> None:
    async with running(fixture_root("loop-image")) as (app, pilot):
        await pilot.press("s")
        await pilot.pause()
        table = app.screen.query_one(LayerTable)
        width = table.columns[table.ordered_columns[1].key].width
        for row in table.ordered_rows:
            cell = table.get_row(row.key)[1]
            lines = app.console.render_lines(cell, app.console.options.update_width(width),
                                             pad=False)
            assert row.height >= len(lines), (str(cell), row.height, len(lines))
