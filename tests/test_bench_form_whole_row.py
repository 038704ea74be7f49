"""The Benchmark form takes one row only where every field shows its value whole (newuser18 #2): at 200
columns a long mountpoint gives two rows, the menu and the directory whole, not one row cutting both."""

from __future__ import annotations

import os
import tempfile

import pytest
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.root import live_root
from support.bench_fixed_run import long_name_mounts
from test_layout_defects import open_bench, screen_lines
from textual.widgets import Input, Select

__all__ = ["long_name_mounts"]
LONG_PATH = "/srv/postgresql/16/main/pg_wal_archive_for_point_in_time_recovery"
"""A mountpoint of the long-names host: 66 characters, whole in two rows at 200 columns."""


def _rows(screen) -> set[int]:  # type: ignore[no-untyped-def]
    """The rows the form's shown fields sit on."""
    return {field.region.y for field in screen.query_one("#bench-form").children if field.display}


def _shown(lines: list[str], widget) -> str:  # type: ignore[no-untyped-def]
    """What a field shows on its middle row, without its edges."""
    row = lines[widget.region.y + 1][widget.region.x:widget.region.right]
    return row.strip("▊▎ ").removesuffix("▼").strip()


@pytest.mark.parametrize("size", [(200, 60)], ids=["200x60"])
async def test_a_long_directory_takes_two_rows_not_one_cut_mid_folder(long_name_mounts: str,
                                                                 size: tuple[int, int]) -> None:
    """newuser18 at 200x60: `▊  …/newuser18-ext4mnt ▼  ▎▊  …/newuser18-ext4mnt  ▎`, all 12 fields on one
    row, the path whole at 80 and 120."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await open_bench(pilot)
        screen.choose_directory(LONG_PATH)
        await pilot.pause()
        await pilot.pause()
        lines = screen_lines(app)
        menu, field = screen.query_one("#bench-fs", Select), screen.query_one("#bench-dir", Input)
        # both at their width for 200 columns (newuser21 #7), cut at a `/` with the last folder whole
        last = "/" + os.path.basename(LONG_PATH)
        assert _shown(lines, field) in (LONG_PATH, "…" + last), _shown(lines, field)
        assert _shown(lines, menu).startswith(("…" + last, LONG_PATH + "  (")), _shown(lines, menu)
        assert len(_rows(screen)) == 2


def _packing(screen) -> list[list[str]]:  # type: ignore[no-untyped-def]
    """The shown fields' ids, row by row."""
    fields = [field for field in screen.query_one("#bench-form").children if field.display]
    return [[str(field.id) for field in fields if field.region.y == y] for y in sorted(_rows(screen))]


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)], ids=["80x24", "120x40", "200x60"])
async def test_the_rows_do_not_change_with_the_path(long_name_mounts: str, size: tuple[int, int]) -> None:
    """newuser19 #7 at 120x40: with an ext4 mount the second row started with `seconds`; after `d
    /tmp/newuser19-tmpfs` the first row lost `size` and the second started with it (the fields jumped under
    the cursor though only the path changed). The rows follow the width, whatever the path; at 200 columns
    a short path no longer makes one row of what a long one makes two."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await open_bench(pilot)
        screen.query_one("#bench-duration", Input).value = "5"  # newuser19's 5 s runs
        packings = []
        # 50 characters: with the menu for `/` it wants more than the first row leaves beside `size` at 120
        deeper = tempfile.mkdtemp(prefix="bform-a-directory-of-fifty-characters", dir="/tmp")
        try:
            for path in ("/", "/tmp", deeper, LONG_PATH):
                screen.choose_directory(path)
                await pilot.pause()
                await pilot.pause()
                packings.append(_packing(screen))
        finally:
            os.rmdir(deeper)
        assert all(packing == packings[0] for packing in packings), packings
        assert len(packings[0]) == {80: 3, 120: 2, 200: 2}[size[0]], packings[0]
