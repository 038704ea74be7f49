"""The Benchmark form takes one row only where every field shows its value whole (newuser18 #2): at 200
columns a long mountpoint gives two rows, the menu and the directory whole, not one row cutting both."""

from __future__ import annotations

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
async def test_a_long_directory_takes_two_whole_rows_not_one_cut(long_name_mounts: str,
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
        assert _shown(lines, field) == LONG_PATH
        assert _shown(lines, menu).startswith(LONG_PATH + "  ("), _shown(lines, menu)
        assert len(_rows(screen)) == 2


async def test_a_short_directory_still_takes_one_row_at_200(long_name_mounts: str) -> None:
    """Where every field is whole in one row, the form is one row."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await open_bench(pilot)
        screen.choose_directory("/")
        await pilot.pause()
        await pilot.pause()
        lines = screen_lines(app)
        assert _shown(lines, screen.query_one("#bench-dir", Input)) == "/"
        assert "…" not in _shown(lines, screen.query_one("#bench-fs", Select))
        assert len(_rows(screen)) == 1
