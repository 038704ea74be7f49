"""The Benchmark form as newuser9 read it (issue 23): fields as wide as what they show and rows joined while
they fit, a capture that says why nothing runs instead of showing a usable-looking form, and a footer that
offers what works while a run goes."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.bench.screen import NO_LIVE_HOST
from diskdoctor.probes.root import live_root
from diskdoctor.widgets.fitted_footer import FittedFooter
from test_bench_screen import until
from test_layout_defects import SIZE_IDS, SIZES, screen_lines
from textual.widgets import Button, Input, Select

TMPFS_LABEL = "/dev/shm  (tmpfs: in memory)"
SHORT_LABEL = "/dev/shm  (tmpfs)"
"""The menu at 200 columns: the mountpoint first, always (newuser17 #3)."""
"""The menu with a directory under /dev/shm beside it, its row too narrow for both whole (newuser12 #4)."""


@pytest.fixture
def shm_dirs() -> Iterator[list[str]]:
    """Directories on /dev/shm with paths of 18 (newuser9's /dev/shm/newuser9: 17), 30 and 60 characters."""
    if not os.path.isdir("/dev/shm"):
        pytest.skip("no tmpfs at /dev/shm")
    parent = tempfile.mkdtemp(prefix="b", dir="/dev/shm")  # /dev/shm/bxxxxxxxx: 18 characters
    made = [parent]
    for length in (30, 60):
        made.append(os.path.join(parent, "d" * (length - len(parent) - 1)))
        os.mkdir(made[-1])
    try:
        yield made
    finally:
        shutil.rmtree(parent)


async def _bench(pilot):  # type: ignore[no-untyped-def]
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.press("3")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    return pilot.app.screen


def _shown(lines: list[str], widget) -> str:  # type: ignore[no-untyped-def]
    """What a field shows on its middle row, without its edges."""
    row = lines[widget.region.y + 1][widget.region.x:widget.region.right]
    return row.strip("▊▎ ").removesuffix("▼").strip()


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_no_field_is_cut_while_another_has_room(shm_dirs: list[str], size: tuple[int, int]) -> None:
    """newuser9 at 80x24: `/dev/shm  (tmpfs: in memo… ▼` beside a directory field with spare cells and a
    profile menu 20 cells wide for `etcd`; at 200x60 the form took two rows with a 78-cell directory."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await _bench(pilot)
        for directory in shm_dirs:
            screen.choose_directory(directory)
            await pilot.pause()
            await pilot.pause()
            lines = screen_lines(app)
            menu, field = screen.query_one("#bench-fs", Select), screen.query_one("#bench-dir", Input)
            label, path = _shown(lines, menu), _shown(lines, field)
            # room for both: both whole (a longer path gives way so the form keeps its rows, newuser12 #4)
            if len(directory) <= 18:  # (bform8: bs, size and seconds now say their units, 10 cells more)
                assert label in (TMPFS_LABEL, SHORT_LABEL) and path == directory, (directory, label, path)
            if label not in (TMPFS_LABEL, SHORT_LABEL):  # cut only where the directory beside it is cut too
                assert "…" in label and "…" in path, (directory, label, path)
            for other in screen.query("#bench-form Select").results(Select):
                if other.display and other.id != "bench-fs":  # a menu as wide as its entry, not its longest
                    assert _shown(lines, other) == str(other.value), other.id
                    assert other.region.width <= max(len(str(other.value)) + 8, 15), (other.id, other.region)
        screen.choose_directory(shm_dirs[0])
        await pilot.pause()
        await pilot.pause()
        rows = {widget.region.y for widget in screen.query_one("#bench-form").children if widget.display}
        if size[0] >= 200:  # two rows whatever the path (newuser19 #7: a short one made one row)
            assert len(rows) == 2 and _shown(screen_lines(app), field) == shm_dirs[0], rows
            width = field.region.width
            screen.choose_directory("/dev/shm")
            await pilot.pause()
            await pilot.pause()
            rows = {widget.region.y for widget in screen.query_one("#bench-form").children if widget.display}
            assert len(rows) == 2, rows
            assert field.region.width == width < 78, field.region  # newuser21 #7: one width for any path


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_a_capture_says_why_nothing_runs_and_shows_no_form(size: tuple[int, int]) -> None:
    """newuser9 on lab-ssd: `pick one`, `/path/to/test`, `What Start runs` and a Start button looked usable;
    the only hint was a status line cut before its advice."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=size) as pilot:
        screen = await _bench(pilot)
        text = "\n".join(screen_lines(app))
        for usable in ("pick one", "/path/to/test", "What Start runs", "Start ", "threshold"):
            assert usable not in text, usable
        assert not screen.query_one("#bench-start", Button).region.area  # no Start button drawn
        lines = [line.strip() for line in screen_lines(app)]
        assert "Benchmarks need the live host" in lines
        assert "What you can do instead" in lines
        # every sentence whole, inside the screen: run on the host itself; the saved runs on Runs
        assert "diskdoctor bench wal --dir DIR" in " ".join(lines)
        assert "•  Runs (key 5) lists the runs saved on this machine." in lines
        status = screen.query_one("#bench-status")
        assert screen_lines(app)[status.region.y].strip() == NO_LIVE_HOST


async def test_the_footer_offers_start_only_while_nothing_runs() -> None:
    """newuser9: the footer offered `s Start` while a run went (`s Start esc Cancel / Dir …`)."""
    if not os.path.isdir("/dev/shm"):
        pytest.skip("no tmpfs at /dev/shm")
    directory = tempfile.mkdtemp(prefix="bf-run-", dir="/dev/shm")
    try:
        app = DiskDoctorApp(live_root())
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await _bench(pilot)
            footer = screen.query_one(FittedFooter)

            def keys() -> str:
                return " ".join(screen_lines(app)[footer.region.y:footer.region.bottom])

            screen.choose_directory(directory)
            screen.query_one("#bench-duration", Input).value = "30"
            await pilot.pause()
            assert "s Start" in keys()
            await pilot.press("s")
            await until(pilot, lambda: "Running" in str(screen.query_one("#bench-status").render()))
            await pilot.pause()
            while_running = keys()
            assert "esc Cancel" in while_running, while_running
            for idle in ("s Start", "d Dir", "[ ]"):
                assert idle not in while_running, (idle, while_running)
            assert screen.query_one("#bench-start", Button).disabled
            await pilot.press("escape")
            await until(pilot, lambda: not screen.busy, timeout=20)
            await pilot.pause()
            assert "s Start" in keys() and "esc Cancel" not in keys(), keys()
            assert not screen.query_one("#bench-start", Button).disabled
        assert os.listdir(directory) == []  # the cancelled run left nothing
    finally:
        shutil.rmtree(directory, ignore_errors=True)
