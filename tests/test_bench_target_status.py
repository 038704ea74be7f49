"""The Benchmark status line names what s would run on and where it came from (newuser8 #1: after typing
/dev/shm/newuser8 it still said `suggested: / (under TRIM's cursor)`), and a run picked on Runs gives its own
directory, not its filesystem (newuser8 #5)."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from diskdoctor.app.core.runs.store import RunStore
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.bench.form import BenchForm
from diskdoctor.app.tui.trim_screen import TrimScreen
from diskdoctor.probes.root import live_root
from support.bench_fixed_run import fixture_mounts
from support.runs_support import STACK, saved_run
from test_tui import settled

__all__ = ["fixture_mounts"]
SIZES = [(80, 24), (120, 40), (200, 60)]


@pytest.fixture
def shm_dir() -> Iterator[str]:
    """A short directory on /dev/shm (whole on the status line at 80 columns), removed afterwards."""
    path = tempfile.mkdtemp(prefix="bs", dir="/dev/shm")
    yield path
    shutil.rmtree(path, ignore_errors=True)


def status(app: DiskDoctorApp) -> str:
    return str(app.screen.query_one("#bench-status").render())


async def visit(app: DiskDoctorApp, pilot, key: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.press(key)
    await settled(app, pilot)
    await pilot.pause(0.2)
    await settled(app, pilot)


async def bench_on_shm(app: DiskDoctorApp, pilot, workload: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The Benchmark screen's lines once /dev/shm is its target and `workload` its tab."""
    await settled(app, pilot)
    await visit(app, pilot, "3")
    app.screen.choose_directory("/dev/shm", "Runs")
    await settled(app, pilot)
    if workload == "compaction":
        await pilot.press("right_square_bracket")
    await settled(app, pilot)
    await pilot.pause(0.3)
    await settled(app, pilot)
    return [strip.text for strip in app.screen._compositor.render_strips()]


@pytest.mark.parametrize("size", SIZES)
async def test_the_status_follows_the_directory_typed(fixture_mounts: None, shm_dir: str,
                                                     size: tuple[int, int]) -> None:
    """TRIM's row (Stack's, before any choice) is suggested; `/` selects it (s would still run there) and
    the first key typed replaces it; what is typed is named as typed (s runs there), and a directory that
    does not exist is said to be one."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        await settled(app, pilot)
        await visit(app, pilot, "2")
        trim = app.screen
        assert isinstance(trim, TrimScreen) and trim.selected
        await visit(app, pilot, "3")
        assert status(app).startswith(f"{trim.selected} (suggested from Stack's cursor): press s to start")
        await pilot.press("d")
        await settled(app, pilot)
        assert status(app).startswith(f"{trim.selected} (suggested from Stack's cursor): press s to start")
        await pilot.press(*shm_dir)
        await settled(app, pilot)
        assert app.screen.query_one(BenchForm).directory == shm_dir
        assert status(app).startswith(f"{shm_dir} (typed): press s to start"), status(app)
        await pilot.press(*"/nope")
        await settled(app, pilot)
        assert status(app).startswith(f"{shm_dir}/nope (typed): no such directory"), status(app)


@pytest.fixture
def runs_in_directories(private_state_dir: Path, shm_dir: str) -> str:
    """A run in `shm_dir` on /dev/shm (older) and a run on / (newest, the row Runs starts on)."""
    store = RunStore()
    in_shm = replace(STACK.target, directory=shm_dir, mountpoint="/dev/shm", fstype="tmpfs", device=None,
                     layers=())
    on_root = replace(STACK.target, directory="/", mountpoint="/")
    store.save(replace(saved_run(20, stack=replace(STACK, target=in_shm)), id="20261120-143000-wal-0001"))
    store.save(replace(saved_run(21, stack=replace(STACK, target=on_root)), id="20261121-143000-wal-0002"))
    return shm_dir


@pytest.mark.parametrize("gone", [False, True])
async def test_a_run_picked_on_runs_gives_its_own_directory(runs_in_directories: str, gone: bool) -> None:
    """Runs → Benchmark fills in the run's own directory (not its filesystem's mountpoint); when that
    directory is gone, its filesystem, and the status says why."""
    if gone:
        shutil.rmtree(runs_in_directories)
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await visit(app, pilot, "3")
        await visit(app, pilot, "5")
        await pilot.press("down")
        await settled(app, pilot)
        await visit(app, pilot, "3")
        directory = app.screen.query_one(BenchForm).directory
        if gone:
            assert directory == "/dev/shm"
            assert status(app).startswith(f"/dev/shm (chosen on Runs; {runs_in_directories} is gone: its "
                                          "filesystem): press s to start"), status(app)
        else:
            assert directory == runs_in_directories
            assert status(app).startswith(f"{runs_in_directories} (chosen on Runs): press s to start"), \
                status(app)


@pytest.mark.parametrize("size", SIZES)
async def test_the_filesystem_menu_is_as_wide_as_the_filesystem_it_shows(fixture_mounts: None,
                                                                        size: tuple[int, int]) -> None:
    """newuser8 #9: the menu took 76 cells for `/  (ext4 on vda)` (its longest entry) while the directory got
    16-22. Shut, it and the directory keep one width per form width, whatever they show (newuser21 #7); open,
    its list is as wide as its longest entry (over the fields beside it, so nothing moves)."""
    from diskdoctor.app.tui.bench.form import SELECT_EDGES
    from textual.widgets import Select
    from textual.widgets._select import SelectOverlay

    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        await settled(app, pilot)
        await visit(app, pilot, "3")
        app.screen.choose_directory("/")
        await settled(app, pilot)
        menu, field = app.screen.query_one("#bench-fs", Select), app.screen.query_one("#bench-dir")
        shown = next(len(str(prompt)) for prompt, value in menu._options if value == "/")
        longest = max(len(str(prompt)) for prompt, _ in menu._options)
        assert longest > shown
        # shut, the menu and the directory have one width per form width, whatever they show (newuser21 #7),
        # never most of the row (newuser8: 76 cells at 120)
        assert menu.region.width < size[0] // 2, (menu.region, longest)
        widths = (menu.region.width, field.region.width)
        longest_value = max(menu._options, key=lambda option: len(str(option[0])))[1]
        app.screen.choose_directory(str(longest_value))
        await settled(app, pilot)
        assert (menu.region.width, field.region.width) == widths, (menu.region, field.region)
        app.screen.choose_directory("/")
        await settled(app, pilot)
        before = menu.region
        menu.expanded = True
        await settled(app, pilot)
        overlay = menu.query_one(SelectOverlay)  # the open list: its longest entry whole, inside the screen
        assert overlay.region.width >= min(longest + SELECT_EDGES, size[0]), (overlay.region, longest)
        assert overlay.region.right <= size[0]
        assert menu.region == before  # opening it re-flows nothing


async def test_a_run_picked_to_compare_gives_its_own_directory_not_typed(runs_in_directories: str) -> None:
    """newuser14 #2: on Runs `c`, `g`, Space, `j`, Space (two runs picked, the cursor on one on another
    filesystem than the form's), then 3, with the host read again meanwhile (as after a run): the form said
    `/ (typed)` or `/dev/shm (typed)` though nothing was typed (s would write under /). A run picked on Runs
    brings its own directory and is said to be chosen there."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await visit(app, pilot, "3")
        app.screen.choose_directory("/", "Runs")  # the form starts on the other run's filesystem
        await settled(app, pilot)
        await visit(app, pilot, "5")
        for key in ("c", "g", "space", "j", "space"):
            await pilot.press(key)
            await settled(app, pilot)
        app.snapshot = replace(app.snapshot, generation=app.snapshot.generation + 1)  # type: ignore[attr-defined]
        await visit(app, pilot, "3")
        assert app.screen.query_one(BenchForm).directory == runs_in_directories, status(app)
        assert status(app).startswith(f"{runs_in_directories} (chosen on Runs): press s to start"), \
            status(app)


@pytest.mark.parametrize("typed", ["/dev/shm/bk", "/dev/shm"])
async def test_at_80_the_filesystem_menu_says_less_rather_than_cut(typed: str) -> None:
    """newuser13: with the directory field focused at 80 the menu showed `/dev/shm  (tmpfs: in memor… ▼`;
    its mountpoint comes first, cut at a `/` (its last folder whole), and its filesystem whole (newuser17 #3:
    `tmpfs: in memory` alone did not say which tmpfs)."""
    from textual.widgets._select import SelectCurrent

    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)
        await visit(app, pilot, "3")
        await pilot.press("d", *typed)
        await settled(app, pilot)
        menu = app.screen.query_one("#bench-fs")
        row = next(line for line in (strip.text for strip in app.screen._compositor.render_strips())
                   if "▼" in line)
        shown = row[menu.region.x:menu.region.right]
        said = "…" not in shown or "…/shm  (tmpfs" in shown
        label = str(menu.query_one(SelectCurrent).render())
        assert said and "shm" in shown and "tmpfs" in shown, (shown, label)


@pytest.mark.parametrize("workload", ["wal", "compaction"])
async def test_at_80x24_the_earlier_runs_heading_shows_with_its_first_row(private_state_dir: Path,
                                                                          workload: str) -> None:
    """newuser13: on the compaction form at 80 `Earlier runs on this filesystem (key 5: all saved runs)` sat
    on the column's last row with its list below the fold; the heading shows with its first row, or not
    at all."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(80, 24)) as pilot:
        lines = await bench_on_shm(app, pilot, workload)
        status_row = app.screen.query_one("#bench-status").region.y
        heads = [row for row, line in enumerate(lines) if "Earlier runs on this filesystem" in line]
        assert heads or workload == "wal", "\n".join(lines)  # the wal's longer text: below the fold, whole
        together = not heads or (heads[0] + 1 < status_row and "none saved yet" in lines[heads[0] + 1])
        assert together, "\n".join(lines)


@pytest.mark.parametrize("workload", ["wal", "compaction"])
async def test_at_80x24_earlier_runs_below_the_fold_are_said(private_state_dir: Path, workload: str) -> None:
    """newuser17 #2: at 80x24 the earlier runs' heading sat at the fold with its rows below, and nothing said
    so; the title of what Start runs says how many of them fit, as every list does ("1 of 4 earlier runs
    fit: PgDn for more"), and says nothing where all show (200x60)."""
    in_shm = replace(STACK.target, directory="/dev/shm", mountpoint="/dev/shm", fstype="tmpfs", device=None,
                     layers=())
    for day in range(20, 24):
        RunStore().save(replace(saved_run(day, stack=replace(STACK, target=in_shm)),
                                id=f"202611{day}-143000-wal-000{day - 19}"))
    for size, said in (((80, 24), True), ((200, 60), False)):
        app = DiskDoctorApp(live_root())
        async with app.run_test(size=size) as pilot:
            lines = await bench_on_shm(app, pilot, workload)
            shown = sum("2026-11-2" in line and "UTC" in line for line in lines)
            notes = [line for line in lines if "earlier runs fit: PgDn for more" in line]
            assert bool(notes) == said, "\n".join(lines)
            assert not said or f"{shown} of 4 earlier runs fit" in notes[0], "\n".join(lines)
            assert said or shown == 4, "\n".join(lines)


async def test_slash_filters_the_earlier_runs_as_on_every_list(private_state_dir: Path) -> None:
    """newuser17 #7: `/` filters the Benchmark screen's list (the earlier runs) as it does every other list;
    Esc brings every run back."""
    in_shm = replace(STACK.target, directory="/dev/shm", mountpoint="/dev/shm", fstype="tmpfs", device=None,
                     layers=())
    for day, slow_ms in ((20, 2.0), (21, 30.0), (22, 2.0)):
        RunStore().save(replace(saved_run(day, slow_ms=slow_ms, stack=replace(STACK, target=in_shm)),
                                id=f"202611{day}-143000-wal-000{day - 19}"))
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await visit(app, pilot, "3")
        app.screen.choose_directory("/dev/shm", "Runs")
        await settled(app, pilot)
        await pilot.pause(0.3)
        plan = app.screen.query_one("#bench-plan")
        assert str(plan.render()).count("UTC  wal") == 3, str(plan.render())
        await pilot.press("slash", *"fail", "enter")
        await settled(app, pilot)
        shown = str(plan.render())
        assert shown.count("UTC  wal") == 1 and "2026-11-21 14:30 UTC  wal          FAIL" in shown, shown
        assert "filter 'fail': 1 of 3 runs · Esc clears" in shown, shown
        await pilot.press("escape")
        await settled(app, pilot)
        assert str(plan.render()).count("UTC  wal") == 3, str(plan.render())
