"""The Monitor sized from what it shows, as newuser9 saw it in tmux (issue 23): a filesystem title whole
where the screen has room, a sorted disk saying how many filesystems it serves, processes named by what
a person knows them by, and help listing only the keys that work on a capture."""

from __future__ import annotations

import ctypes
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.help_screen import HelpScreen
from diskdoctor.app.tui.monitor_screen import MonitorScreen
from diskdoctor.probes.host_load import HostLoadSampler
from diskdoctor.probes.process_io import ProcessIoSampler, ProcessRate, program_of
from diskdoctor.probes.root import live_root
from test_fit_path import cut_by_the_rule
from test_monitor_layout import SIZE_IDS, SIZES, open_monitor, screen_lines
from textual.widgets import DataTable

KUBELET = ("/var/lib/kubelet/pods/8f0c2a4e-5b1d-4c0e-9a77-3c1f2d4e5f60/volumes/kubernetes.io~csi/"
           "pvc-4d5e6f70-8192-4a3b-bc4d-5e6f708192a3/mount (xfs)")
"""long-names' 138-cell filesystem title."""


async def test_a_long_title_is_whole_and_the_table_no_wider_than_it_needs_at_200_columns() -> None:
    """long-names at 200x60: the kubelet title was cut at 118 cells (the columns' width) in a 161-cell
    table beside a 37-cell pane. The table is as wide as the title needs, the side pane gets the rest."""
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await open_monitor(pilot)
        lines = screen_lines(app)
        titles = [line for line in lines if "/kubelet/" in line]
        assert any(line.startswith(f" {KUBELET} ") for line in titles), titles
        table = screen.query_one("#monitor-table", DataTable)
        columns = sum(column.get_render_width(table) for column in table.columns.values())
        assert table.outer_size.width <= max(columns, len(KUBELET) + 2) + 2  # + the scrollbar's room
        side = screen.query_one("#monitor-side")
        assert side.region.x == table.region.right and side.outer_size.width == 200 - table.outer_size.width


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_a_title_uses_the_whole_table_under_the_side_pane(size: tuple[int, int]) -> None:
    """Where the table spans the screen, a title longer than the columns uses that whole width before it
    is cut (at 120 it was cut at the columns' 118 cells); the cut is at a "/", whole folders kept (cuts7)."""
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=size) as pilot:
        screen = await open_monitor(pilot)
        table = screen.query_one("#monitor-table", DataTable)
        row = next(line for line in screen_lines(app) if line.startswith(" /var/lib/kubelet/"))
        shown = row[table.region.x:table.region.right].rstrip()
        assert shown.endswith("/mount (xfs)")
        room = table.scrollable_content_region.width - 2  # the cell padding
        assert len(shown) - 1 <= min(len(KUBELET), room), (shown, room)
        cut = shown.strip().removesuffix(" (xfs)")
        whole = KUBELET.removesuffix(" (xfs)")
        assert cut == whole or (cut.startswith("/var/lib/kubelet/pods/8f0c2a4e-5b1d-4c0e-9a77-3c1f2d4e5f60/")
                                and cut_by_the_rule(cut, whole)), shown
        # leading folders whole, one ellipsis, then the end of the dropped middle and the last component


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_a_sorted_disk_says_how_many_filesystems_it_serves(size: tuple[int, int]) -> None:
    """lab-ssd sorted with `o`: `sda  /lab/data` read as /lab/data's disk, though sda sits under 12
    filesystems. It reads `sda  /lab/data +11`; a layer under one filesystem names just that one."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=size) as pilot:
        screen = await open_monitor(pilot)
        await pilot.press("o", "g")  # sorted, from the first row (Monitor opens on Stack's row)
        await pilot.pause(0.1)
        served: dict[str, set[str]] = {}
        for group in screen.sample.groups:
            for layer in group.layers:
                served.setdefault(layer.row.name, set()).add(group.group.key)
        table = screen.query_one("#monitor-table", DataTable)
        lines = screen_lines(app)[table.region.y + 1:table.region.bottom]
        sda = next(line for line in lines if line.startswith(" sda "))
        assert sda.startswith(f" sda /lab/data +{len(served['sda']) - 1} "), sda
        md0 = next(line for line in lines if line.startswith(" md0 "))
        assert md0.startswith(" md0 /lab/raid0 ") and "+" not in md0[:25], md0
        device = table.columns[next(iter(table.columns))]  # type: ignore[index]
        labels = [str(table.get_row_at(row)[0]) for row in range(table.row_count)]
        assert device.width <= max(len(label) for label in labels)  # as wide as its content, no wider


@pytest.mark.parametrize(("name", "cmdline", "exe", "program"), [
    ("memfd:sealed-91", ["line_io_tools/binary_backend", "--uid", "0"], "", "binary_backend"),
    ("memfd:sealed-91", [], "/usr/sbin/runc", "runc"),
    ("memfd:sealed-91", [], "/memfd:sealed-91 (deleted)", ""),
    ("bash", ["bash", "/dev/fd/3"], "", ""),
    ("python3", ["python3", "/proc/self/fd/5"], "", ""),
    ("tmux: server", ["tmux", "-L", "work"], "", "tmux"),
    ("bash", ["/bin/bash", "./load.sh"], "", "bash load.sh"),
    ("etcd", ["/usr/bin/etcd"], "", ""),
])
def test_a_process_is_named_by_what_a_person_knows(name: str, cmdline: list[str], exe: str,
                                                   program: str) -> None:
    """newuser9 saw `bash 3[21010]` (bash reading /dev/fd/3) and `memfd:sealed-91` (a program run from a
    memory file): the command it was started as, or the interpreter alone, instead."""
    assert program_of(name, cmdline, exe) == program


def _retitled_writer(tmp_path: Path) -> subprocess.Popen[bytes]:
    """A python writer whose kernel name is "memfd:sealed-91", as a program run from a memory file."""
    script = tmp_path / "writer.py"
    script.write_text("import ctypes, os, sys, time\n"
                      "ctypes.CDLL(None).prctl(15, b'memfd:sealed-91', 0, 0, 0)\n"  # PR_SET_NAME
                      "fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT, 0o600)\n"
                      "while True:\n    os.pwrite(fd, b'x' * 65536, 0); os.fsync(fd); time.sleep(0.01)\n")
    return subprocess.Popen([sys.executable, str(script), str(tmp_path / "data")])


def test_a_retitled_writer_is_named_by_its_script(tmp_path: Path) -> None:
    """A real process named `memfd:sealed-91` that writes is listed by the Monitor's sampler and in a
    benchmark's busy note as `python3 writer.py`."""
    assert ctypes.CDLL(None).prctl  # Linux
    load = HostLoadSampler()
    child = _retitled_writer(tmp_path)
    try:
        sampler = ProcessIoSampler()
        found: list[ProcessRate] = []
        for _ in range(30):
            time.sleep(0.2)
            found = [rate for rate in sampler.sample(0.2, limit=1000).top if rate.pid == child.pid]
            if found and found[0].name.startswith("memfd:"):
                break
        assert found and found[0].name == "memfd:sealed-91", found
        assert found[0].label.startswith("python") and found[0].label.endswith(" writer.py"), found
        others = set(psutil.pids()) - {child.pid}  # whatever else runs on this machine is left out
        top = {process.pid: process.name for process in load.finish(exclude=others).top_io}
        assert top[child.pid].startswith("python") and top[child.pid].endswith(" writer.py"), top
    finally:
        child.kill()
        child.wait()


@pytest.mark.parametrize(("root", "listed"), [("capture", False), ("live", True)])
async def test_help_lists_pause_and_watch_only_where_they_work(root: str, listed: bool) -> None:
    """F1 on a capture's Monitor listed `p` Pause and `d` Watch, which do nothing there."""
    app = DiskDoctorApp(fixture_root("lab-ssd") if root == "capture" else live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_monitor(pilot)
        assert isinstance(screen, MonitorScreen)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        keys = [key for key, _ in app.screen.keys]
        assert ("p" in keys, "d" in keys) == (listed, listed), keys
        assert "o" in keys and "r" in keys


async def test_the_details_pane_heading_of_a_long_title_keeps_to_its_width() -> None:
    """The kubelet title's heading in the details pane was `/var/l…(xfs) on luks-…` in a pane with room:
    the title now takes the pane's width on its own line, with `on <device>` under it."""
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await open_monitor(pilot)
        table = screen.query_one("#monitor-table", DataTable)
        table.move_cursor(row=next(row for row, key in enumerate(screen._row_keys) if "kubelet" in key))
        await pilot.pause(0.2)
        side = screen.query_one("#monitor-side")
        rows = screen_lines(app)[side.region.y:side.region.bottom]
        lines = [line[side.region.x:side.region.right].strip("│ ") for line in rows]
        title = next(line for line in lines if line.startswith("/var/lib/kubelet/pods/"))
        assert title.endswith("/mount (xfs)") and len(title) > 30, lines
        assert cut_by_the_rule(title.removesuffix(" (xfs)"), KUBELET.removesuffix(" (xfs)")), lines
        assert "on luks-elasticsearch-hot-tier-data-volume-01 (crypt)" in lines, lines


async def test_a_sorted_long_mountpoint_takes_the_room_the_details_pane_leaves() -> None:
    """long-names sorted at 200x60: the device column stopped at 72 cells (`nvme0n1p1  /var/li…/mount`)
    beside a mostly blank pane; it takes the room left while the details pane stays beside the table."""
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await open_monitor(pilot)
        await pilot.press("o")
        await pilot.pause(0.2)
        assert not screen.has_class("-side-below") and not screen.hidden_columns
        lines = screen_lines(app)
        row = next(line for line in lines if line.startswith(" nvme1n1p1 "))
        assert " nvme1n1p1 /srv/postgresql/16/main/pg_wal_archive_for_point_in_time_recovery +1 " in row, row
        table = screen.query_one("#monitor-table", DataTable)
        assert table.columns[next(iter(table.columns))].width > 72  # type: ignore[index]
