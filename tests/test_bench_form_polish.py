"""The Benchmark form as a user types into it (Pilot): the filesystem menu follows the directory, `/` keeps
a typed path, a missing directory is marked at once, a fixed problem leaves the status line, the profile
menu shows whole names, and the progress line never promises "0 s left" before the end."""

from __future__ import annotations

import os

from diskdoctor.app.bench_view import progress_text
from diskdoctor.app.tui import DiskDoctorApp
from diskdoctor.probes.root import live_root
from test_bench_screen import SIZE, open_bench, text_of
from textual.widgets import Input, Select, Static
from wal_support import tmpfs_dir

__all__ = ["tmpfs_dir"]


async def test_filesystem_menu_follows_the_typed_directory(tmpfs_dir: str) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_bench(app, pilot)
        menu = screen.query_one("#bench-fs", Select)
        holding = app.snapshot.host.mount_for_path(os.path.realpath(tmpfs_dir))  # type: ignore[union-attr]
        assert holding is not None and any(value == holding.mount.mountpoint for _, value in menu._options)
        screen.query_one("#bench-dir", Input).focus()
        await pilot.press(*tmpfs_dir)
        await pilot.pause()
        assert menu.value == holding.mount.mountpoint
        assert screen.query_one("#bench-dir", Input).value == tmpfs_dir  # the typed path is kept


async def test_slash_focuses_the_directory_without_wiping_it() -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_bench(app, pilot)
        field = screen.query_one("#bench-dir", Input)
        await pilot.press("slash")
        assert field.has_focus and field.value == "/"  # empty: starts the path
        await pilot.press(*"tmp", "escape")
        await pilot.press("slash")
        assert field.has_focus and field.value == "/tmp" and field.cursor_position == 4


async def test_missing_directory_is_marked_while_typing_and_a_fixed_problem_leaves_the_status() -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_bench(app, pilot)
        field = screen.query_one("#bench-dir", Input)
        await pilot.press("s")
        assert text_of(app, "#bench-status") == "Type a directory or pick a mounted filesystem first."
        field.focus()
        await pilot.press(*"/no/such/dir")
        await pilot.pause()
        assert field.has_class("-invalid")
        assert "directory: no such directory" in text_of(app, "#bench-form-error")
        assert text_of(app, "#bench-status").startswith("Pick a filesystem or type a directory")
        field.value = "/tmp"
        await pilot.pause()
        assert not field.has_class("-invalid") and not screen.query_one("#bench-form-error").display


async def test_profile_menu_shows_the_longest_name_whole_at_200_columns() -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await open_bench(app, pilot)
        for choice in ("interference", "compaction"):
            screen.query_one("#bench-profile", Select).value = choice
            await pilot.pause()
            label = screen.query_one("#bench-profile").query_one("#label", Static)
            assert label.render_line(0).text.strip() == choice
        sync = screen.query_one("#bench-sync").query_one("#label", Static)
        assert sync.render_line(0).text.strip() == "range+fdatasync"


def test_progress_says_finishing_rather_than_zero_seconds_left() -> None:
    assert str(progress_text(0.84, 1.3, 100, 10.0)).endswith("· finishing")  # 0.25 s at this pace
    assert str(progress_text(0.5, 2.0, 100, 10.0)).endswith("· 2.0 s left")
    assert str(progress_text(0.25, 10.0, 100, 10.0)).endswith("· 30 s left")
    assert str(progress_text(1.0, 2.0, 100, 0.0)).endswith("· finishing")  # the last interval, not the end
    assert str(progress_text(1.0, 2.0, 100, 0.0, finished=True)).endswith("· done")
