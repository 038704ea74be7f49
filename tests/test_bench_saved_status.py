"""A finished run's status line keeps that it was saved, and where to find it, at 80 columns (newuser21 #12:
`INCONCLUSIVE p99 944 µs vs 10 ms [not durable]` at 80, `… · saved as run 20261127-005046-wal-97cb (key 5)`
at 120)."""

from __future__ import annotations

import pytest
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.bench.saved_note import saved_forms
from diskdoctor.app.tui.bench.screen import BenchScreen
from diskdoctor.probes.root import live_root
from support.bench_fixed_run import PARAMS, TARGET, fixed_result, fixed_snapshots, fixture_mounts
from test_bench_screen import open_bench, text_of

__all__ = ["fixture_mounts"]
RUN_ID = "20261127-005046-wal-97cb"


def test_the_saved_note_shortens_to_the_short_id() -> None:
    assert saved_forms(f"saved as run {RUN_ID}") == (
        f"saved as run {RUN_ID} (key 5)", "saved as run 97cb (key 5)", "run 97cb saved (5)")
    assert saved_forms("not saved: disk full") == ("not saved: disk full",)
    assert saved_forms(None) == ("",)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_the_status_line_says_where_the_run_was_saved(fixture_mounts: None,
                                                            size: tuple[int, int]) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await open_bench(app, pilot)
        screen.live.reset(screen.kind, PARAMS)
        screen.post_message(BenchScreen.RunStarted(TARGET, PARAMS))
        for snapshot in fixed_snapshots():
            screen.post_message(BenchScreen.IntervalReady(snapshot))
        screen.post_message(BenchScreen.RunEnded(fixed_result(), saved=f"saved as run {RUN_ID}"))
        await pilot.pause(0.5)
        status = text_of(app, "#bench-status")
        assert status.startswith(("PASS", "FAIL", "INCONCLUSIVE")), status
        assert "97cb" in status and "5)" in status, status
        if size[0] >= 120:
            assert f"saved as run {RUN_ID} (key 5)" in status, status
