"""A finished run is shown while the Benchmark form says what it ran (newuser15 #1, #2): `]` to another
workload's tab, another directory (a run picked on Runs) or another setting shows that run's form and what
Start runs, as before any run, not the WAL run's verdict, chart and keys; back on the run's tab with nothing
else changed, the run comes back as it was."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from diskdoctor.app.core.runs.store import default_runs_dir
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.bench.form import BenchForm
from diskdoctor.app.tui.bench.screen import BenchScreen
from diskdoctor.probes.root import live_root
from support.bench_fixed_run import feed_fixed_run, fixture_mounts
from test_bench_screen import open_bench, text_of
from test_footer_and_fold_fit import footer_text, screen_lines
from test_tui import settled
from textual.widgets import Input

__all__ = ["fixture_mounts"]
SIZES = [(80, 24), (120, 40), (200, 60)]
SAVED_RUNS = Path(__file__).parent / "fixtures" / "saved-runs"
RUN_KEYS = ("Chart load", "Run again", "Again")


def shown(screen: BenchScreen, selector: str) -> bool:
    return bool(screen.query_one(selector).display)


def run_on_screen(screen: BenchScreen) -> bool:
    """Whether the finished run's verdict and chart are what the screen shows (not what Start runs)."""
    return shown(screen, "#bench-verdict") and shown(screen, "#bench-left") and \
        not shown(screen, "#bench-plan")


async def finished_run(app: DiskDoctorApp, pilot) -> BenchScreen:  # type: ignore[no-untyped-def]
    screen = await open_bench(app, pilot)
    feed_fixed_run(screen)
    await settled(app, pilot)
    screen.set_focus(None)
    await pilot.pause(0.3)
    assert run_on_screen(screen), screen_lines(app)
    assert text_of(app, "#bench-status").startswith("PASS"), text_of(app, "#bench-status")
    return screen


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
async def test_another_workload_shows_its_form_and_plan_and_back_shows_the_run(
        fixture_mounts: None, size: tuple[int, int]) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await finished_run(app, pilot)
        await pilot.press("right_square_bracket")
        await settled(app, pilot)
        form = screen.query_one(BenchForm)
        assert not run_on_screen(screen) and not form.folded, screen_lines(app)
        assert "compaction" in str(screen.query_one("#bench-profile").value)
        plan = text_of(app, "#bench-plan")
        assert "RocksDB compaction" in plan, plan
        lines = "\n".join(screen_lines(app))
        assert "PASS" not in lines and "(judged" not in lines, lines  # no verdict nor chart title
        footer = footer_text(app)
        assert not any(key in footer for key in RUN_KEYS), footer
        assert "press s" in text_of(app, "#bench-status")  # what Start runs, not the verdict
        await pilot.press("left_square_bracket")  # back to the run's tab, nothing else changed
        await settled(app, pilot)
        assert run_on_screen(screen), screen_lines(app)
        assert text_of(app, "#bench-status").startswith("PASS"), text_of(app, "#bench-status")
        assert "Run again" in footer_text(app) or "Again" in footer_text(app), footer_text(app)


async def test_a_changed_setting_shows_the_plan_and_undoing_it_the_run(fixture_mounts: None) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await finished_run(app, pilot)
        field = screen.query_one("#bench-bs", Input)
        before = field.value
        field.value = "4096"
        await settled(app, pilot)
        assert not run_on_screen(screen), screen_lines(app)
        screen.set_focus(None)
        await pilot.press("t")  # another threshold while the run is set aside: its verdict stays aside
        await settled(app, pilot)
        assert "press s" in text_of(app, "#bench-status") and not run_on_screen(screen), \
            text_of(app, "#bench-status")
        assert "vendor" in str(screen.query_one("#bench-threshold").value)
        field.value = before
        await settled(app, pilot)
        assert run_on_screen(screen), screen_lines(app)
        assert "20 ms" in text_of(app, "#bench-status"), text_of(app, "#bench-status")  # judged anew


async def test_a_run_picked_on_runs_never_sits_over_the_last_runs_results(fixture_mounts: None,
                                                                          private_state_dir: Path) -> None:
    """newuser15 #2: Runs → pick → Benchmark named the picked run's directory above the last run's verdict
    and chart; the screen shows what Start would run there instead, and the picked run stays on Runs."""
    runs = default_runs_dir()
    runs.mkdir(parents=True, exist_ok=True)
    for saved in SAVED_RUNS.glob("*.json"):
        shutil.copy(saved, runs / saved.name)
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        await finished_run(app, pilot)
        await pilot.press("5")
        await settled(app, pilot)
        await pilot.press("down")  # the cursor on a run of another directory (/tmp/rv/mnt)
        await settled(app, pilot)
        screen = await open_bench(app, pilot)
        await settled(app, pilot)
        await pilot.pause(0.2)
        assert screen.query_one(BenchForm).directory == "/tmp/rv/mnt"
        assert not run_on_screen(screen), screen_lines(app)
        lines = "\n".join(screen_lines(app))
        assert "PASS p99 fdatasync" not in lines and "(judged" not in lines, lines  # the last run's verdict
        assert text_of(app, "#bench-status").startswith("/tmp/rv/mnt (chosen on Runs)"), \
            text_of(app, "#bench-status")
