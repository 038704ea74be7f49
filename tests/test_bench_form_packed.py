"""The Benchmark form fills row 1 before row 2 (newuser21 #6), and its filesystem menu and directory keep one
width per form width whatever they hold or is typed (newuser21 #7)."""

from __future__ import annotations

import os
import tempfile

import pytest
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.root import live_root
from support.bench_fixed_run import long_name_mounts
from test_bench_form_whole_row import LONG_PATH, _packing
from test_layout_defects import open_bench, screen_lines
from textual.widgets import Input, Select, Tabs

__all__ = ["long_name_mounts"]
WORKLOADS = ("wal", "compaction", "randwrite", "interference")
SIZES = [(120, 40), (200, 60)]


def _row_ends(screen) -> list[tuple[int, int]]:  # type: ignore[no-untyped-def]
    """(where the row's last field ends, how wide the next row's first field is) for each row but the last."""
    fields = [field for field in screen.query_one("#bench-form").children if field.display]
    rows = sorted({field.region.y for field in fields})
    ends = [max(field.region.right for field in fields if field.region.y == y) for y in rows]
    firsts = [min((field for field in fields if field.region.y == y), key=lambda field: field.region.x)
              for y in rows]
    return [(end, first.region.width) for end, first in zip(ends, firsts[1:], strict=False)]


@pytest.mark.parametrize("size", SIZES, ids=["120x40", "200x60"])
async def test_row_one_is_filled_before_row_two(size: tuple[int, int]) -> None:
    """newuser21 #6 at 200x60: row 1 held `filesystem directory profile` and ended at column 83; row 2 held
    the other nine fields (127 cells). No row ends more than 30% short while the next row's first field
    would fit in it, for every workload."""
    width = size[0]
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await open_bench(pilot)
        screen.choose_directory("/tmp")
        await pilot.pause()
        for tab in WORKLOADS:
            screen.query_one("#bench-workloads", Tabs).active = f"workload-{tab}"
            await pilot.pause()
            await pilot.pause()
            for end, first in _row_ends(screen):
                assert end >= 0.7 * width or end + first > width - 2, (tab, end, first, _packing(screen))
        screen.query_one("#bench-workloads", Tabs).active = "workload-wal"
        await pilot.pause()
        await pilot.pause()
        rows = _packing(screen)
        first = ["bench-fs", "bench-dir", "bench-profile", "bench-bs", "bench-size"]
        expected = {120: first, 200: [*first, "bench-duration", "bench-sync", "bench-prealloc"]}[width]
        assert rows[0] == expected, rows
        assert rows[-1][-4:] == ["bench-rates", "bench-arrival", "bench-capacity", "bench-start"], rows


def _widths(screen) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """The filesystem menu's and the directory field's widths on screen."""
    return (screen.query_one("#bench-fs", Select).region.width,
            screen.query_one("#bench-dir", Input).region.width)


def _menu_text(app, screen) -> str:  # type: ignore[no-untyped-def]
    """What the shut filesystem menu shows."""
    menu = screen.query_one("#bench-fs", Select)
    return screen_lines(app)[menu.region.y + 1][menu.region.x:menu.region.right].strip("▊▎ ")


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)], ids=["80x24", "120x40", "200x60"])
async def test_the_menu_and_directory_keep_their_widths_while_typing(size: tuple[int, int]) -> None:
    """newuser21 #7 at 120x40: Ctrl-U shrank the filesystem menu to `pick one ▼` (19 cells) and grew the
    directory to 38; a tmpfs path typed showed `/tmp/x  (tmpfs) ▼` with 6 blanks, and leaving the field
    relabelled it `(tmpfs: in memory)` and resized both again."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await open_bench(pilot)
        screen.choose_directory("/tmp")
        await pilot.pause()
        await pilot.pause()
        before = _widths(screen)
        rows = _packing(screen)
        deeper = tempfile.mkdtemp(prefix="bform13-typed-", dir="/dev/shm")
        try:
            screen.query_one("#bench-dir", Input).focus()
            await pilot.pause()
            assert _widths(screen) == before, "focused"
            await pilot.press("end", "ctrl+u")
            await pilot.pause()
            assert _widths(screen) == before, "emptied"
            await pilot.press(*deeper)
            await pilot.pause()
            await pilot.pause()
            typed = _widths(screen)
            label = _menu_text(app, screen)
            assert "tmpfs" in label, label
            screen.query_one("#bench-workloads").focus()
            await pilot.pause()
            await pilot.pause()
            assert typed == before and _widths(screen) == before, (before, typed, _widths(screen))
            assert _menu_text(app, screen) == label, "one phrase while typing and after"
            for path in ("/", LONG_PATH):
                screen.choose_directory(path)
                await pilot.pause()
                await pilot.pause()
                assert _widths(screen) == before, path
            assert _packing(screen) == rows
        finally:
            os.rmdir(deeper)
