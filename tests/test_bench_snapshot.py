"""Layout snapshot of the Benchmark screen's result with a fixed run (review SVG diffs on change)."""

from __future__ import annotations

from bench_fixed_run import TARGET, feed_fixed_run, fixture_mounts
from diskdoctor.app.tui import DiskDoctorApp
from diskdoctor.probes.root import live_root
from textual.widgets import Input

__all__ = ["fixture_mounts"]
SIZE = (160, 48)


def test_bench_result_screen(snap_compare, fixture_mounts: None) -> None:  # type: ignore[no-untyped-def]
    async def show_fixed_result(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.press("3")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        screen = pilot.app.screen
        screen.query_one("#bench-dir", Input).value = TARGET.directory
        feed_fixed_run(screen)
        await pilot.pause()
        screen.set_focus(None)
        await pilot.pause()

    assert snap_compare(DiskDoctorApp(live_root()), terminal_size=SIZE, run_before=show_fixed_result)
