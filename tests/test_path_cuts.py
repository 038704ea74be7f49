"""newuser15: long names were cut inside short folders (TRIM `/srv/postgresql/16/ma…/pg_wal_…`, Monitor
`…/volume…/mount`); a path now keeps its last component whole, then its leading folders, one `…` between."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.trim_screen import details_heading
from diskdoctor.widgets.fit_text import ELLIPSIS, labelled_path_ellipsis, path_ellipsis
from test_fit_path import cut_by_the_rule
from test_monitor_layout import open_monitor, screen_lines
from test_tui import settled
from textual.widgets import DataTable

SIZES = [(80, 24), (120, 40), (200, 60)]
KUBELET = ("/var/lib/kubelet/pods/8f0c2a4e-5b1d-4c0e-9a77-3c1f2d4e5f60/volumes/kubernetes.io~csi/"
           "pvc-4d5e6f70-8192-4a3b-bc4d-5e6f708192a3/mount")
WAL = "/srv/postgresql/16/main/pg_wal_archive_for_point_in_time_recovery"


def assert_cut_at_slashes(shown: str, whole: str) -> None:
    """`shown` is `whole`, or its leading whole folders, one ellipsis, then the end of what was dropped
    with the last component whole; or "…/" and that component cut in its middle when it alone does not fit
    (`cut_by_the_rule`)."""
    assert cut_by_the_rule(shown, whole), (shown, whole)


def test_the_last_component_then_the_leading_folders() -> None:
    assert path_ellipsis("/srv/postgresql/16/main/pg_wal_archive", 21) == "/srv/…/pg_wal_archive"
    assert path_ellipsis("/srv/postgresql/16/main/pg_wal_archive", 33) == "/srv/postgresql/…/pg_wal_archive"
    assert path_ellipsis(KUBELET, 30) == "/var/lib/kubelet/pods/…/mount"  # not `/var/…92a3/mount`
    assert path_ellipsis(KUBELET, 66) == "/var/lib/kubelet/pods/8f0c2a4e-5b1d-4c0e-9a77-3c1f2d4e5f60/…/mount"
    assert path_ellipsis(KUBELET, 80) == ("/var/lib/kubelet/pods/8f0c2a4e-5b1d-4c0e-9a77-3c1f2d4e5f60/"
                                          "volumes/…8192a3/mount")  # the room left shows the middle's end
    assert path_ellipsis("/var/tmp/newuser12", 13) == "…/newuser12"
    assert path_ellipsis("/tmp/newuser19-ext4mnt", 12) == "…/newus…4mnt"  # was `/tmp…mnt`
    long_folder = "/tmp/lead-a-rather-long-mountpoint-for-monitor-checks/ext4mnt"  # was `/tmp/…/ext4mnt`
    assert path_ellipsis(long_folder, 56) == "/tmp/…-rather-long-mountpoint-for-monitor-checks/ext4mnt"
    assert path_ellipsis(long_folder, 20) == "/tmp/…checks/ext4mnt"  # the end of the folder left out
    assert path_ellipsis(long_folder, 18) == "/tmp/…/ext4mnt"  # under 5 cells of it: none
    for width in range(8, len(KUBELET) + 2):
        for path in (KUBELET, WAL, "/tmp/pytest-of-root/pytest-1701/loops0/mnt-ext4-discard"):
            cut = path_ellipsis(path, width)
            assert len(cut) <= width, (cut, width)
            assert_cut_at_slashes(cut, path)


def test_a_title_keeps_its_filesystem_type_and_cuts_its_path_at_a_slash() -> None:
    assert labelled_path_ellipsis(f"{KUBELET} (xfs)", 76) == \
        "/var/lib/kubelet/pods/8f0c2a4e-5b1d-4c0e-9a77-3c1f2d4e5f60/…/mount (xfs)"
    assert labelled_path_ellipsis("sda, sdb (xfs)", 8) == "sda,…fs)"  # not a path: cut in the middle


def test_the_trim_details_heading_cuts_the_mountpoint_at_a_slash() -> None:
    source = "/dev/mapper/vg_elasticsearch_hot-lv_postgresql_write_ahead_log"
    heading = details_heading(WAL, "ext4", source, 120)
    assert heading.startswith("Details: /srv/…/pg_wal_archive_for_point_in_time_recovery (ext4 on "), heading
    source = "/dev/mapper/luks-elasticsearch-hot-tier-data-volume-01"
    heading = details_heading(KUBELET, "xfs", source, 120)
    assert heading == ("Details: /var/lib/kubelet/pods/…-4a3b-bc4d-5e6f708192a3/mount (xfs on "
                       "/dev/…/luks-elasticsearch-hot-tier-data-volume-01)"), heading  # half the room each


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
async def test_trim_rows_cut_a_mountpoint_only_at_a_slash(size: tuple[int, int]) -> None:
    """At 120 the WAL row read `/srv/postgresql/16/ma…/pg_wal_archive…` and the kubelet one `…5f6…/mount`."""
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=size) as pilot:
        await settled(app, pilot)
        await pilot.press("2")
        await settled(app, pilot)
        table = app.screen.query_one("#trim-table", DataTable)
        shown = {str(table.get_row_at(row)[0]) for row in range(table.row_count)}
        for whole in (KUBELET, WAL):
            last = whole.rsplit("/", 1)[-1]
            cut = next(text for text in shown if text.startswith((whole[:4], f"{ELLIPSIS}/{last[:3]}")))
            assert_cut_at_slashes(cut, whole)
        if size[0] == 120:  # the kubelet path is cut anyway, `Warnings` whole; the table's last cell (no
            assert WAL in shown, shown  # scrollbar, trim14) makes the WAL path whole


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
async def test_monitor_titles_cut_a_mountpoint_only_at_a_slash(size: tuple[int, int]) -> None:
    """At 80 the kubelet title read `…5e6f60/volume…/mount (xfs)`."""
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=size) as pilot:
        await open_monitor(pilot)
        title = next(line for line in screen_lines(app) if line.startswith(" /var/lib/kubelet"))
        path = title.strip().split(" │")[0].strip().removesuffix(" (xfs)")
        assert_cut_at_slashes(path, KUBELET)
        if size[0] == 80:
            assert f"/8f0c2a4e-5b1d-4c0e-9a77-3c1f2d4e5f60/{ELLIPSIS}8192a3/mount (xfs)" in title, title
