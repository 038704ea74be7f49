"""A comparison says first when its runs are not like for like, names the judged metric, and the Runs
screen keeps that comparison in view (a list sized from its rows, PgDn scrolls the comparison)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import fixture_root
from diskdoctor.app.core.runs.compare import compare_runs
from diskdoctor.app.core.runs.store import RunStore
from diskdoctor.app.text.runs import compare_lines
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.runs_screen import RunsScreen
from diskdoctor.probes.wal_target import Target
from support.cli_runner import run_cli
from support.runs_support import STACK, saved_run
from test_runs_screen import FIXTURE, open_runs, text_of, three_runs
from textual.containers import VerticalScroll
from textual.widgets import DataTable

__all__ = ["three_runs"]

TMPFS = STACK.__class__(Target("/dev/shm/x", "/dev/shm", "tmpfs", None, ()), ("rw",), ())


NOT_LIKE = ("NOT COMPARABLE (not like for like): tmpfs (not durable) against ext4 on dm-2; the changes below "
            "are the two setups' difference, not a regression")


def test_a_tmpfs_run_against_an_ext4_run_says_so_before_any_figure() -> None:
    lines = compare_lines(compare_runs(saved_run(20, stack=TMPFS), saved_run(21, slow_ms=1.9)))
    assert lines[0] == NOT_LIKE, lines[:2]
    assert compare_runs(saved_run(20, stack=TMPFS), saved_run(21)).to_json()["not_like_for_like"] == NOT_LIKE


def test_runs_that_are_not_like_for_like_get_no_regression_verdict() -> None:
    """Lead, issue 23: tmpfs 2 ms against ext4 9 ms said REGRESSION +350% and exited 1; the setups differ,
    so the verdict is NOT COMPARABLE, no row says REGRESSION, and the caveats come before the table."""
    comparison = compare_runs(saved_run(20, stack=TMPFS), saved_run(21, slow_ms=9.0, ops_per_s=1000))
    lines = compare_lines(comparison)
    assert not comparison.regressed and comparison.verdict == "NOT COMPARABLE"
    assert comparison.flags() == [NOT_LIKE]
    assert not any("REGRESSION" in line for line in lines), lines
    table = next(index for index, line in enumerate(lines) if line.lstrip().startswith("metric"))
    assert lines[1].startswith("durability DIFFERS: only the baseline's fdatasync skipped") and table == 2
    assert any(re.search(r"p99 fdatasync +2\.00 ms +9\.0\d ms +×4\.5\d$", line) for line in lines), lines
    document = comparison.to_json()
    assert document["verdict"] == "NOT COMPARABLE" and document["regression"] is False
    assert not any(metric["regression"] for metric in document["metrics"])  # type: ignore[union-attr]


def test_runs_compare_of_runs_not_like_for_like_exits_3_not_1(private_state_dir: Path) -> None:
    store = RunStore()
    tmpfs, ext4 = store.save(saved_run(20, stack=TMPFS)), store.save(saved_run(21, slow_ms=9.0))
    compared = run_cli("runs", "compare", tmpfs.id, ext4.id)
    assert compared.code == 3, compared.out + compared.err
    assert compared.out.startswith(NOT_LIKE) and "REGRESSION" not in compared.out, compared.out
    document = json.loads(run_cli("runs", "compare", tmpfs.id, ext4.id, "--json").out)  # schema-checked
    assert document["verdict"] == "NOT COMPARABLE" and not document["regression"]
    like = store.save(saved_run(22, slow_ms=30.0))
    regressed = run_cli("runs", "compare", ext4.id, like.id, "--json")  # ext4 against ext4: judged
    assert regressed.code == 1 and json.loads(regressed.out)["verdict"] == "REGRESSION"


def test_like_for_like_runs_open_with_the_verdict_then_the_table() -> None:
    comparison = compare_runs(saved_run(20), saved_run(21, slow_ms=2.1))
    lines = compare_lines(comparison)
    assert lines[0] == ("p99 fdatasync and ops/s, the judged metrics, changed by less than 20% (on the same "
                        "filesystem)"), lines
    assert lines[1].lstrip().startswith("metric") and comparison.to_json()["not_like_for_like"] is None
    assert comparison.verdict == "NO REGRESSION"


async def test_the_list_is_sized_from_its_rows_and_pgdn_scrolls_the_comparison(
        three_runs: list[str], private_state_dir: Path) -> None:
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(120, 24)) as pilot:
        await open_runs(pilot)
        assert isinstance(app.screen, RunsScreen)
        table = app.screen.query_one(DataTable)
        assert table.size.height <= 3 + 3, table.size  # 3 runs, a header, no blank rows below them
        await pilot.press("space", "down", "space")
        await pilot.pause()
        status = text_of(app, "#runs-status")
        assert "Space picks two" not in status, status
        assert "comparing 0001 with 0002 (c clears)" in status, status
        pane = app.screen.query_one("#runs-detail-pane", VerticalScroll)
        assert pane.max_scroll_y > 0 and pane.scroll_y == 0
        await pilot.press("pagedown")
        await pilot.pause()
        assert pane.scroll_y > 0 and table.cursor_row == 1  # the comparison scrolled, not the list
