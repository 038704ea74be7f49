"""The Benchmark form with a long directory (newuser12 #4): two rows at 200 columns and 120, three at 80
whatever the path's length (the directory gives way, cut at a `/`; at 200 it is whole, newuser18 #2)."""

from __future__ import annotations

import pytest
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.root import live_root
from diskdoctor.widgets.fit_text import path_ellipsis
from support.bench_fixed_run import long_name_mounts
from test_layout_defects import open_bench, screen_lines

__all__ = ["long_name_mounts"]
LOOP_PATH = "/tmp/pytest-of-root/pytest-1701/loops0/mnt-ext4-discard"


def test_a_path_is_cut_at_a_slash_keeping_its_last_folder_whole() -> None:
    assert path_ellipsis(LOOP_PATH, 43) == "/tmp/pytest-of-root/…oops0/mnt-ext4-discard"  # the room used
    assert path_ellipsis(LOOP_PATH, 41) == "/tmp/pytest-of-root/…/mnt-ext4-discard"  # not `/tmp/…t/…`
    assert path_ellipsis(LOOP_PATH, 30) == "/tmp/…/loops0/mnt-ext4-discard"
    assert path_ellipsis(LOOP_PATH, 60) == LOOP_PATH


@pytest.mark.parametrize(("size", "rows"), [((80, 24), 3), ((120, 40), 2), ((200, 60), 2)])
async def test_a_long_mountpoint_costs_no_row_and_shows_once(long_name_mounts: str, size: tuple[int, int],
                                                             rows: int) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await open_bench(pilot)
        screen.choose_directory(long_name_mounts)
        await pilot.pause()
        await pilot.pause()
        shown = [field for field in screen.query_one("#bench-form").children if field.display]
        assert len({field.region.y for field in shown}) == rows, [(f.id, f.region) for f in shown]
        assert all(field.region.right <= size[0] for field in shown)
        directory = screen.query_one("#bench-dir")
        line = screen_lines(app)[directory.region.y + 1]
        fs = screen.query_one("#bench-fs")  # the mountpoint first, cut to its last folder, then the fs
        shown = line[fs.region.x:fs.region.right]  # the room left shows the end of the middle (paths16)
        assert "/mount  (xfs on dm-1)" in shown and shown.count("…") == 1, line
        field = line[directory.region.x:directory.region.right].strip("▊▎ ")
        head, cut, tail = field.partition("…")
        assert cut and long_name_mounts.startswith(head) and long_name_mounts.endswith(tail), field
        assert tail.endswith("/mount") and len(field) >= len("/var/lib/…/mount"), field
