"""A details section title is drawn whole where the pane has room: a long one goes on into the value
column, cut at a "/" with an ellipsis only where even that is too narrow (newuser16 #1)."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.widgets import LayerTable, StackTree
from diskdoctor.widgets.layer_table import split_title
from rich.cells import cell_len
from test_fit_path import cut_by_the_rule

MOUNTS = ("/var/lib/kubelet/pods/8f0c2a4e-5b1d-4c0e-9a77-3c1f2d4e5f60/volumes/kubernetes.io~csi/"
          "pvc-4d5e6f70-8192-4a3b-bc4d-5e6f708192a3/mount",
          "/srv/postgresql/16/main/pg_wal_archive_for_point_in_time_recovery", "/")
TITLE = "filesystem on /tmp/stack8-a-long-mountpoint-name"


def test_a_title_longer_than_the_attribute_column_goes_on_into_the_value_column() -> None:
    assert split_title("Identity", 22, 40) == ("Identity", "")
    assert split_title(TITLE, 22, 60) == ("filesystem on", "/tmp/stack8-a-long-mountpoint-name")
    head, rest = split_title("filesystem on /var/lib/kubelet/pods/8f0c/volumes/pvc-4d5e/mount", 22, 30)
    assert head == "filesystem on" and rest.endswith("/mount") and "…" in rest and cell_len(rest) <= 30


def drawn_titles(table: LayerTable) -> list[str]:
    """Each section title as the table draws it: its attribute cell and the rest in its value cell (each
    within its column: the table cuts a cell wider than its column without an ellipsis)."""
    titles = []
    for row in table.ordered_rows:
        if str(row.key.value).startswith("group-"):
            label, value = table.get_row(row.key)
            assert cell_len(str(label)) <= table.columns["attribute"].width, label  # type: ignore[index]
            assert cell_len(str(value)) <= table.columns["value"].width, value  # type: ignore[index]
            titles.append(" ".join(str(cell) for cell in (label, value) if str(cell)))
    return titles


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)], ids=["80x24", "120x40", "200x60"])
async def test_long_mountpoint_titles_are_whole_where_the_pane_has_room(size: tuple[int, int]) -> None:
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=size) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        tree, table = app.screen.query_one(StackTree), app.screen.query_one(LayerTable)
        seen = set()
        for _ in range(tree.last_line + 1):
            await app.workers.wait_for_complete()
            await pilot.pause()
            width = table.columns["value"].width  # type: ignore[index]
            for title in drawn_titles(table):
                if title.startswith("filesystem on "):
                    point = title.removeprefix("filesystem on ")
                    whole = point if point in MOUNTS else next(
                        mount for mount in MOUNTS if mount.endswith(point.rsplit("/", 1)[-1]))
                    seen.add(whole)
                    if cell_len(whole) <= width:
                        assert point == whole, (title, width)
                    else:
                        assert cut_by_the_rule(point, whole) and cell_len(point) <= width, (title, width)
            await pilot.press("down")
        assert seen == set(MOUNTS), seen
