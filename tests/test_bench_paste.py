"""A directory pasted into the Benchmark form (keys in one burst, or a terminal's Paste event) is kept whole:
newuser16 #7 sent `/tmp/newuser16-tmpfs` in one go and the field kept `/tmp/newuser1`."""

from __future__ import annotations

import os

import pytest
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.bench.form import BenchForm
from diskdoctor.probes.root import live_root
from support.wal_support import tmpfs_dir
from test_bench_screen import open_bench
from textual import events
from textual.keys import _character_to_key
from textual.widgets import Input, Select

__all__ = ["tmpfs_dir"]


def burst(app: DiskDoctorApp, text: str) -> None:
    """Post every key of `text` at once, as a terminal delivers `tmux send-keys -l` (no pause between)."""
    for char in text:
        app.post_message(events.Key(_character_to_key(char), char))


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)])
@pytest.mark.parametrize("start", ["/", "/proc"])
async def test_keys_in_one_burst_are_all_typed(tmpfs_dir: str, size: tuple[int, int], start: str) -> None:
    target = os.path.join(tmpfs_dir, "sub")
    os.mkdir(target)
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await open_bench(app, pilot)
        field = screen.query_one("#bench-dir", Input)
        screen.query_one(BenchForm).choose(start)
        await pilot.pause()
        await pilot.press("d")
        burst(app, target)
        for _ in range(20):
            await pilot.pause()
        assert field.value == target
        await pilot.press("escape")
        await pilot.pause()
        assert field.value == target


@pytest.mark.parametrize("start", ["/", "/proc"])
async def test_a_paste_event_is_typed_whole(tmpfs_dir: str, start: str) -> None:
    target = os.path.join(tmpfs_dir, "sub")
    os.mkdir(target)
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_bench(app, pilot)
        field = screen.query_one("#bench-dir", Input)
        screen.query_one(BenchForm).choose(start)
        await pilot.pause()
        await pilot.press("d")
        app.post_message(events.Paste(target))
        for _ in range(20):
            await pilot.pause()
        assert field.value == target


async def test_a_late_menu_change_never_fills_a_mountpoint_over_typing(tmpfs_dir: str) -> None:
    """The race behind newuser16 #7: the menu's change message, late among a burst of keys, named a
    filesystem the typed path had already left, and its mountpoint replaced what was typed."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_bench(app, pilot)
        field, menu = screen.query_one("#bench-dir", Input), screen.query_one("#bench-fs", Select)
        await pilot.press("d", *tmpfs_dir)
        with menu.prevent(Select.Changed):
            menu.value = "/"  # the menu as it was a few keys ago
        menu.post_message(Select.Changed(menu, "/"))
        await pilot.pause()
        assert field.value == tmpfs_dir
