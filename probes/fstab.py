"""/etc/fstab entries: which mountpoints are listed (fstrim.service trims only those) and their options."""

from __future__ import annotations

from dataclasses import dataclass

from .mountinfo import unescape_octal
from .root import Root

FSTAB = "etc/fstab"


@dataclass(frozen=True, slots=True)
class FstabEntry:
    """One fstab line."""

    spec: str
    mountpoint: str
    fstype: str
    options: tuple[str, ...]


def parse_fstab(text: str) -> list[FstabEntry]:
    """Entries of an fstab; malformed lines are skipped, never raised on."""
    entries = []
    for line in text.splitlines():
        fields = line.split()
        if len(fields) < 2 or fields[0].startswith("#"):
            continue
        options = tuple(fields[3].split(",")) if len(fields) > 3 else ("defaults",)
        entries.append(FstabEntry(unescape_octal(fields[0]), unescape_octal(fields[1]).rstrip("/") or "/",
                                  fields[2] if len(fields) > 2 else "auto", options))
    return entries


def read_fstab(root: Root) -> tuple[list[FstabEntry] | None, str]:
    """(entries, source); entries is None when there is no fstab at all."""
    text, _ = root.read_text(FSTAB)
    return (parse_fstab(text) if text is not None else None), root.host_path(FSTAB)
