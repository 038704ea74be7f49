"""One selection across screens (issue 23): only a row the user chose is the selection; a cursor left
where a screen put it by default never narrows another screen (newuser4's Advice filtered to `/` because
Monitor's first row counted)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from conftest import fixture_root
from diskdoctor.app.core.runs.store import RunStore
from diskdoctor.app.tui.advice_screen import AdviceScreen
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.bench.screen import BenchScreen
from diskdoctor.app.tui.selection import chosen
from diskdoctor.app.tui.stack_screen import StackScreen
from diskdoctor.app.tui.trim_screen import TrimScreen
from diskdoctor.probes.root import live_root
from diskdoctor.widgets import StackTree
from support.bench_fixed_run import (
    PARAMS,
    TARGET,
    feed_fixed_run,
    fixed_result,
    fixed_snapshots,
    fixture_mounts,
)
from support.runs_support import STACK, saved_run
from test_tui import settled

__all__ = ["fixture_mounts"]

SIZES = [(80, 24), (120, 40), (200, 60)]


async def _advice(app: DiskDoctorApp, pilot) -> AdviceScreen:  # type: ignore[no-untyped-def]
    await pilot.press("4")
    await settled(app, pilot)
    screen = app.screen
    assert isinstance(screen, AdviceScreen)
    return screen


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("key", ["1", "2", "5", "6"])
async def test_a_screen_only_visited_never_narrows_advice(key: str, size: tuple[int, int]) -> None:
    """Visiting Stack, TRIM, Runs or Monitor without moving the cursor leaves Advice showing every row."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=size) as pilot:
        await settled(app, pilot)
        await pilot.press(key)
        await settled(app, pilot)
        await pilot.pause(0.3)  # a Monitor tick fills its rows
        await settled(app, pilot)
        await pilot.press("1" if key != "1" else "2")
        await settled(app, pilot)
        assert chosen(app) is None
        screen = await _advice(app, pilot)
        assert screen.subject is None
        assert len(screen.rows) == len(screen.all_rows)
        assert "only " not in str(screen.query_one("#status").render())


async def test_every_screen_visited_in_turn_leaves_advice_whole() -> None:
    """newuser4's path: 1, 2, 3, 6, 3, 5, 4 without choosing anything: Advice is not filtered."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        for key in "123635":
            await pilot.press(key)
            await settled(app, pilot)
            await pilot.pause(0.2)
        screen = await _advice(app, pilot)
        assert screen.subject is None


@pytest.mark.parametrize("key", ["1", "2", "6"])
async def test_a_row_the_user_moved_to_narrows_advice(key: str) -> None:
    """Moving the cursor is choosing: Advice arrives narrowed to that row's filesystem or device."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press(key)
        await settled(app, pilot)
        await pilot.pause(0.3)
        await settled(app, pilot)
        await pilot.press("down", "down")
        await settled(app, pilot)
        screen = await _advice(app, pilot)
        selection = chosen(app)
        assert selection is not None and selection.by in ("stack", "trim", "monitor")
        subjects = {s for row in screen.all_rows for s in row.subjects}
        if selection.subject in subjects or selection.kname in subjects:
            assert screen.subject in (selection.mountpoint, selection.kname)


@pytest.fixture
def runs_on_two_filesystems(private_state_dir: Path) -> list[str]:
    """A slow run on /var/lib/etcd (older) and a run on / (newest), on the etcd-raid0-lvm-luks host."""
    store = RunStore()
    root_target = replace(STACK.target, directory="/", mountpoint="/", device="nvme0n1p2",
                          layers=("nvme0n1p2",))
    older = replace(saved_run(20, slow_ms=30.0), id="20261120-143000-wal-0001")
    newest = replace(saved_run(21, stack=replace(STACK, target=root_target)), id="20261121-143000-wal-0002")
    for run in (older, newest):
        store.save(run)
    return [newest.id, older.id]


async def test_runs_default_row_chooses_nothing_and_a_row_moved_to_narrows_advice(
        runs_on_two_filesystems: list[str]) -> None:
    """The newest run under the cursor by default is nobody's choice; the run the user moves to makes its
    filesystem the selection, and Advice arrives narrowed to it (its benchmark finding shown)."""
    app = DiskDoctorApp(fixture_root("etcd-raid0-lvm-luks"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("5")
        await settled(app, pilot)
        await pilot.press("1")
        await settled(app, pilot)
        assert chosen(app) is None
        await pilot.press("5")
        await settled(app, pilot)
        await pilot.press("down")
        await settled(app, pilot)
        screen = await _advice(app, pilot)
        selection = chosen(app)
        assert selection is not None and (selection.mountpoint, selection.by) == ("/var/lib/etcd", "runs")
        assert screen.subject == "/var/lib/etcd"
        assert "only /var/lib/etcd (a: all)" in str(screen.query_one("#status").render())
        assert any(row.finding.id == "ETCD-FSYNC-P99" for row in screen.rows)  # the slow run's verdict


async def test_a_run_picked_where_the_filter_put_the_cursor_is_chosen(
        runs_on_two_filesystems: list[str]) -> None:
    """newuser23: `/` filtered the list to the older run (the cursor put on it by the filter) and Space picked
    it, but leaving chose nothing: a pick is a choice, like a move."""
    app = DiskDoctorApp(fixture_root("etcd-raid0-lvm-luks"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("5")
        await settled(app, pilot)
        await pilot.press("slash", *"0001", "enter")
        await settled(app, pilot)
        await pilot.press("space")
        await settled(app, pilot)
        await pilot.press("2")
        await settled(app, pilot)
        selection = chosen(app)
        assert selection is not None and (selection.mountpoint, selection.by) == ("/var/lib/etcd", "runs")


async def test_a_run_just_started_is_what_advice_narrows_to(fixture_mounts: None) -> None:
    """newuser4's path: a benchmark on a filesystem, then Monitor, Benchmark and Runs only looked at:
    Advice arrives narrowed to the benchmarked filesystem, not to Monitor's first row."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("3")
        await settled(app, pilot)
        bench = app.screen
        assert isinstance(bench, BenchScreen)
        feed_fixed_run(bench, "/var/lib/etcd")
        await settled(app, pilot)
        for key in "635":
            await pilot.press(key)
            await settled(app, pilot)
            await pilot.pause(0.2)
        selection = chosen(app)
        assert selection is not None and (selection.mountpoint, selection.by) == ("/var/lib/etcd", "bench")
        screen = await _advice(app, pilot)
        subjects = {s for row in screen.all_rows for s in row.subjects}
        assert "/var/lib/etcd" in subjects
        assert screen.subject == "/var/lib/etcd"


async def test_a_directory_typed_on_the_chosen_filesystem_stays(tmp_path: Path) -> None:
    """newuser6: a run picked on Runs (its filesystem becomes the selection) replaced the directory typed
    on the Benchmark screen with that filesystem's mountpoint, so `s` would have written elsewhere."""
    from diskdoctor.app.tui.bench.form import BenchForm
    from diskdoctor.app.tui.selection import choose

    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("3")
        await settled(app, pilot)
        form = app.screen.query_one(BenchForm)
        form.query_one("#bench-dir").value = str(tmp_path)  # as typed
        await settled(app, pilot)
        mountpoint = form.mountpoint_of(str(tmp_path))
        assert mountpoint is not None
        await pilot.press("5")
        await settled(app, pilot)
        choose(app, None, mountpoint, "runs")  # a run on that filesystem moved to on Runs
        await pilot.press("3")
        await settled(app, pilot)
        assert form.directory == str(tmp_path)


async def test_a_run_finishing_moves_stack_and_advice_back_to_its_target(fixture_mounts: None) -> None:
    """newuser9 at 200x60: after a run on /var/tmp/newuser9 Monitor showed `/ (ext4) on vda` while Stack
    still said `Details: zram0 · disk`. A row chosen on Stack while the run goes gives way when it
    finishes: Stack's cursor, TRIM's row and Advice follow the run's filesystem and device."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(200, 60)) as pilot:
        await settled(app, pilot)
        await pilot.press("3")
        await settled(app, pilot)
        bench = app.screen
        assert isinstance(bench, BenchScreen)
        bench.post_message(BenchScreen.RunStarted(TARGET, PARAMS))
        await settled(app, pilot)
        assert chosen(app) is not None and chosen(app).mountpoint == TARGET.mountpoint  # type: ignore[union-attr]
        await pilot.press("1")
        await settled(app, pilot)
        await pilot.pause(0.2)
        stack = app.screen
        assert isinstance(stack, StackScreen) and stack.view is not None
        tree = stack.query_one(StackTree)
        mounted = stack.host.mount_for_path(TARGET.mountpoint)  # type: ignore[union-attr]
        device = mounted.kname if mounted else None
        assert device and stack.view.kname_of(tree.cursor_key()) == device  # type: ignore[arg-type]
        details = str(stack.query_one("#details-title").render())  # "Details: luks-etcd · crypt"
        await pilot.press("g")  # the user looks at another device while the run goes
        await settled(app, pilot)
        assert stack.view.kname_of(tree.cursor_key()) != device  # type: ignore[arg-type]
        await pilot.press("3")
        await settled(app, pilot)
        assert chosen(app).by == "stack"  # type: ignore[union-attr]
        for snapshot in fixed_snapshots():
            bench.post_message(BenchScreen.IntervalReady(snapshot))
        bench.post_message(BenchScreen.RunEnded(fixed_result()))
        await settled(app, pilot)
        selection = chosen(app)
        assert selection is not None and selection.by == "bench"
        assert selection.mountpoint == TARGET.mountpoint
        await pilot.press("1")
        await settled(app, pilot)
        await pilot.pause(0.2)
        assert stack.view.kname_of(tree.cursor_key()) == device  # type: ignore[arg-type]
        assert str(stack.query_one("#details-title").render()) == details
        await pilot.press("2")
        await settled(app, pilot)
        trim = app.screen
        assert isinstance(trim, TrimScreen) and trim.selected == TARGET.mountpoint
        screen = await _advice(app, pilot)
        assert screen.subject == TARGET.mountpoint


async def _filter_stack(app: DiskDoctorApp, pilot, text: str) -> StackTree:  # type: ignore[no-untyped-def]
    await pilot.press("slash", *text, "enter")
    await settled(app, pilot)
    await pilot.pause(0.1)
    return app.screen.query_one(StackTree)


async def test_a_lower_layer_chosen_on_stack_selects_its_filesystem_on_trim_and_advice() -> None:
    """newuser11 #1: `/ slow` Enter lands on vg0-slow (under /lab/slow only): TRIM then shows /lab/slow
    (not the previous pick) and Advice arrives narrowed to it."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        tree = await _filter_stack(app, pilot, "slow")
        key = tree.cursor_key()
        assert key is not None and tree.cursor_node is not None and tree.cursor_node.data.name == "vg0-slow"
        assert app.screen.view.mountpoint_of(key) is None  # a lower layer, not the filesystem's own row
        await pilot.press("2")
        await settled(app, pilot)
        assert isinstance(app.screen, TrimScreen) and app.screen.selected == "/lab/slow"
        screen = await _advice(app, pilot)
        assert screen.subject == "/lab/slow"
        assert screen.rows and all("/lab/slow" in row.subjects for row in screen.rows)


async def test_a_layer_under_several_filesystems_selects_the_first_and_narrows_advice_to_them() -> None:
    """A device under several filesystems (the disk): TRIM shows the first of them in its own order, and
    Advice keeps the findings about any of them or the device."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        tree = await _filter_stack(app, pilot, "sda3")
        stack = app.screen
        assert isinstance(stack, StackScreen)
        kname = stack.view.kname_of(tree.cursor_key())
        above = stack.filesystems_above(kname)
        assert len(above) > 1
        await pilot.press("2")
        await settled(app, pilot)
        trim = app.screen
        assert isinstance(trim, TrimScreen) and trim.selected == above[0]
        assert list(trim.verdicts).index(above[0]) < min(list(trim.verdicts).index(m) for m in above[1:])
        screen = await _advice(app, pilot)
        assert screen.subject == kname
        assert screen.rows and all(set(row.subjects) & {kname, *above} for row in screen.rows)
        assert f"only {kname} (a: all)" in str(screen.query_one("#status").render())
