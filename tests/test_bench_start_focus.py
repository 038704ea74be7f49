"""A run started with Start focused (after the size was fitted to the free space, Start has focus) ends
with nothing focused, so the screen's keys work at once (a run ended with `esc Leave field` in the footer:
the directory field had taken the focus of the disabled Start)."""

from __future__ import annotations

from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.bench.screen import BenchScreen
from diskdoctor.probes.root import live_root
from support.wal_support import tmpfs_dir
from test_bench_phases import until
from test_bench_screen import open_bench
from textual.widgets import Input, Select

__all__ = ["tmpfs_dir"]


async def test_a_run_started_from_a_focused_start_leaves_no_field_focused(tmpfs_dir: str) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_bench(app, pilot)
        screen.query_one("#bench-profile", Select).value = "compaction"
        await pilot.pause()
        screen.query_one("#bench-dir", Input).value = tmpfs_dir
        await pilot.pause()
        screen.set_focus(None)
        screen.post_message(BenchScreen.RunEnded(None, problem="not enough free space", fit_size="4m",
                                                 fit_note="size now 4m"))
        await pilot.pause()
        assert app.focused is screen.query_one("#bench-start")  # s or Enter runs the fitted size
        await pilot.press("s")
        await until(pilot, lambda: screen.result is not None, timeout=30)
        await pilot.pause(0.3)
        assert app.focused is None, app.focused
