"""The Advice list's merged Subjects cells after newuser22 (issue 23): one form for every merged cell, the
count alone only where no subject fits whole, the subjects in the card's order at every width."""

from __future__ import annotations

import re

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.advice_rows import named_elsewhere, subject_lines, title_cut
from diskdoctor.app.tui.app import DiskDoctorApp
from test_advice_fit import _advice, _cells
from textual.widgets import DataTable

LAB = ("/lab/data", "/lab/luks2on", "/lab/plain", "/lab/raid0", "/lab/slow", "/lab/span", "/lab/thin",
       "/lab/zzz-a-longer-mount")


def _named(cell: str, count: int) -> tuple[list[str], int]:
    """The subjects a merged cell names and how many it leaves out, checking it reads "N: a, b, … +k" (or
    "N: …/name +k", adv15)."""
    match = re.fullmatch(rf"{count}: (.*)", cell.replace("/ ", "/"))
    assert match, cell  # newuser22 #1: `2 subjects: …` below `2: /, … +1`, two forms in one column
    items = [item.strip() for item in re.sub(r"(?<=[^,…]) (\+\d+)$", r", … \1", match[1]).split(",")]
    left_out = re.fullmatch(r"… \+(\d+)", items[-1])
    return (items[:-1], int(left_out[1])) if left_out else (items, 0)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_long_names_merged_cells_read_one_way_and_name_a_subject_where_one_fits(
        size: tuple[int, int]) -> None:
    """newuser22 #1, long-names at 120x40 and 80x24: `2 subjects: …` below `2: /, … +1`. Every merged cell
    reads "N: first, … +k" (only the count, "2: … +2", where the first subject does not fit whole even
    cut at a "/"), and the Finding column is no wider than its titles need whole: the Subjects column gets
    the rest."""
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=size) as pilot:
        screen = await _advice(app, pilot)
        table = screen.query_one("#advice-table", DataTable)
        room = screen._widths[2]
        for index, row in enumerate(screen.rows):
            if len(row.subjects) < 2:
                continue
            n = len(row.subjects)
            named, left_out = _named(_cells(table, index)[2], n)
            assert len(named) + left_out == n, (named, left_out)
            assert named == list(row.subjects[:len(named)]) or len(named) == 1, named  # card order
            if not named:  # the count alone: not even the first subject fits
                assert len(f"{n}: {row.subjects[0]}, … +{n - 1}") > room, (row.subjects, room)
        titles = [named_elsewhere(screen._title_of(row), row.subjects) for row in screen.rows]
        narrower = screen._widths[1] - 1
        if not any(title_cut(title, screen._widths[1], lines) for title, lines in zip(titles, screen._heights,
                                                                                       strict=True)):
            assert any(title_cut(title, narrower, lines) for title, lines in zip(titles, screen._heights,
                                                                                 strict=True)), narrower


def test_merged_subjects_keep_the_cards_order_at_every_width() -> None:
    """newuser22 #12: `8: /lab/data, /lab/luks2on, /lab/plain, /lab/raid0, …` at 200 (the card's order) but
    `8: /lab/data, /lab/plain, /lab/slow, /lab/span, … +4` at 120 (shortest first). A narrower cell drops
    whole subjects from the end and counts them."""
    for width in range(20, 120):
        for lines in (1, 2):
            drawn, _ = subject_lines(LAB, width, lines)
            named, left_out = _named(" ".join(drawn), len(LAB))
            assert named == list(LAB[:len(named)]), (width, drawn)
            assert len(named) + left_out == len(LAB), (width, drawn)


@pytest.mark.parametrize("size", [(120, 40), (200, 60)], ids=["120x40", "200x60"])
async def test_lab_ssd_merged_rows_name_subjects_in_the_cards_order(size: tuple[int, int]) -> None:
    """newuser22 #12 on lab-ssd: the same finding named different filesystems first at 120 and 200."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=size) as pilot:
        screen = await _advice(app, pilot)
        table = screen.query_one("#advice-table", DataTable)
        merged = [(index, row) for index, row in enumerate(screen.rows) if len(row.subjects) > 1]
        assert merged
        for index, row in merged:
            named, _ = _named(_cells(table, index)[2], len(row.subjects))
            assert named == list(row.subjects[:len(named)]), (named, row.subjects)


async def test_a_verify_command_cut_at_the_edge_says_where_it_is_whole() -> None:
    """newuser22 #15, long-names at 120x40: `fstrim -v \\` / `'/var/lib/kubelet/…/pvc-4d5e6f70-8192-4a3b-bc…`
    / `(… cut at the edge: too wide to show whole here)`, the user left with only a cut path. The note
    names the report (`w`), which holds every verify command whole."""
    from diskdoctor.app.report import markdown_report
    from diskdoctor.app.report.markdown_report import md_code
    from diskdoctor.widgets import FindingCard
    from test_fix_command_paste import shown_lines

    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _advice(app, pilot)
        card = screen.query_one("#advice-card", FindingCard)
        lines = shown_lines(card)
        verify = lines[next(i for i, line in enumerate(lines) if line.startswith("Verify:")):]
        assert any(line.endswith("…") for line in verify), verify  # a command cut at the edge
        assert "  (… cut at the edge: the report (w) has it whole)" in verify, verify
        finding = screen.selected()
        assert finding is not None
        written = "\n".join(markdown_report._finding(finding))  # the finding's section of the `w` report
        assert all(md_code(step) in written for step in finding.verify), written
        assert finding.subject in written  # the path the card cut, whole


async def test_an_empty_filter_line_closes_when_it_loses_the_focus() -> None:
    """newuser22 #14, Advice at 80x24: `filter: type to keep matching rows · Enter keeps it · Esc clears`
    stayed below the list with the normal footer, and Esc did not remove it (only `/` then Esc did).
    Reproduced: `/`, then Tab (the focus to the list; a mouse click on it does the same). An empty filter
    line leaves with the focus."""
    from diskdoctor.widgets.filter_bar import FilterBar

    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _advice(app, pilot)
        bar = screen.query_one(FilterBar)
        await pilot.press("slash")
        await pilot.pause()
        assert bar.display and bar.has_focus
        await pilot.press("tab")
        await pilot.pause()
        assert not bar.has_focus
        assert not bar.display, "the hint stays below the list while the list has the focus"
