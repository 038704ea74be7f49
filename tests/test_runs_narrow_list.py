"""The Runs list at 80 columns with runs of every kind and a damaged one (runs7's note): it fits, no row
loses its limit for a damaged run's reason, and the column that gave way is said on the status line."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import fixture_root
from diskdoctor.app.core.runs.record import SavedRun
from diskdoctor.app.core.runs.store import RunStore
from diskdoctor.app.text.runs import headline_parts
from diskdoctor.app.tui.app import DiskDoctorApp
from test_runs_render_guard import REASON, two_runs  # noqa: F401 (a fixture)
from test_runs_screen import FIXTURE, open_runs
from test_text_fit import screen_lines
from textual.widgets import DataTable

HIDDEN_SAVED = "+1 hidden: saved (see details)"
SAVED_RUNS = Path(__file__).parent / "fixtures" / "saved-runs"
"""An interference, a WAL, a compaction (judged against a minimum MB/s) and a randwrite run."""


def test_a_compaction_run_with_a_minimum_is_listed_not_damaged() -> None:
    """`bench compaction --threshold` saved a verdict in MB/s; the list's headline read it as a latency
    (`KeyError: 'value_ms'`) and listed the run as DAMAGED."""
    run = RunStore(SAVED_RUNS).find("c6c5")
    assert headline_parts(run)[:2] == [("PASS write 219 MB/s", 0), ("≥ 1 MB/s", 1)]


async def test_every_kind_and_a_damaged_run_fit_80_columns(two_runs: tuple[SavedRun, SavedRun]) -> None:  # noqa: F811
    folder = RunStore().directory
    for run_file in SAVED_RUNS.glob("*.json"):
        shutil.copy(run_file, folder / run_file.name)
    _, broken = two_runs
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_runs(pilot)
        table = app.screen.query_one(DataTable)
        lines = screen_lines(app)
        screen = "\n".join(lines)
        assert table.max_scroll_x == 0, screen  # no sideways scrolling
        damaged = next(line for line in lines if "DAMAGED (" in line)
        assert damaged.rstrip().endswith("…") and REASON not in damaged, screen  # cut: the details say it
        assert any("≥ 20 ms" in line for line in lines) and any("≥ 10 ms" in line for line in lines), screen
        assert any("PASS write 219 MB/s ≥ 1 MB/s" in line for line in lines), screen
        header = next(line for line in lines if " id " in line and "result" in line)
        assert "saved" not in header and HIDDEN_SAVED in screen, screen
        table.move_cursor(row=[run.id for run in app.screen.runs].index(broken.id))
        await pilot.pause()
        assert REASON in "\n".join(screen_lines(app)), "the details give the damaged run's reason whole"


async def test_the_saved_column_stays_where_it_fits(private_state_dir: Path) -> None:
    """Runs of one kind at 80 keep their save time (and say nothing hidden)."""
    folder = RunStore().directory
    folder.mkdir(parents=True, exist_ok=True)
    for run_file in SAVED_RUNS.glob("*wal*.json"):
        shutil.copy(run_file, folder / run_file.name)
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_runs(pilot)
        screen = "\n".join(screen_lines(app))
        assert "saved (UTC)" in screen and "hidden" not in screen, screen
