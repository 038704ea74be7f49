"""The title row and the footer hold still as the user switches screens (newuser18 #5, #6): at one width the
tabs start in one column and the footer takes as many lines on all six top-level screens."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import FOOTER_ONE_LINE_FROM, DiskDoctorApp
from diskdoctor.widgets.fitted_footer import GAP_CELLS, FittedFooter

KEYS = "123456"


async def visit(width: int) -> list[tuple[str, int, int]]:
    """Each top-level screen's title row, the footer's height, and the fewest columns its own keys (every
    one it declares) fit one line in."""
    seen = []
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(width, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        for key in KEYS:
            await pilot.press(key)
            await app.workers.wait_for_complete()
            await pilot.pause()
            await pilot.pause(0.1)
            footer = app.screen.query_one(FittedFooter)
            need = next(w for w in range(40, 400) if len(footer.own_lines(w)) == 1
                        and footer._fits_one_line(footer._declared(), w - GAP_CELLS))
            seen.append((app.screen._compositor.render_strips()[0].text, footer.region.height, need))
    return seen


@pytest.mark.parametrize("width", [120, 200])
async def test_the_tabs_start_in_one_column_on_every_screen(width: int) -> None:
    """#5: at 120 Stack and TRIM began ` 1 Stack  2 TRIM`, the others ` diskdoctor  1 Stack`: the tabs moved
    12 columns with each switch, as the app's name came and went with the description's length."""
    rows = [row for row, _, _ in await visit(width)]
    columns = {row.index("1 Stack  2 TRIM") for row in rows}
    assert len(columns) == 1, rows
    assert all(row.startswith(" diskdoctor ") == (width >= 160) for row in rows), rows


@pytest.mark.parametrize("width", [80, 120, 200])
async def test_the_footer_takes_as_many_lines_on_every_screen(width: int) -> None:
    """#6: at 120 Advice and Runs folded their keys into one line, the other four took two: the content area
    grew and shrank by a row between screens. Now every top-level screen takes what the most needing takes."""
    seen = await visit(width)
    heights = {height for _, height, _ in seen}
    assert heights == {1 if width >= FOOTER_ONE_LINE_FROM else 2}, seen
    needs = [need for _, _, need in seen]
    assert max(needs) == FOOTER_ONE_LINE_FROM, (
        f"set app.py's FOOTER_ONE_LINE_FROM to {max(needs)}: the most columns a top-level screen's keys need "
        f"on one line (each screen's: {needs})")
