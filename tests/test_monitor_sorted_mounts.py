"""Sorted (`o`), a row whose mountpoint the device column leaves out is said on the status line (newuser20 #7:
at 120x40 `vda /` but `loop1` alone, nothing said; sorting never costs a figure column, so it cannot always
be shown)."""

from __future__ import annotations

import pytest
from test_monitor_heading import SHORT, _live_app, _mounted_at
from test_monitor_layout import SIZE_IDS, SIZES, screen_lines


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_sorted_a_left_out_mountpoint_is_said(monkeypatch: pytest.MonkeyPatch,
                                                    size: tuple[int, int]) -> None:
    app = _live_app(monkeypatch)
    async with app.run_test(size=size) as pilot:
        await _mounted_at(pilot, SHORT)
        await pilot.press("o")
        await pilot.pause(0.3)
        lines = screen_lines(app)
        cell = next(line for line in lines if line.startswith(" sda2"))
        shown = "ext4mnt" in cell  # whole, or cut at a "/" with its last folder whole
        status = lines[-3]
        assert ("mountpoint" in status and "in the details" in status) != shown, (cell, status)
        if size == (80, 24):  # the narrow screen leaves it out: the case this test is for
            assert not shown, cell
