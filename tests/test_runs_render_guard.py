"""Defence in depth: a run that loads but still fails to render (a bug, not a bad file) is shown as DAMAGED
with the reason, and the list, report, comparison or screen around it carries on."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import FIXTURES, fixture_root
from diskdoctor.app.core.runs.record import SavedRun
from diskdoctor.app.core.runs.store import RunStore
from diskdoctor.probes.engine.workloads.wal import WalResult
from diskdoctor.probes.latency_histogram import LatencyHistogram
from support.report_support import report_written
from support.runs_support import histogram, saved_run
from test_runs_fuzz import cli

SYSROOT = str(FIXTURES / "etcd-raid0-lvm-luks")
CURSED_COUNT = 777
"""The broken run's fdatasync histogram holds this many samples; its percentiles raise."""
REASON = "ZeroDivisionError: a bug met while rendering"


@pytest.fixture
def two_runs(private_state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[SavedRun, SavedRun]:
    """A good WAL run and a broken one (saved on the fixture's host), with percentiles that fail for it."""
    store = RunStore()
    good = store.save(saved_run(20))
    sync = histogram(400_000, 2_000_000, samples=CURSED_COUNT)
    broken = store.save(saved_run(21, result=WalResult(CURSED_COUNT, 0.5, 1554.0, sync,
                                                       histogram(5_000, 20_000), [])))
    percentile = LatencyHistogram.percentile

    def cursed(self: LatencyHistogram, percent: float) -> float | None:
        if self.count == CURSED_COUNT:
            raise ZeroDivisionError("a bug met while rendering")
        return percentile(self, percent)

    monkeypatch.setattr(LatencyHistogram, "percentile", cursed)
    return good, broken


def test_cli_shows_the_broken_run_as_damaged_and_the_rest(two_runs: tuple[SavedRun, SavedRun],
                                                          capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    good, broken = two_runs
    listing = cli(capsys, "runs", "list")
    assert listing.code == 0
    [good_line] = [line for line in listing.out.splitlines() if line.startswith(good.id)]
    [broken_line] = [line for line in listing.out.splitlines() if line.startswith(broken.id)]
    assert "PASS p99 fdatasync" in good_line and f"DAMAGED ({REASON})" in broken_line
    document = json.loads(cli(capsys, "runs", "list", "--json").out)
    assert [run["id"] for run in document["runs"]] == [good.id]
    assert document["skipped"] == [{"file": f"{broken.id}.json", "reason": f"damaged run file ({REASON})"}]

    assert cli(capsys, "runs", "show", good.id).code == 0
    for args in (("runs", "show", broken.id), ("runs", "compare", good.id, broken.id),
                 ("advise", "--sysroot", SYSROOT, "--bench", broken.id)):
        refused = cli(capsys, *args)
        assert refused.code == 2 and refused.out == ""
        [line] = refused.err.splitlines()
        assert "cannot be shown, its run file is damaged" in line and REASON in line, line

    for suffix in ("md", "html", "json"):
        out = tmp_path / f"report.{suffix}"
        written = cli(capsys, "report", "-o", str(out), "--sysroot", SYSROOT, "--run", good.id, "--run",
                      broken.id)
        assert written.code == 0, written.err
        text = out.read_text()
        assert f"run {broken.id} cannot be shown" in text and REASON in text
        assert good.id in text and "p99 fdatasync" in text  # the good run is all there
    report = json.loads((tmp_path / "report.json").read_text())
    assert [run["id"] for run in report["runs"]] == [good.id]
    assert any(broken.id in note and REASON in note for note in report["notes"])
    assert f"Run {broken.id}: damaged, not shown" in (tmp_path / "report.md").read_text()


async def test_runs_screen_and_report_key_show_the_broken_run_as_damaged(
        two_runs: tuple[SavedRun, SavedRun], tmp_path: Path) -> None:
    from diskdoctor.app.tui.app import DiskDoctorApp
    from diskdoctor.app.tui.runs_screen import RunsScreen
    from textual.widgets import DataTable, Input, Static

    good, broken = two_runs
    app = DiskDoctorApp(fixture_root("etcd-raid0-lvm-luks"))
    async with app.run_test(size=(160, 40)) as pilot:
        await pilot.app.workers.wait_for_complete()
        await pilot.press("5")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RunsScreen)
        table = screen.query_one(DataTable)
        assert [run.id for run in screen.runs] == [broken.id, good.id]  # newest first
        shown = str(table.get_cell(broken.id, "result"))  # whole, or cut with an ellipsis at its column
        assert shown == f"DAMAGED ({REASON})" or (shown.endswith("…") and
                                                  f"DAMAGED ({REASON})".startswith(shown[:-1]))
        assert re.match(r"PASS p99 [\d.]+ (µs|ms)", str(table.get_cell(good.id, "result")))
        detail = screen.query_one("#runs-detail", Static)
        assert str(detail.render()).startswith(f"run {broken.id} cannot be shown, its run file is damaged")
        table.move_cursor(row=1)
        await pilot.pause()
        assert str(detail.render()).startswith(f"run       {good.id}")
        await pilot.press("space", "up", "space")
        await pilot.pause()
        assert str(detail.render()).startswith(f"the comparison of runs {good.id} and {broken.id} cannot be "
                                               "shown")
        await pilot.press("w")
        await pilot.pause()
        app.screen.query_one(Input).value = str(tmp_path / "case.md")
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        result = report_written(app)
        assert result.startswith(f"Wrote {tmp_path / 'case.md'}: "), result
    text = (tmp_path / "case.md").read_text()  # the newest run of the filesystem is the broken one
    assert f"### Run {broken.id}: damaged, not shown" in text and f"run {broken.id} cannot be shown" in text
    assert "## Findings" in text and "## Storage stack" in text  # the rest of the report is all there
