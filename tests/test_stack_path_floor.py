"""ROTA and SCHED before cells of a cut path (newuser17 #10): at 120x40 on long-names the tree hid ROTA,
SCHED, DISC-MAX and DISC-GRAN while a 37-cell MOUNTPOINTS kept `/srv/postgresql/16…t_in_time_recovery`."""

from __future__ import annotations

from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.widgets import StackTree, StatusLine
from diskdoctor.widgets.stack_tree import MIN_MOUNTS, ColumnWidths, StackRow
from textual.widgets import Static

ALIKE = ("no", "none", "2T", "4K")
OTHER = ("yes", "bfq", "0B", "0B")
"""Another row's ROTA, SCHED, DISC-MAX, DISC-GRAN: the extra columns tell rows apart (newuser23 #12)."""


def _row(name: str, mounts: str) -> StackRow:
    return StackRow(key=name, name=name, kind="lvm", size="1G", trim="yes", fstype="ext4", mounts=mounts,
                    has_children=False, extra=ALIKE if name[0] in "an" else OTHER)


def test_rota_and_sched_cut_the_path_down_to_the_last_components_it_showed() -> None:
    widths = ColumnWidths()
    for name, mounts in (("a", "/var/lib/kubelet/pods/8f0c2a4e/volumes/kubernetes.io~csi/pvc-1/mount"),
                         ("b", "/srv/postgresql/16/main/pg_wal_archive_for_point_in_time_recovery")):
        widths.see(_row(name, mounts), 0)
    room = widths.natural(0) - widths.mounts + 30  # 30 cells for the path without the extra columns
    assert widths.path_floor(room) == MIN_MOUNTS  # "/…/mount" fits; the WAL folder's name was cut already
    fitted = widths.fitted(room)
    assert fitted.shown_extra == 2 and fitted.mounts == room - (widths.natural(2) - widths.mounts)
    assert widths.fitted(widths.natural(2) - widths.mounts + MIN_MOUNTS - 1).shown_extra == 1  # ROTA
    narrow = widths.fitted(widths.natural(1) - widths.mounts + MIN_MOUNTS - 1)
    assert narrow.shown_extra == 0  # under the floor: the path keeps its cells, the status names the rest


def test_the_floor_keeps_a_last_component_shown_whole() -> None:
    widths = ColumnWidths()
    widths.see(_row("a", "/srv/archive/some/deep/folder/pg_wal_archive_recovery"), 0)
    widths.see(_row("b", "/b"), 0)  # ROTA and SCHED tell rows apart (one alike on every row cuts no path)
    room = widths.natural(0) - widths.mounts + 40
    assert widths.path_floor(room) == len("…/pg_wal_archive_recovery")  # as `fit_path` cuts it
    floor = len("…/pg_wal_archive_recovery")
    assert widths.fitted(widths.natural(1) - widths.mounts + floor - 1).shown_extra == 0  # "…/pg_wal…" whole
    assert widths.fitted(widths.natural(1) - widths.mounts + floor).shown_extra == 1


async def test_at_120_long_names_cuts_no_path_for_rota_and_sched_alike_on_every_row() -> None:
    """newuser23 #12: ROTA and SCHED read `no none` on every row of long-names: they tell no row apart, so
    no path is cut for them (newuser17 #10 had them before cells of a cut path); the status names them."""
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.pause()
        header = str(app.screen.query_one("#stack-columns", Static).render())
        assert header.split()[-1] == "MOUNTPOINTS", header
        tree = app.screen.query_one(StackTree)
        lines = [tree.render_label(tree.get_node_at_line(line), tree.rich_style, tree.rich_style).plain
                 for line in range(tree.last_line + 1)]
        kubelet = [line for line in lines if "/var/lib/kubelet" in line]
        assert kubelet and all(line.split()[-1].endswith("/mount") for line in kubelet), kubelet
        status = app.screen.query_one(StatusLine).plain
        assert "+4 hidden: ROTA, SCHED, DISC-MAX, DISC-GRAN" in status, status
