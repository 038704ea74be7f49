"""Visiting Stack without moving its cursor chooses nothing, whatever rebuilt its tree on the way (an empty
`/` filter opened and closed, a host read again): a selection made on another screen (a tmpfs run chosen on
Runs, or a filesystem with a device) stays the selection (newuser22 #3: TRIM showed the Stack cursor's xfs
instead of the tmpfs run). The tree puts its cursor back on a row only after a refresh; until then
`StackTree.cursor_key` names that row, not the first one where the rebuild left the cursor."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.selection import choose, chosen
from test_tui import settled


@pytest.mark.parametrize("keys", [("slash", "escape"), ("slash", "enter")])
@pytest.mark.parametrize("mountpoint", ["/tmp", "/lab/raid1"])
async def test_an_empty_filter_on_stack_keeps_the_selection(mountpoint: str, keys: tuple[str, ...]) -> None:
    """lab-ssd: /tmp is a tmpfs, /lab/raid1 an md array; chosen on Runs, both stay chosen after `/` and
    Esc (or Enter) on Stack with nothing typed, and on leaving Stack for TRIM."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("5")
        await settled(app, pilot)
        choose(app, None, mountpoint, "runs", f"{mountpoint}/diskdoctor-run")  # what Runs does
        selection = chosen(app)
        await pilot.press("1")
        await settled(app, pilot)
        for key in keys:
            await pilot.press(key)
            await settled(app, pilot)
        await pilot.press("2")
        await settled(app, pilot)
        assert chosen(app) is selection


@pytest.mark.parametrize("mountpoint", ["/tmp", "/lab/raid1"])
async def test_a_new_snapshot_on_arrival_keeps_the_selection(mountpoint: str) -> None:
    """A host read again while Stack was away (live: a loop device came or went) rebuilds the tree on
    arrival; the cursor goes back to its row only after a refresh. Leaving Stack then chose that row, as if
    the user had moved to it (tmux, live: TRIM showed `/ (ext4 on /dev/vda)` for a tmpfs run chosen on
    Runs, and Stack no longer said the tmpfs had no block device)."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("down", "down")  # a row of Stack's own, not the first one
        await settled(app, pilot)
        await pilot.press("5")
        await settled(app, pilot)
        choose(app, None, mountpoint, "runs", f"{mountpoint}/diskdoctor-run")  # what Runs does
        selection = chosen(app)
        app.refresh_snapshot()  # a new Host that Stack draws on arrival
        await settled(app, pilot)
        await pilot.press("1", "slash", "escape", "2")  # no pause: a quick hand, or a slow frame
        await settled(app, pilot)
        assert chosen(app) is selection
