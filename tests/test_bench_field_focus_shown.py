"""The Benchmark form says which field has the focus, in text too (newuser24 #11: a text capture showed no
mark, so a `5` typed went to the screen keys and switched screens)."""

from __future__ import annotations

from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.bench.screen import BenchScreen
from diskdoctor.probes.root import live_root
from test_bench_screen import open_bench
from textual.widgets import Input, Static

SIZES = [(80, 24), (120, 40)]


def _status(screen: BenchScreen) -> str:
    return str(screen.query_one("#bench-status", Static).render())


async def test_the_status_line_names_the_focused_field() -> None:
    for size in SIZES:
        app = DiskDoctorApp(live_root())
        async with app.run_test(size=size) as pilot:
            screen = await open_bench(app, pilot)
            assert isinstance(screen, BenchScreen)
            assert "editing" not in _status(screen)
            seconds = screen.query_one("#bench-duration", Input)
            seconds.focus()
            await pilot.pause()
            await pilot.pause()
            assert "editing seconds · Esc leaves the field" in _status(screen), (size, _status(screen))
            assert seconds.border_title == "[reverse]seconds[/reverse]"  # the label marked in colour too
            await pilot.press("escape")
            await pilot.pause()
            await pilot.pause()
            assert "editing" not in _status(screen), (size, _status(screen))
            assert seconds.border_title == "seconds"
