"""The Benchmark form and figures as a new user saw them in tmux (issue 23): menus as wide as their longest
entry, the filesystem and directory given the room, the directory's label whole and its distinguishing end
shown, the folded form's key hint a phrase, and a number never split from its unit when a verdict wraps."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.root import live_root
from diskdoctor.widgets.figures_text import FiguresText, KeepFigures
from rich.console import Console
from rich.text import Text
from support.bench_fixed_run import feed_fixed_run, long_name_mounts
from test_layout_defects import SIZE_IDS, SIZES, screen_lines
from textual.widgets import Select, Static, Tabs

__all__ = ["long_name_mounts"]
SELECT_EDGES = 8
"""A menu's edges, padding and ▼ besides its entry."""
UNIT_FIRST = re.compile(r"^\s*(ns|µs|ms|s|MiB|B|samples?|writes)\b")
VERDICT = ("FAIL p99 fdatasync from due at 500/s steady 8.73 ms ≥ 10 ms: etcd docs threshold; "
           "10,000 samples; 95% interval 6.50 ms to 12.1 ms (sections) [host busy]")


async def _bench(pilot):  # type: ignore[no-untyped-def]
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.press("3")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    return pilot.app.screen


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_menus_fit_their_entries_and_the_directory_gets_the_room(long_name_mounts: str,
                                                                      size: tuple[int, int]) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await _bench(pilot)
        screen.choose_directory(long_name_mounts)
        for tab in ("wal", "compaction", "randwrite", "interference"):
            screen.query_one("#bench-workloads", Tabs).active = f"workload-{tab}"
            await pilot.pause()
            await pilot.pause()
            lines = screen_lines(app)
            for menu in screen.query("#bench-form Select").results(Select):
                if menu.id == "bench-fs" or not menu.display:
                    continue
                longest = max(len(str(prompt)) for prompt, _ in menu._options)
                assert menu.region.width <= longest + SELECT_EDGES, (tab, menu.id, menu.region)
                label = menu.query_one("#label", Static)
                assert str(menu.value) in lines[label.region.y], (tab, menu.id)  # and the entry is whole
            field = screen.query_one("#bench-dir")
            assert "directory" in lines[field.region.y], (tab, lines[field.region.y])
            shown = lines[field.region.y + 1][field.region.x:field.region.right].strip("▊▎ ")
            head, cut, tail = shown.partition("…")  # both ends, the cut said by an ellipsis in the middle
            whole_ends = bool(cut) and long_name_mounts.startswith(head) and long_name_mounts.endswith(tail)
            least = len("/var/lib/…/mount")
            assert (shown == long_name_mounts or whole_ends) and len(shown) >= least, (tab, shown)
            fs = screen.query_one("#bench-fs")
            profile = screen.query_one("#bench-profile")
            first = [shown for shown in screen.query_one("#bench-form").children
                     if shown.display and shown.region.y == fs.region.y]
            # where and what head the first row, and fill it (the profile menu only on wal, newuser16 #10)
            assert profile in first if tab == "wal" else not profile.display
            assert sum(shown.region.width for shown in first) == size[0] - 2 or size[0] >= 160


async def test_folded_form_says_which_key_edits_the_settings(long_name_mounts: str) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _bench(pilot)
        screen.choose_directory(long_name_mounts)
        feed_fixed_run(screen, long_name_mounts)
        await pilot.pause()
        summary = screen.query_one("#bench-form-summary", Static)
        assert summary.display
        assert screen_lines(app)[summary.region.y].startswith(" e: edit · etcd WAL · ")


@pytest.mark.parametrize("width", range(30, 90))
def test_a_wrapped_verdict_never_splits_a_number_from_its_unit(width: int) -> None:
    console = Console(width=width, file=None, record=True, color_system=None)
    console.print(KeepFigures(Text(VERDICT, style="bold")))
    lines = console.export_text().splitlines()
    assert " ".join(line.strip() for line in lines) == VERDICT  # nothing lost or added
    for before, after in pairwise(lines):
        assert not (re.search(r"\d$", before.rstrip()) and UNIT_FIRST.match(after)), (width, before, after)


async def test_the_verdict_and_figures_panes_keep_figures_whole(long_name_mounts: str) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _bench(pilot)
        for name in ("verdict", "previous", "advice", "fio"):
            assert isinstance(screen.query_one(f"#bench-{name}"), FiguresText), name


@pytest.mark.parametrize("size", SIZES[:2], ids=SIZE_IDS[:2])
async def test_after_a_run_figures_show_with_their_column_headers(long_name_mounts: str,
                                                                  size: tuple[int, int]) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await _bench(pilot)
        screen.choose_directory(long_name_mounts)
        feed_fixed_run(screen, long_name_mounts)
        body, verdict = screen.query_one("#bench-body"), screen.query_one("#bench-verdict")
        for _ in range(50):  # the column settles where the verdict is pinned (a few retries, then headers)
            await pilot.pause(0.1)
            lines = screen_lines(app)[body.region.y:body.region.bottom]
            if body.region.y <= verdict.region.y < body.region.bottom and _headed(lines):
                break
        assert _headed(lines), lines  # figures in view come with the header naming their columns
        assert body.region.y <= verdict.region.y < body.region.bottom  # the verdict stays in view


def _headed(lines: list[str]) -> bool:
    """Whether every percentile row in view has the header naming its columns above it."""
    rows = [index for index, line in enumerate(lines) if re.match(r"^ (p50|p90|p99|p99\.9|max) ", line)]
    # the live table's `… last interval  samples  whole load`, after a run `fdatasync  whole run  samples`
    header = next((index for index, line in enumerate(lines) if "samples" in line and "whole" in line), None)
    return not rows or (header is not None and header < rows[0])


async def test_at_80x24_the_chosen_target_hint_is_whole() -> None:
    """Issue 23 at 80x24: the status line cut `/dev/shm chosen (selected on the stack screen): press s to
    start (or change th…`; the second half is dropped whole when the line is too narrow."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _bench(pilot)
        screen.choose_directory("/dev/shm", "Stack")
        await pilot.pause()
        status = screen.query_one("#bench-status")
        shown = screen_lines(app)[status.region.y].strip()
        assert shown in ("/dev/shm (chosen on Stack): press s to start",
                         "/dev/shm (chosen on Stack): press s to start · or change the settings first"), shown
    async with DiskDoctorApp(live_root()).run_test(size=(120, 40)) as pilot:
        screen = await _bench(pilot)
        screen.choose_directory("/dev/shm", "Stack")
        await pilot.pause()
        shown = screen_lines(pilot.app)[screen.query_one("#bench-status").region.y].strip()
        assert shown.endswith("press s to start · or change the settings first"), shown


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_the_directory_field_keeps_its_width_and_the_menu_says_tmpfs_whole(
        size: tuple[int, int]) -> None:
    """Issue 23 at 80x24 in edit mode: `/dev/shm  (tmpfs in… ▼` beside a directory field with ~18 blank
    columns; `in RAM: not a disk` said oddly what tmpfs is. The directory field keeps its width when it is
    typed in (newuser21 #7)."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await _bench(pilot)
        screen.choose_directory("/dev/shm")
        await pilot.pause()
        await pilot.pause()
        lines = screen_lines(app)
        menu, field = screen.query_one("#bench-fs", Select), screen.query_one("#bench-dir")
        # the menu names the mountpoint first, then the filesystem, as every entry does (newuser17 #3: the
        # menu read `tmpfs: in memory` for every tmpfs)
        assert "/dev/shm  (tmpfs: in memory)" in lines[menu.region.y + 1], lines[menu.region.y + 1]
        shown = lines[field.region.y + 1][field.region.x:field.region.right]
        assert shown.strip("▊▎ ") == "/dev/shm"
        before = field.region.width
        await pilot.press("d")  # typing a path: the field keeps its width (newuser21 #7: fields jumped)
        await pilot.pause()
        await pilot.pause()
        assert field.has_focus and field.region.width == before, (before, field.region)


def test_a_target_with_no_disk_says_what_it_is_in_plain_words() -> None:
    """Issue 23: `/dev/shm/x (tmpfs on no block device)` read oddly to a newcomer."""
    from diskdoctor.app.base.filesystem_words import filesystem_on

    assert filesystem_on("tmpfs", None) == "tmpfs: in memory, no disk under it"
    assert filesystem_on("tmpfs", None, short=True) == "tmpfs: in memory"
    assert filesystem_on("ext4", "dm-2") == "ext4 on dm-2"
    assert filesystem_on("nfs4", None) == "nfs4: no block device under it"
