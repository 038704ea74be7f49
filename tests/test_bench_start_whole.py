"""At 80x24 every workload's form keeps Start whole on screen (newuser17: `▊ S` on compaction and randwrite,
where the settings row was wider than the form)."""

from __future__ import annotations

import pytest
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.root import live_root
from test_bench_screen import open_bench
from textual.widgets import Button

WORKLOADS = ("wal", "compaction", "randwrite", "interference")


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)], ids=lambda size: f"{size[0]}x{size[1]}")
async def test_start_is_whole_on_every_workloads_form(size: tuple[int, int]) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await open_bench(app, pilot)
        for index, workload in enumerate(WORKLOADS):
            if index:
                await pilot.press("right_square_bracket")
                await pilot.pause()
            start = screen.query_one("#bench-start", Button)
            region = start.region
            assert region.right <= size[0] and region.width >= len("Start") + 4, (workload, region)
            for field in screen.query_one("#bench-form").children:
                if field.display:
                    assert field.region.right <= size[0], (workload, field.id, field.region)
