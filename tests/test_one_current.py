"""One current filesystem before any choice (newuser21 #5): Stack is the first screen seen, so the
filesystem under its cursor (its own, else the first a layer above it holds) is the one TRIM opens its
cursor on, Monitor opens on and Benchmark suggests, whatever order the screens are visited in."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.bench.form import BenchForm
from diskdoctor.app.tui.monitor_screen import MonitorScreen
from diskdoctor.app.tui.selection import chosen, looked_at
from diskdoctor.app.tui.trim_screen import TrimScreen
from diskdoctor.probes.root import live_root
from support.bench_fixed_run import fixture_mounts
from test_tui import settled

__all__ = ["fixture_mounts"]
SIZES = [(80, 24), (120, 40), (200, 60)]


async def _visit(app: DiskDoctorApp, pilot, key: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.press(key)
    await settled(app, pilot)
    await pilot.pause(0.3)  # a Monitor tick fills its rows
    await settled(app, pilot)


async def _names(app: DiskDoctorApp, pilot, keys: str) -> dict[str, str | None]:  # type: ignore[no-untyped-def]
    """The filesystem each screen shows as current, visiting them in the order of `keys`."""
    names: dict[str, str | None] = {}
    for key in keys:
        await _visit(app, pilot, key)
        screen = app.screen
        if isinstance(screen, TrimScreen):
            names["TRIM"] = screen.selected
        elif isinstance(screen, MonitorScreen):
            selected = screen._selected_key() or ""
            names["Monitor"] = selected.removeprefix("group|") if selected.startswith("group|") else selected
        elif key == "3":
            names["Benchmark"] = screen.query_one(BenchForm).directory
            names["said"] = str(screen.query_one("#bench-status").render())
    return names


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("keys", ["263", "623", "362"])
async def test_every_screen_opens_on_stacks_filesystem(fixture_mounts: None, size: tuple[int, int],
                                                       keys: str) -> None:
    """A fresh app, nothing chosen: TRIM and Benchmark name the filesystem under Stack's cursor (TRIM's
    worst row was Benchmark's before), and Benchmark says where it came from. (Monitor reads this machine's
    counters beside the fixture's host: the captures' test below holds it to the same.)"""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        await settled(app, pilot)
        stack = looked_at(app)
        assert stack is not None and stack.by == "stack" and stack.mountpoint
        names = await _names(app, pilot, keys)
        assert chosen(app) is None
        assert names["TRIM"] == names["Benchmark"] == stack.mountpoint, names
        assert names["said"].startswith(f"{stack.mountpoint} (suggested from Stack's cursor)"), names["said"]


@pytest.mark.parametrize("capture", ["lab-ssd", "long-names"])
@pytest.mark.parametrize("keys", ["26", "62"])
async def test_a_disks_first_filesystem_is_the_current_one(capture: str, keys: str) -> None:
    """Stack's first row is a disk whose filesystems sit on its partitions or volumes: TRIM and Monitor
    open on the first of them in TRIM's order, not on TRIM's own first row."""
    app = DiskDoctorApp(fixture_root(capture))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        names = await _names(app, pilot, keys)
        stack = looked_at(app)
        assert stack is not None and stack.by == "stack"
        assert names["TRIM"] == names["Monitor"] == stack.mountpoint, names
