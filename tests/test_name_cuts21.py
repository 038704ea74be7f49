"""A cut inside a last component is a last resort (newuser21 #9, long-names at 80): a merged Subjects cell
gives way to its count (`2 subjects: …`) rather than read `2: …/pg_wa…very, … +1`, and TRIM's details heading
keeps the device's name whole, on a second line where one line cannot hold both names (it read `(xfs on
…/luks-elasticsea…-data-volume-01)`)."""

from __future__ import annotations

import re

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.advice_rows import subject_lines
from diskdoctor.app.tui.trim_screen import details_heading
from test_advice_fit import _advice, _cells
from test_path_cuts import KUBELET, WAL
from test_trim_tui import open_trim
from test_tui import running, settled
from textual.widgets import DataTable, Static

LUKS = "/dev/mapper/luks-elasticsearch-hot-tier-data-volume-01"
WAL_LV = "/dev/mapper/vg_elasticsearch_hot-lv_postgresql_write_ahead_log"


def _name(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1]


def test_a_merged_subjects_cell_never_cuts_inside_a_name() -> None:
    for width in range(8, 60):
        cell = " ".join(subject_lines((WAL, KUBELET), width, 1)[0])
        assert len(cell) <= width, (width, cell)
        cuts = [match.start() for match in re.finditer("…", cell)]  # each for whole folders or subjects
        assert all(re.match(r"…(/|$| \+)", cell[index:]) for index in cuts), (width, cell)
    assert subject_lines((WAL, KUBELET), 16, 1)[0] == ("2: …/mount +1",)  # adv15: one named (newuser23 #5)
    assert subject_lines((WAL, KUBELET), 6, 1)[0] == ("… +2",)


@pytest.mark.parametrize("mountpoint, source", [(KUBELET, LUKS), (WAL, WAL_LV)])
def test_the_trim_heading_keeps_both_names_whole_on_one_line_or_two(mountpoint: str, source: str) -> None:
    for width in range(70, 200):
        lines = details_heading(mountpoint, "xfs", source, width).split("\n")
        assert all(len(line) <= width for line in lines), (width, lines)
        assert len(lines) <= 2 and lines[-1].endswith(f"{_name(source)})"), (width, lines)
        name = _name(mountpoint)
        assert f"{name} (xfs on " in lines[0] or lines[0].endswith(name), (width, lines)
    assert details_heading(WAL, "ext4", WAL_LV, 78) == f"Details: {WAL}\n(ext4 on {WAL_LV})"


async def test_at_80_the_advice_subjects_and_trim_heading_keep_names_whole() -> None:
    async with running(fixture_root("long-names"), (80, 24)) as (app, pilot):
        screen = await _advice(app, pilot)
        table = screen.query_one("#advice-table", DataTable)
        for index, row in enumerate(screen.rows):
            cell = _cells(table, index)[2]
            if len(row.subjects) > 1:
                assert not re.search(r"…[^/ ]", cell) and not re.search(r"[^ /]…", cell.rstrip("…")), cell
        table = await open_trim(app, pilot)
        title = app.screen.query_one("#trim-details-title", Static)
        for row in range(table.row_count):
            table.move_cursor(row=row)
            await settled(app, pilot)
            await pilot.pause()
            heading = str(title.render())
            assert title.region.height == heading.count("\n") + 1, heading
            verdict = app.screen.verdicts[app.screen.selected]
            assert heading.endswith(f"{_name(verdict.source)})"), heading
            assert _name(verdict.mountpoint) in heading, heading
