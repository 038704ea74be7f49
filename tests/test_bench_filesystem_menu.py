"""The Benchmark form's filesystem menu (newuser17 #3): every entry names its mountpoint first, then the
filesystem; the user's filesystems come before the system's; an entry too long for the screen is cut at a
`/` with `…`, never silently by the screen's edge."""

from __future__ import annotations

from types import SimpleNamespace

from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.bench.filesystem_menu import filesystem_choices, fit_entry
from diskdoctor.probes.root import live_root
from support.bench_fixed_run import long_name_mounts
from test_layout_defects import screen_lines
from textual.widgets import Select
from textual.widgets._select import SelectOverlay

__all__ = ["long_name_mounts"]


def _mounted(mountpoint: str, fstype: str, kname: str | None, options: tuple[str, ...] = ("rw",)) -> object:
    return SimpleNamespace(kname=kname, mount=SimpleNamespace(mountpoint=mountpoint, fstype=fstype,
                                                              mount_options=options))


def test_the_users_filesystems_come_before_the_systems() -> None:
    """Block devices first, then the user's tmpfs (/tmp/x), then the system's (/dev/shm, /run, cgroup)."""
    mounts = [_mounted("/sys/fs/cgroup", "tmpfs", None), _mounted("/dev/shm", "tmpfs", None),
              _mounted("/run/lock", "tmpfs", None), _mounted("/tmp/x-tmpfs", "tmpfs", None),
              _mounted("/mnt/ro", "tmpfs", None, ("ro",)), _mounted("/", "ext4", "vda"),
              _mounted("/tmp/x-ext4", "ext4", "loop0")]
    host = SimpleNamespace(mounts=mounts)
    entries = [str(entry) for entry, _ in filesystem_choices(host)]  # type: ignore[arg-type]
    assert entries == ["/  (ext4 on vda)", "/tmp/x-ext4  (ext4 on loop0)", "/tmp/x-tmpfs  (tmpfs: in memory)",
                       "/dev/shm  (tmpfs: in memory)", "/mnt/ro  (tmpfs: in memory, read-only)",
                       "/run/lock  (tmpfs: in memory)", "/sys/fs/cgroup  (tmpfs: in memory)"]


def test_an_entry_is_cut_at_a_slash_before_its_filesystem_is_said_shorter() -> None:
    entry = "/tmp/pytest-of-root/pytest-261/test_the_space_check_covers_wh0/fs  (tmpfs: in memory)"
    assert fit_entry(entry, 200) == entry
    assert fit_entry(entry, 60) == "/tmp/pytest-of-root/pytest-261/…/fs  (tmpfs: in memory)"
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
        await app.workers.wait_for_complete()
        await pilot.press("3")
        await app.workers.wait_for_complete()
        await pilot.pause()
        menu = app.screen.query_one("#bench-fs", Select)
        menu.focus()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.pause()
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
