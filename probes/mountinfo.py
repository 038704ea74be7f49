"""Parse /proc/self/mountinfo into mounts with per-mount and superblock options."""

from __future__ import annotations

from dataclasses import dataclass

from .host_text import reads_as_escape, visible
from .root import Root

MOUNTINFO = "proc/self/mountinfo"
PROC_MOUNTS = "proc/mounts"
"""The fallback on kernels before 2.6.26, which have no mountinfo: no MAJ:MIN, devices found by source."""


@dataclass(frozen=True, slots=True)
class Mount:
    """One line of mountinfo: where, what, and with which options."""

    mount_id: int
    maj_min: str
    fs_root: str
    mountpoint: str
    mount_options: tuple[str, ...]
    fstype: str
    source: str
    super_options: tuple[str, ...]

    @property
    def options(self) -> tuple[str, ...]:
        """Per-mount and superblock options together, as /proc/mounts shows them."""
        merged = list(self.mount_options)
        merged += [opt for opt in self.super_options if opt not in merged]
        return tuple(merged)


def unescape_octal(field: str) -> str:
    """Undo mountinfo's octal escapes (\\040 for space and friends); a decoded control character
    (a newline in a mountpoint, or a planted \\033) stays a visible escape, written exactly as
    host_text.shown writes it (so host_text.real_text gives the real name back)."""
    if "\\" not in field:
        return field
    out, i = [], 0
    while i < len(field):
        chunk = field[i : i + 4]
        if len(chunk) == 4 and chunk[0] == "\\" and all(c in "01234567" for c in chunk[1:]):
            char = chr(int(chunk[1:], 8))
            out.append("\\x5c" if reads_as_escape(char + field[i + 4 :]) else visible(char))
            i += 4
        else:
            out.append(field[i])
            i += 1
    return "".join(out)


def parse_mountinfo_line(line: str) -> Mount | None:
    """One mountinfo line, or None when it is malformed."""
    left, sep, right = line.partition(" - ")
    if not sep:
        return None
    fields, tail = left.split(), right.split()
    if len(fields) < 6 or len(tail) < 2:
        return None
    try:
        mount_id = int(fields[0])
    except ValueError:
        return None
    return Mount(
        mount_id=mount_id,
        maj_min=fields[2],
        fs_root=unescape_octal(fields[3]),
        mountpoint=unescape_octal(fields[4]),
        mount_options=tuple(fields[5].split(",")),
        fstype=tail[0],
        source=unescape_octal(tail[1]),
        super_options=tuple(tail[2].split(",")) if len(tail) > 2 else (),
    )


def parse_mountinfo(text: str) -> list[Mount]:
    """All well-formed mounts in mountinfo text, in file order."""
    mounts = (parse_mountinfo_line(line) for line in text.splitlines())
    return [mount for mount in mounts if mount is not None]


def parse_proc_mounts(text: str) -> list[Mount]:
    """/proc/mounts lines (source, mountpoint, type, options): mounts without MAJ:MIN or sb options."""
    mounts = []
    for number, line in enumerate(text.splitlines(), start=1):
        fields = line.split()
        if len(fields) < 4:
            continue
        mounts.append(Mount(mount_id=number, maj_min="", fs_root="/", mountpoint=unescape_octal(fields[1]),
                            mount_options=tuple(fields[3].split(",")), fstype=fields[2],
                            source=unescape_octal(fields[0]), super_options=()))
    return mounts


def read_mounts(root: Root) -> tuple[list[Mount], str | None, str]:
    """The mounts under `root`, why they cannot be read (else None), and the file they came from:
    mountinfo, or /proc/mounts on a kernel older than mountinfo (2.6.26)."""
    text, why = root.read_text(MOUNTINFO)
    if text is not None:
        return parse_mountinfo(text), None, MOUNTINFO
    old_text, _ = root.read_text(PROC_MOUNTS)
    if old_text is not None:
        return parse_proc_mounts(old_text), None, PROC_MOUNTS
    return [], why, MOUNTINFO
