"""Advice puts the card beside the list or under it by the terminal's size alone (newuser23 #9: at 200x60
lab-ssd and long-names went beside, the live host with its long WAL titles under, its Subjects squeezed to
35 columns): under below BESIDE_FROM columns, beside from there, on every host, columns fitted inside."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.core.findings.finding import Finding
from diskdoctor.app.tui.advice_rows import named_elsewhere, title_cut
from diskdoctor.app.tui.advice_screen import BESIDE_FROM, AdviceScreen
from diskdoctor.app.tui.app import DiskDoctorApp
from test_advice_fit import NEWUSER8, _advice, _cells, _listed
from textual.widgets import DataTable

HOSTS = ["lab-ssd", "long-names", "live-like", "short-titles"]
SIZES = [(120, 40), (200, 60), (BESIDE_FROM, 60)]


async def _screen(app: DiskDoctorApp, pilot, host: str) -> AdviceScreen:  # type: ignore[no-untyped-def]
    if host == "live-like":  # the live host's long WAL titles (newuser8), shown over a capture
        return await _listed(app, pilot, [Finding(*f) for f in NEWUSER8])
    if host == "short-titles":  # the same host without its benchmark's findings: short titles only
        return await _listed(app, pilot, [Finding(*f) for f in NEWUSER8 if f[2] != "/dev/shm"])
    return await _advice(app, pilot)


@pytest.mark.parametrize("host", HOSTS)
@pytest.mark.parametrize("size", SIZES, ids=["120x40", "200x60", "240x60"])
async def test_beside_or_under_goes_by_size_alone(size: tuple[int, int], host: str) -> None:
    app = DiskDoctorApp(fixture_root("long-names" if host == "long-names" else "lab-ssd"))
    async with app.run_test(size=size) as pilot:
        screen = await _screen(app, pilot, host)
        table = screen.query_one("#advice-table", DataTable)
        details = screen.query_one("#advice-details")
        beside = size[0] >= BESIDE_FROM
        assert screen.has_class("-stacked") is not beside, (host, size)
        if beside:
            assert details.region.x >= table.region.right and details.region.y == table.region.y
        else:
            assert details.region.y >= table.region.bottom and table.region.width >= size[0] - 1
        for index, row in enumerate(screen.rows):  # the columns fit inside: every title whole (but a path
            title = named_elsewhere(screen._title_of(row), row.subjects)  # the Subjects cell shows)
            cut = title_cut(title, screen._widths[1], screen._heights[index])
            assert not cut, (host, size, _cells(table, index))
