"""The Benchmark form's filesystem menu (newuser17 #3): every entry names its mountpoint first, then the
filesystem; the user's filesystems come before the system's; an entry too long for the screen is cut at a
`/` with `…`, never silently by the screen's edge."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest
from conftest import fixture_host
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.bench.filesystem_menu import filesystem_choices, fit_entry
from diskdoctor.probes import host as host_module
from diskdoctor.probes.host import Host, MountedFs
from diskdoctor.probes.root import live_root
from support.bench_fixed_run import long_name_mounts
from test_layout_defects import screen_lines
from textual.pilot import Pilot
from textual.widgets import Select
from textual.widgets._select import SelectOverlay

__all__ = ["long_name_mounts"]


def _mounted(mountpoint: str, fstype: str, kname: str | None, options: tuple[str, ...] = ("rw",)) -> object:
    return SimpleNamespace(kname=kname, mount=SimpleNamespace(mountpoint=mountpoint, fstype=fstype,
                                                              mount_options=options))



async def open_bench(app: DiskDoctorApp, pilot: Pilot[None]) -> None:
    """The Benchmark screen, its host read."""
    await app.workers.wait_for_complete()
    await pilot.press("3")
    await app.workers.wait_for_complete()
    await pilot.pause()


async def open_menu(pilot: Pilot[None], menu: Select[str]) -> None:
    """The filesystem menu dropped open."""
    menu.focus()
    await pilot.press("enter")
    await pilot.pause()
    await pilot.pause()

def test_the_menu_offers_the_users_writable_filesystems_only() -> None:
    """Block devices first, then the user's tmpfs (/tmp/x); newuser19: the menu also offered /dev/shm,
    /sys/fs/cgroup and a read-only tmpfs, none a target a user means (a WAL run cannot write to a read-only
    one). The system's memory filesystem comes back, last, only while the chosen directory is on it."""
    mounts = [_mounted("/sys/fs/cgroup", "tmpfs", None), _mounted("/dev/shm", "tmpfs", None),
              _mounted("/run/lock", "tmpfs", None), _mounted("/tmp/x-tmpfs", "tmpfs", None),
              _mounted("/mnt/ro", "tmpfs", None, ("ro",)), _mounted("/", "ext4", "vda"),
              _mounted("/mnt/ro-disk", "ext4", "vdb", ("ro", "relatime")),
              _mounted("/tmp/x-ext4", "ext4", "loop0")]
    host = SimpleNamespace(mounts=mounts)
    entries = [str(entry) for entry, _ in filesystem_choices(host)]  # type: ignore[arg-type]
    assert entries == ["/  (ext4 on vda)", "/tmp/x-ext4  (ext4 on loop0)", "/tmp/x-tmpfs  (tmpfs: in memory)"]
    kept = [value for _, value in filesystem_choices(host, "/dev/shm")]  # type: ignore[arg-type]
    assert kept == ["/", "/tmp/x-ext4", "/tmp/x-tmpfs", "/dev/shm"]
    assert "/mnt/ro" not in [value for _, value in filesystem_choices(host, "/mnt/ro")]  # type: ignore[arg-type]


def test_an_entry_is_cut_at_a_slash_before_its_filesystem_is_said_shorter() -> None:
    entry = "/tmp/pytest-of-root/pytest-261/test_the_space_check_covers_wh0/fs  (tmpfs: in memory)"
    assert fit_entry(entry, 200) == entry
    assert fit_entry(entry, 60) == "/tmp/pytest-of-root/pytest-261/…s_wh0/fs  (tmpfs: in memory)"  # room used
    assert fit_entry(entry, 24) == "…/fs  (tmpfs: in memory)"
    assert fit_entry(entry, 22) == "/tmp/…/fs  (tmpfs)"
    assert fit_entry(entry, 13) == "…/fs  (tmpfs)"
    assert fit_entry("/dev/shm  (tmpfs: in memory)", 12) == "/dev/shm"
    for cells in range(4, 40):
        cut = fit_entry(entry, cells)
        assert len(cut) <= cells and "…" in cut and cut.split("  (")[0].endswith("fs"), (cells, cut)


async def test_at_80_columns_the_open_menu_cuts_long_entries_with_an_ellipsis(long_name_mounts: str) -> None:
    """newuser17: the open menu's last entry ended `…/fs  (tmpfs: in` at 80, cut by the screen's edge."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(80, 24)) as pilot:
        await open_bench(app, pilot)
        menu = app.screen.query_one("#bench-fs", Select)
        await open_menu(pilot, menu)
        overlay = menu.query_one(SelectOverlay)
        assert menu.expanded and overlay.region.right <= 80, overlay.region
        entries = [str(prompt) for prompt, value in menu._options if value != Select.NULL]
        assert any(len(entry) > 70 for entry in entries), entries
        for index, entry in enumerate(entries):
            overlay.highlighted = index + 1
            await pilot.pause()
            row = next(line for line in screen_lines(app)[overlay.region.y:overlay.region.bottom]
                       if entry.split("  (")[0].rsplit("/", 1)[-1] + "  (" in line)
            shown = row[overlay.region.x:overlay.region.right].strip("▊▎▆▂▄▅▇█▁▃ ")
            note = entry.split("  (")[1]
            assert shown == entry or ("…" in shown and shown.endswith(f"  ({note}")), (entry, shown)


LONG_TMPFS = "/mnt/scratch-" + "x" * 39  # its entry, `…  (tmpfs: in memory)`, is 72 cells


@pytest.fixture
def system_mounts(monkeypatch: pytest.MonkeyPatch) -> Host:
    """The long-names host with a tmpfs whose entry just fits an open list at 80 columns, the system's
    /dev/shm and /sys/fs/cgroup and a read-only tmpfs, as newuser19's host had."""
    base = fixture_host("long-names")
    root = next(m for m in base.mounts if m.mount.mountpoint == "/")
    extra = [MountedFs(replace(root.mount, mountpoint=path, fstype="tmpfs", source="tmpfs",
                               mount_options=options), None, "tmpfs")
             for path, options in ((LONG_TMPFS, ("rw",)), ("/dev/shm", ("rw",)), ("/sys/fs/cgroup", ("rw",)),
                                   ("/mnt/sandbox/v1/python", ("ro", "nosuid")))]
    fake = replace(base, mounts=(*base.mounts, *extra))
    monkeypatch.setattr(host_module, "read_host", lambda root, **_: fake)
    return fake


async def test_at_80_columns_an_entry_that_fits_the_open_list_is_whole(system_mounts: Host) -> None:
    """newuser19 at 80x24: `/mnt/sandboxing/…/v1/python  (tmpfs: in memory, read-only)` was cut with 16
    blank cells after it (the open list was fitted for the shut menu's edges and its ▼); the system's and
    read-only filesystems were offered as targets."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(80, 24)) as pilot:
        await open_bench(app, pilot)
        menu = app.screen.query_one("#bench-fs", Select)
        offered = [value for _, value in menu._options if value != Select.NULL]
        assert LONG_TMPFS in offered and not {"/dev/shm", "/sys/fs/cgroup", "/mnt/sandbox/v1/python"} & \
            set(offered), offered
        await open_menu(pilot, menu)
        entry = f"{LONG_TMPFS}  (tmpfs: in memory)"
        assert len(entry) == 72
        assert any(entry in line for line in screen_lines(app)), "\n".join(screen_lines(app))
        overlay = menu.query_one(SelectOverlay)
        assert overlay.region.width < len(entry) + 8, overlay.region  # it fits only with the list's edges


async def test_a_directory_on_dev_shm_names_its_filesystem(system_mounts: Host) -> None:
    """/dev/shm left the menu, but a directory chosen there still names it (not `pick one`)."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        await open_bench(app, pilot)
        app.screen.choose_directory("/dev/shm", "Runs")
        await pilot.pause()
        await pilot.pause()
        menu = app.screen.query_one("#bench-fs", Select)
        assert menu.value == "/dev/shm", menu._options
        assert [value for _, value in menu._options if value != Select.NULL][-1] == "/dev/shm"
