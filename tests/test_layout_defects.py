"""Layout defects a new user found in tmux at 80x24, 120x40 and 200x60 (issue 23, second pass), driven with
Pilot: every control whole, every figure labelled, every result reachable, keys that fit."""

from __future__ import annotations

import pytest
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.root import live_root
from textual.widgets import Button, Tabs

SIZES = [(80, 24), (120, 40), (200, 60)]
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def screen_lines(app: DiskDoctorApp) -> list[str]:
    """The screen as a new user reads it in `tmux capture-pane`: one string per row."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


async def open_bench(pilot):  # type: ignore[no-untyped-def]
    await settle(pilot)
    await pilot.press("3")
    await settle(pilot)
    return pilot.app.screen


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_start_shows_whole_for_every_workload(size: tuple[int, int]) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await open_bench(pilot)
        form = screen.query_one("#bench-form")
        for tab in ("wal", "compaction", "randwrite", "interference"):
            screen.query_one("#bench-workloads", Tabs).active = f"workload-{tab}"
            await pilot.pause()
            start = screen.query_one("#bench-start", Button)
            inside = form.content_region
            assert start.region.right <= inside.right and start.region.right <= size[0], (tab, start.region)
            assert start.region.x >= inside.x and start.region.width >= len("Start") + 4, (tab, start.region)
            row = screen_lines(app)[start.region.y + 1][start.region.x:start.region.right]
            assert row.strip("▊▎ ") == "Start" and row.endswith("▎"), (tab, row)  # framed like the fields
