"""Stack's details follow the tree's cursor after every new Host (newuser24 #2: at first launch the details
named `loop0 · loop`, a device gone from the tree the second read drew with vda and zram0)."""

from __future__ import annotations

from dataclasses import replace

from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.stack_screen import StackScreen
from diskdoctor.probes.host import read_host
from diskdoctor.widgets import StackTree
from test_tui import settled
from textual.widgets import Static


async def test_a_host_read_again_without_the_cursors_device_redraws_the_details() -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        stack = app.screen
        assert isinstance(stack, StackScreen) and stack.host is not None
        first = stack.view.kname_of(stack.query_one(StackTree).cursor_key())  # type: ignore[union-attr, arg-type]
        before = str(stack.query_one("#details-title", Static).render())
        other = read_host(fixture_root("multipath"))  # a second read: other devices, the first one gone
        assert first not in other.devices
        snapshot = app.snapshot  # type: ignore[attr-defined]
        stack.show_snapshot(replace(snapshot, generation=snapshot.generation + 1, host=other,
                                    trim_verdicts=()))
        await settled(app, pilot)
        await pilot.pause(0.2)
        await settled(app, pilot)
        tree = stack.query_one(StackTree)
        kname = stack.view.kname_of(tree.cursor_key())  # type: ignore[union-attr, arg-type]
        assert kname in other.devices
        title = str(stack.query_one("#details-title", Static).render())
        assert title != before and tree.cursor_node.data.name in title, (before, title)  # type: ignore[union-attr]
