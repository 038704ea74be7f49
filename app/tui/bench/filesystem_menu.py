"""The Benchmark form's filesystem menu: one entry per filesystem a run could write to, always
"MOUNTPOINT  (type on device)", the user's own filesystems only (the system's /dev/shm, /run, /sys/fs/cgroup
only while the chosen directory is on one), and each entry cut to its room at a `/`, never mid-word."""

from __future__ import annotations

from diskdoctor.app.base.filesystem_words import filesystem_on
from diskdoctor.probes.host import Host
from diskdoctor.probes.wal_target import PSEUDO_FILESYSTEMS
from diskdoctor.widgets.fit_text import ELLIPSIS, fit_end, path_ellipsis
from rich.cells import cell_len
from rich.text import Text

SYSTEM_FOLDERS = ("/dev", "/run", "/sys", "/proc")
"""Where the system mounts its own memory filesystems (/dev/shm, /run/lock, /sys/fs/cgroup): not targets a
user means (newuser18 #12), so the menu offers one only while the chosen directory is on it."""
NOTE_OPEN = "  ("


def is_system(mountpoint: str) -> bool:
    """Whether `mountpoint` is the system's own (under /dev, /run, /sys or /proc), not the user's."""
    return any(mountpoint == folder or mountpoint.startswith(folder + "/") for folder in SYSTEM_FOLDERS)


def filesystem_choices(host: Host, keep: str | None = None) -> list[tuple[Text, str]]:
    """(entry, mountpoint) for every mounted filesystem a benchmark could write to: those on a block device
    first, then the user's memory filesystems (/tmp/x). A read-only one is never offered (a run there is
    refused); the system's (/dev/shm, /run, /sys/fs/cgroup) only when it is `keep`, the mountpoint holding
    the chosen directory, listed last (so the menu names the filesystem a typed /dev/shm is on)."""
    choices: list[tuple[Text, str]] = []
    seen: set[str] = set()
    order = sorted(host.mounts, key=lambda m: (m.kname is None, is_system(m.mount.mountpoint),
                                               m.mount.mountpoint))
    for mounted in order:
        mount = mounted.mount
        if mount.fstype in PSEUDO_FILESYSTEMS or mount.mountpoint in seen or "ro" in mount.mount_options:
            continue
        if (mounted.kname is None and mount.fstype != "tmpfs") or \
                (is_system(mount.mountpoint) and mount.mountpoint != keep):
            continue
        seen.add(mount.mountpoint)
        where = filesystem_on(mount.fstype, mounted.kname, short=True)
        choices.append((Text(f"{mount.mountpoint}{NOTE_OPEN}{where})"), mount.mountpoint))
    return choices


def _parts(entry: str) -> tuple[str, str]:
    """An entry's mountpoint and its note ("ext4 on loop0"; "" for an entry of another shape)."""
    mountpoint, open_, note = entry.partition(NOTE_OPEN)
    return (mountpoint, note.removesuffix(")")) if open_ and note.endswith(")") else (entry, "")


def _last(mountpoint: str) -> str:
    """The least of a mountpoint a cut keeps: "…/" and its last component ("/" and "/srv" whole)."""
    parts = mountpoint.rstrip("/").split("/")
    return mountpoint if len(parts) <= 2 else f"{ELLIPSIS}/{parts[-1]}"


def shortest_entry(entry: str) -> str:
    """The entry with its mountpoint cut to its last component ("…/bench9-tmpfs  (tmpfs: in memory)"): the
    least a menu wants before its note is shortened."""
    mountpoint, note = _parts(entry)
    short = f"{_last(mountpoint)}{NOTE_OPEN}{note})" if note else _last(mountpoint)
    return short if cell_len(short) < cell_len(entry) else entry


def mountpoint_of(entry: str) -> str:
    """The mountpoint an entry names ("/tmp/x" of "/tmp/x  (ext4 on loop0)")."""
    return _parts(entry)[0]


def _type_only(note: str) -> str:
    """A note shortened to the filesystem's type ("ext4" of "ext4 on loop0", "tmpfs" of "tmpfs: in
    memory")."""
    return note.split(":")[0].split(",")[0].split(" on ")[0]


def whole_mountpoint(entry: str) -> str:
    """The shortest form of `entry` with its mountpoint whole: with the filesystem's type alone
    ("/tmp/x  (ext4)"); an entry of another shape, itself."""
    mountpoint, note = _parts(entry)
    return f"{mountpoint}{NOTE_OPEN}{_type_only(note)})" if note else entry


def fit_entry(entry: str, cells: int) -> str:
    """`entry` in `cells`: whole; else its mountpoint whole with the filesystem's type alone ("/tmp/x
    (ext4)": newuser20 #4 read `…/mnt-ext4-discard  (ext4 on loop2)` beside blank cells); else the mountpoint
    cut at a `/` (its last component whole) before the whole note; else with the type alone ("…/shm
    (tmpfs)"); else the mountpoint alone, cut; an entry of another shape is cut at its end, with `…`."""
    if cell_len(entry) <= cells:
        return entry
    mountpoint, note = _parts(entry)
    if not note:
        return fit_end(entry, cells) if not entry.startswith("/") else path_ellipsis(entry, cells)
    if cell_len(whole_mountpoint(entry)) <= cells:
        return whole_mountpoint(entry)
    for shown in (note, _type_only(note)):
        room = cells - cell_len(f"{NOTE_OPEN}{shown})")
        if room >= cell_len(_last(mountpoint)):
            return f"{path_ellipsis(mountpoint, room)}{NOTE_OPEN}{shown})"
    return path_ellipsis(mountpoint, cells)
