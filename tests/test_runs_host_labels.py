"""A saved run's details name two things once each: `host` is the machine, `host load` its load during the
run (newuser22 #10: both rows were labelled `host`), on the Runs screen and in `runs show` alike."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from support.cli_runner import run_cli
from test_tui import settled
from textual.widgets import Static

RUNS = Path(__file__).parent / "fixtures" / "runs-list"
WAL = "20261125-172054-wal-ef4f"


def _saved(state: Path) -> None:
    runs = state / "diskdoctor" / "runs"
    runs.mkdir(parents=True)
    for run in RUNS.glob("*.json"):
        shutil.copy(run, runs / run.name)
        (runs / run.name).chmod(0o600)


def _labels(lines: list[str]) -> list[str]:
    return [line[:9].strip() for line in lines if line[:1].strip()]


def test_runs_show_labels_the_host_and_its_load_apart(private_state_dir: Path) -> None:
    _saved(private_state_dir)
    shown = run_cli("runs", "show", WAL).out.splitlines()
    labels = _labels(shown)
    assert labels.count("host") == 1 and labels.count("host load") == 1, shown
    assert next(line for line in shown if line.startswith("host      ")).startswith("host      vm")
    assert any(line.startswith("host load BUSY during the run") for line in shown)


async def test_runs_details_label_the_host_and_its_load_apart(private_state_dir: Path) -> None:
    _saved(private_state_dir)
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("5")
        await settled(app, pilot)
        table = app.screen.query_one("#runs-table")
        for _ in range(table.row_count):  # the WAL run, wherever the list puts it
            detail = str(app.screen.query_one("#runs-detail", Static).render())
            if WAL in detail:
                break
            await pilot.press("down")
            await settled(app, pilot)
        assert WAL in detail
        labels = _labels(detail.splitlines())
        assert labels.count("host") == 1 and labels.count("host load") == 1, detail


async def test_runs_details_host_load_wraps_under_its_value(private_state_dir: Path) -> None:
    """newuser23 #13b: at 120x40 the wrapped rest of `host load BUSY during the run: …` started at column 3
    (`  again at a quieter moment…`), not under the value column as every other labelled line's."""
    _saved(private_state_dir)
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("5")
        await settled(app, pilot)
        detail = app.screen.query_one("#runs-detail", Static)
        for _ in range(app.screen.query_one("#runs-table").row_count):
            if WAL in str(detail.render()):
                break
            await pilot.press("down")
            await settled(app, pilot)
        drawn = [line.plain for line in detail.render()._renderable.lines(detail.content_region.width)]
        start = next(n for n, line in enumerate(drawn) if line.startswith("host load BUSY"))
        value = len("host load ")
        wrapped = drawn[start + 1]
        assert wrapped[:value].strip() == "" and wrapped[value] != " ", drawn[start:start + 3]
