"""The Benchmark form's filesystem menu shows its mountpoint whole where the row has room for it, the
directory beside it giving way only where it hides nothing the menu does not show (newuser20 #4)."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import replace

import pytest
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.bench.filesystem_menu import fit_entry
from diskdoctor.probes import host
from diskdoctor.probes.host import MountedFs
from diskdoctor.probes.mountinfo import Mount
from diskdoctor.probes.root import live_root
from test_bench_form_whole_row import _shown
from test_layout_defects import open_bench, screen_lines
from textual.widgets import Input, Select, Tabs


def _mountpoint(size: tuple[int, int]) -> str:
    """A new directory as long as the mountpoint newuser20 read cut: /tmp/newuser20-ext4mnt (22 cells) at
    80, a CI path (`/tmp/…/mnt-ext4-discard`, 32 cells) at 120."""
    if size[0] == 80:
        return tempfile.mkdtemp(prefix="bform12-x", dir="/tmp")
    path = os.path.join(tempfile.mkdtemp(prefix="b-", dir="/tmp"), "mnt-ext4-discard")
    os.mkdir(path)
    return path


@pytest.fixture
def ext4_mount(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Iterator[str]:
    """The live host with an ext4 filesystem on loop2 mounted at a new directory (stubbed: no loop)."""
    path = _mountpoint(request.node.callspec.params["size"])
    real = host.read_host

    def with_mount(root, **options):  # type: ignore[no-untyped-def]
        mounted = MountedFs(Mount(999, "7:2", "/", path, ("rw",), "ext4", "/dev/loop2", ("rw",)), "loop2",
                            "maj:min")
        read = real(root, **options)
        return replace(read, mounts=[*read.mounts, mounted])

    monkeypatch.setattr(host, "read_host", with_mount)
    yield path
    shutil.rmtree(path if request.node.callspec.params["size"][0] == 80 else os.path.dirname(path))


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_the_wal_tab_shows_the_mountpoint_whole_where_it_fits(ext4_mount: str,
                                                                    size: tuple[int, int]) -> None:
    """newuser20 #4 at 80x24: the WAL tab showed `…/newuser20-ext4mnt  (ext4)   ▼` (the other tabs the
    mountpoint whole); at 120x40 `…/mnt-ext4-discard  (ext4 on loop2)     ▼`. The directory, on the
    mountpoint, may be cut at a `/`; both keep its last folder whole (their widths fixed, newuser21 #7)."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await open_bench(pilot)
        screen.choose_directory(ext4_mount)
        await pilot.pause()
        await pilot.pause()
        menu, field = screen.query_one("#bench-fs", Select), screen.query_one("#bench-dir", Input)
        for tab in ("wal", "compaction", "randwrite"):
            screen.query_one("#bench-workloads", Tabs).active = f"workload-{tab}"
            await pilot.pause()
            await pilot.pause()
            lines = screen_lines(app)
            # the menu's width is fixed (newuser21 #7): the mountpoint whole where it fits, else cut at a `/`
            # with its last folder whole, and the filesystem said
            label = _shown(lines, menu)
            assert label.startswith(f"{ext4_mount}  (ext4") or (
                label.startswith("…/") and f"{os.path.basename(ext4_mount)}  (ext4" in label
                and ext4_mount.endswith(label.split("  (")[0].removeprefix("…"))), (tab, label)
            assert _shown(lines, field).endswith(os.path.basename(ext4_mount)), (tab, _shown(lines, field))


def test_an_entry_keeps_its_mountpoint_whole_before_its_note() -> None:
    """Where the mountpoint whole with the filesystem's type alone fits, the entry is not cut at a `/` to
    keep `on loop2` (newuser20 #4: `…/mnt-ext4-discard  (ext4 on loop2)` beside 4 blank cells)."""
    entry = "/tmp/ci/run-7/mnt-ext4-discard  (ext4 on loop2)"
    assert fit_entry(entry, 40) == "/tmp/ci/run-7/mnt-ext4-discard  (ext4)"
    assert fit_entry(entry, 37) == "…/mnt-ext4-discard  (ext4 on loop2)"
