"""A merged Subjects cell names at least one of its subjects (newuser23 #5: `2: … +2` on long-names at
80x24 and 120x40 named none, and "+2" read as four in all): "2: …/mount +1", its last component whole."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.advice_rows import one_named_cells, subject_lines
from diskdoctor.app.tui.advice_screen import AdviceScreen
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.widgets.fit_text import last_component
from test_tui import settled
from textual.widgets import DataTable

WAL = "/srv/postgresql/16/main/pg_wal_archive_for_point_in_time_recovery"
KUBELET = ("/var/lib/kubelet/pods/8f0c2a4e-5b1d-4c0e-9a77-3c1f2d4e5f60/volumes/kubernetes.io~csi/"
           "pvc-4d5e6f70-8192-4a3b-bc4d-5e6f708192a3/mount")


def test_a_narrow_merged_cell_names_the_subject_whose_name_fits() -> None:
    assert subject_lines((WAL, KUBELET), 16, 1)[0] == ("2: …/mount +1",)
    assert one_named_cells((WAL, KUBELET)) == len("2: …/mount +1")
    for width in range(one_named_cells((WAL, KUBELET)), 60):
        cell = subject_lines((WAL, KUBELET), width, 1)[0][0]
        assert len(cell) <= width and cell.startswith("2: ") and cell.endswith(" +1"), (width, cell)
        assert cell.rstrip(", …+1").endswith(("/mount", "recovery")), (width, cell)


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)], ids=["80x24", "120x40", "200x60"])
@pytest.mark.parametrize("fixture", ["long-names", "lab-ssd"])
async def test_every_merged_cell_names_one_subject_whole(fixture: str, size: tuple[int, int]) -> None:
    app = DiskDoctorApp(fixture_root(fixture))
    async with app.run_test(size=size) as pilot:
        await settled(app, pilot)
        await pilot.press("4")
        await settled(app, pilot)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AdviceScreen)
        table = screen.query_one("#advice-table", DataTable)
        for index, row in enumerate(screen.rows):
            if len(row.subjects) < 2:
                continue
            cell = table.get_row_at(index)[2].plain.replace("\n", " ")
            assert f"+{len(row.subjects)}" not in cell, cell  # never more left out than there are
            assert any(last_component(s) in cell or (s == "/" and ": /" in cell) for s in row.subjects), cell
