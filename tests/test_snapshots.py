"""Layout snapshots of the stack screen on a fixture sysroot (review SVG diffs on change)."""

from __future__ import annotations

from conftest import fixture_root
from diskdoctor.app.tui import DiskDoctorApp

SIZE = (150, 40)


async def _settle(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def test_stack_screen_disks_up(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = DiskDoctorApp(fixture_root("etcd-raid0-lvm-luks"))
    assert snap_compare(app, terminal_size=SIZE, run_before=_settle)


def test_stack_screen_mounts_down_on_crypt_layer(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def switch(pilot) -> None:  # type: ignore[no-untyped-def]
        await _settle(pilot)
        await pilot.press("v", "down", "down")
        await pilot.pause()

    app = DiskDoctorApp(fixture_root("etcd-raid0-lvm-luks"))
    assert snap_compare(app, terminal_size=SIZE, run_before=switch)


def test_trim_screen_on_blocked_etcd_stack(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def open_trim(pilot) -> None:  # type: ignore[no-untyped-def]
        await _settle(pilot)
        await pilot.press("2")
        await _settle(pilot)
        await pilot.press("down")
        await pilot.pause()

    app = DiskDoctorApp(fixture_root("etcd-trim-blocked"))
    assert snap_compare(app, terminal_size=(120, 40), run_before=open_trim)


async def _open_advice(pilot) -> None:  # type: ignore[no-untyped-def]
    await _settle(pilot)
    await pilot.press("4")
    await _settle(pilot)
    await pilot.press("down")
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause(0.2)  # the table measures its rows' widths after the first paint


def test_advice_screen_at_80x24(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = DiskDoctorApp(fixture_root("etcd-raid0-lvm-luks"))
    assert snap_compare(app, terminal_size=(80, 24), run_before=_open_advice)


def test_advice_screen_at_200x60(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    assert snap_compare(app, terminal_size=(200, 60), run_before=_open_advice)
