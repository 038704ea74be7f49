"""The Benchmark form's rows follow the width and the workload, never a value typed (newuser20 #6)."""

from __future__ import annotations

import pytest
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.root import live_root
from test_bench_form_whole_row import _packing
from test_layout_defects import open_bench
from textual.widgets import Input


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)], ids=["80x24", "120x40", "200x60"])
async def test_typing_a_value_never_moves_a_field_to_another_row(size: tuple[int, int]) -> None:
    """newuser20 #6 at 120x40: row 1 `filesystem directory profile bs size`; after `5` typed in `seconds`
    (and the field left) `size` jumped to row 2."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await open_bench(pilot)
        screen.choose_directory("/tmp")
        await pilot.pause()
        before = _packing(screen)
        for name, typed in (("duration", "5"), ("bs", "4k"), ("rates", "1k")):
            field = screen.query_one(f"#bench-{name}", Input)
            field.focus()
            await pilot.pause()
            field.value = ""
            await pilot.press(*typed)
            screen.query_one("#bench-dir", Input).focus()
            await pilot.pause()
            screen.query_one("#bench-workloads").focus()
            await pilot.pause()
            await pilot.pause()
            assert _packing(screen) == before, (name, typed)
