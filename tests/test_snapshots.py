"""Layout snapshots of every screen at 80x24, 120x40 and 200x60, with long mountpoints and device names.

Review changed SVGs by eye (render them to PNG) before accepting them with --snapshot-update."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.root import live_root
from support.bench_fixed_run import feed_fixed_run, long_name_mounts

__all__ = ["long_name_mounts"]
SIZES = [(80, 24), (120, 40), (200, 60)]


async def _settle(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_stack_screen(snap_compare, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    async def select_crypt_layer(pilot) -> None:  # type: ignore[no-untyped-def]
        await _settle(pilot)
        await pilot.press("down", "down", "down")
        await _settle(pilot)

    app = DiskDoctorApp(fixture_root("long-names"))
    assert snap_compare(app, terminal_size=size, run_before=select_crypt_layer)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_stack_screen_lab(snap_compare, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    """A real kernel's 37-device stack: the details under the tree at 120, lsblk's extra columns at 200."""
    async def select_thin_volume(pilot) -> None:  # type: ignore[no-untyped-def]
        await _settle(pilot)
        await pilot.press(*["down"] * 13)
        await _settle(pilot)

    app = DiskDoctorApp(fixture_root("lab-ssd"))
    assert snap_compare(app, terminal_size=size, run_before=select_thin_volume)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_stack_screen_mounts_down(snap_compare, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    async def switch(pilot) -> None:  # type: ignore[no-untyped-def]
        await _settle(pilot)
        await pilot.press("v")
        await _settle(pilot)
        await pilot.press("home", *["down"] * 11)  # the long LV under the last mountpoint (worst first)
        await _settle(pilot)

    app = DiskDoctorApp(fixture_root("long-names"))
    assert snap_compare(app, terminal_size=size, run_before=switch)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_trim_screen(snap_compare, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    async def open_trim(pilot) -> None:  # type: ignore[no-untyped-def]
        await _settle(pilot)
        await pilot.press("2")
        await _settle(pilot)
        await pilot.press("down", "down")  # the BLOCKED crypt volume with the longest mountpoint
        await _settle(pilot)

    app = DiskDoctorApp(fixture_root("long-names"))
    assert snap_compare(app, terminal_size=size, run_before=open_trim)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_bench_screen_after_a_run(snap_compare, long_name_mounts: None,  # type: ignore[no-untyped-def]
                                  size: tuple[int, int]) -> None:
    async def show_fixed_result(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.press("3")
        await _settle(pilot)
        screen = pilot.app.screen
        screen.choose_directory(long_name_mounts)
        feed_fixed_run(screen, long_name_mounts)
        await pilot.pause()
        screen.set_focus(None)
        await pilot.pause(1.0)  # where the column rests once the verdict is pinned (a few retries)

    assert snap_compare(DiskDoctorApp(live_root()), terminal_size=size, run_before=show_fixed_result)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_bench_screen_before_a_run(snap_compare, long_name_mounts: None,  # type: ignore[no-untyped-def]
                                   size: tuple[int, int]) -> None:
    """Coming from TRIM without choosing: its highlighted filesystem suggested, what Start runs whole, no
    empty chart (newuser7)."""
    async def from_trim(pilot) -> None:  # type: ignore[no-untyped-def]
        await _settle(pilot)
        await pilot.press("2")
        await _settle(pilot)
        await pilot.press("3")
        await _settle(pilot)
        pilot.app.screen.set_focus(None)
        await pilot.pause(0.3)

    assert snap_compare(DiskDoctorApp(live_root()), terminal_size=size, run_before=from_trim)


def test_help_screen_at_80x24(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def open_help(pilot) -> None:  # type: ignore[no-untyped-def]
        await _settle(pilot)
        await pilot.press("f1")
        await pilot.pause()

    app = DiskDoctorApp(fixture_root("long-names"))
    assert snap_compare(app, terminal_size=(80, 24), run_before=open_help)


async def _open_advice(pilot) -> None:  # type: ignore[no-untyped-def]
    await _settle(pilot)
    await pilot.press("4")
    await _settle(pilot)
    for _ in range(200):  # the findings come from a worker: move the cursor only once they are in
        if getattr(pilot.app.screen, "findings", None):
            break
        await pilot.pause(0.05)
    await pilot.press("down")
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    # the table measures its rows' widths when it is next idle, which a loaded machine can delay
    # (the severity, subject and finding id columns are each wider than their labels once measured)
    table = pilot.app.screen.query_one("#advice-table")
    for _ in range(200):
        measured = table.ordered_columns[:3]
        if measured and all(column.content_width > len(str(column.label)) for column in measured):
            break
        await pilot.pause(0.05)
    table._clear_caches()  # lines drawn before the widths were measured stay cached (Textual 8.2)
    table.refresh()
    await pilot.pause(0.1)
    await pilot.pause()


def test_advice_screen_at_80x24(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = DiskDoctorApp(fixture_root("etcd-raid0-lvm-luks"))
    assert snap_compare(app, terminal_size=(80, 24), run_before=_open_advice)


def test_advice_screen_at_120x40(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = DiskDoctorApp(fixture_root("long-names"))
    assert snap_compare(app, terminal_size=(120, 40), run_before=_open_advice)


def test_advice_screen_at_200x60(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    assert snap_compare(app, terminal_size=(200, 60), run_before=_open_advice)
