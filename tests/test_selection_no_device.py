"""A filesystem with no block device (a tmpfs run chosen on Runs) as the one selection: Stack, TRIM and
Monitor say they cannot show it, and never show another filesystem as if it were the choice (newuser21
#4: TRIM kept an older ext4, Monitor showed `/`, Stack vda)."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.selection import choose
from test_tui import settled
from textual.widgets import Static

SIZES = [(80, 24), (120, 40), (200, 60)]


def _words(app: DiskDoctorApp, *ids: str) -> str:
    """What the current screen's status line and details heading say."""
    return " | ".join(str(widget.render()) for widget in app.screen.query(", ".join(ids)) if
                      isinstance(widget, Static))


async def _visit(app: DiskDoctorApp, pilot, key: str) -> str:  # type: ignore[no-untyped-def]
    await pilot.press(key)
    await settled(app, pilot)
    await pilot.pause(0.3)  # a Monitor tick fills its rows
    await settled(app, pilot)
    return _words(app, "StatusLine", "#trim-details-title", "#monitor-status")


@pytest.mark.parametrize("size", SIZES)
async def test_a_tmpfs_chosen_on_runs_is_said_on_stack_trim_and_monitor(size: tuple[int, int]) -> None:
    """lab-ssd's /tmp is a tmpfs: after an ext4 row was chosen on TRIM, a run on /tmp chosen on Runs
    makes TRIM, Stack and Monitor say that it has no block device, at every size."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=size) as pilot:
        await settled(app, pilot)
        await _visit(app, pilot, "2")
        await pilot.press("down")  # an older choice with a block device, as newuser21 had
        await _visit(app, pilot, "5")
        choose(app, None, "/tmp", "runs", "/tmp/diskdoctor-run")  # what Runs does for a run's target
        trim = await _visit(app, pilot, "2")
        assert "/tmp (tmpfs" in trim and "has no block device" in trim
        assert "Details: " not in trim  # no other filesystem's heading as if it were the choice
        stack = await _visit(app, pilot, "1")
        assert "/tmp (tmpfs" in stack and "has no block device" in stack
        monitor = await _visit(app, pilot, "6")
        assert "/tmp (tmpfs" in monitor and "has no block device" in monitor
        if size[0] >= 120:
            assert "/tmp (tmpfs, chosen on Runs) has no block device: nothing to trim" in trim
            assert "/tmp (tmpfs, chosen on Runs) has no block device: nothing to watch" in monitor
        if size[0] >= 200:  # room for the whole statement beside Stack's verdict
            assert "/tmp (tmpfs, chosen on Runs) has no block device: not in this tree" in stack


async def test_a_choice_with_a_device_afterwards_clears_the_words() -> None:
    """Moving TRIM's cursor chooses a filesystem with a device: no screen speaks of the tmpfs again."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        choose(app, None, "/tmp", "runs", "/tmp/diskdoctor-run")
        assert "has no block device" in await _visit(app, pilot, "2")
        await pilot.press("down")
        await settled(app, pilot)
        assert "has no block device" not in _words(app, "StatusLine", "#trim-details-title")
        for key in "162":
            assert "has no block device" not in await _visit(app, pilot, key)


async def test_a_resize_keeps_trims_words() -> None:
    """TRIM's table is filled again on a resize (its cursor put back): the heading still says the chosen
    tmpfs has no block device (at 80x24 live it named the cursor's row again)."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await _visit(app, pilot, "2")
        await pilot.press("down")  # TRIM's own choice first: its cursor is not where it opened
        await _visit(app, pilot, "6")
        choose(app, None, "/tmp", "runs", "/tmp/diskdoctor-run")
        assert "/tmp (tmpfs, chosen on Runs) has no block device" in await _visit(app, pilot, "2")
        await pilot.resize_terminal(80, 24)
        await settled(app, pilot)
        await pilot.pause(0.3)
        await settled(app, pilot)
        assert "/tmp (tmpfs" in _words(app, "#trim-details-title")
        await pilot.resize_terminal(200, 60)
        await settled(app, pilot)
        await pilot.pause(0.3)
        await settled(app, pilot)
        assert "/tmp (tmpfs, chosen on Runs) has no block device" in _words(app, "#trim-details-title")
