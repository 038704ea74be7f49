"""newuser11's Benchmark items (issue 23): `t` reads `Threshold` at every width, and Enter in the directory
field moves to Start instead of starting a run with the default size."""

from __future__ import annotations

import pytest
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.root import live_root
from textual.widgets import Button, Input
from textual.widgets._footer import FooterKey

SIZES = [(80, 24), (120, 40), (200, 60)]
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_the_threshold_key_reads_threshold_at_every_width(size: tuple[int, int]) -> None:
    """At 80 and 120 `t Limit` read as the run's own seconds/size limit; it switches the p99 threshold."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        labels = {key.action: key.description for key in app.screen.query(FooterKey)}
        assert labels.get("threshold") == "Threshold", labels


async def test_enter_in_the_directory_field_moves_to_start_without_starting(tmp_path) -> None:  # type: ignore[no-untyped-def]
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        screen = app.screen
        field = screen.query_one("#bench-dir", Input)
        field.value = str(tmp_path)
        field.focus()
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert not screen.busy, screen.query_one("StatusLine").plain
        assert screen.focused is screen.query_one("#bench-start", Button)
        assert "Enter or s starts" in screen.query_one("StatusLine").plain
