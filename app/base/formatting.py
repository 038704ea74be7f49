"""Human-readable sizes and values, in lsblk's style (1024-based, one decimal)."""

from __future__ import annotations

from diskdoctor.app.base.units import significant

UNITS = ("B", "K", "M", "G", "T", "P", "E")


def human_bytes(count: int | None, *, fixed: bool = False) -> str:
    """1024-based size like lsblk: 0B, 512B, 4K, 1.5G, 256G; "?" when unknown. `fixed` keeps the one
    decimal ("279.0M" above "302.6M", for a table column that reads one way on every row)."""
    if count is None:
        return "?"
    value, unit = float(count), 0
    while value >= 1024 and unit < len(UNITS) - 1:
        value /= 1024
        unit += 1
    if unit == 0:
        return f"{count}B"
    text = f"{value:.1f}"
    if not fixed:
        return f"{text.rstrip('0').rstrip('.')}{UNITS[unit]}"
    if text.startswith("1024") and unit < len(UNITS) - 1:  # 1023.96K rounds to the next unit's 1.0
        text, unit = "1.0", unit + 1
    return f"{text}{UNITS[unit]}"


def yes_no(value: bool | None) -> str:
    """yes/no/? for a boolean fact."""
    return "?" if value is None else ("yes" if value else "no")


def binary_size(count: int) -> str:
    """A byte count for people, 1024-based with three significant digits: "512 B", "4 KiB", "2.25 KiB"."""
    for unit, scale in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= scale:
            if count % scale == 0:
                return f"{count // scale:,} {unit}"
            return f"{significant(count / scale)} {unit}"
    return f"{count:,} B"


def counted(count: int, word: str, plural: str | None = None) -> str:
    """A count with its noun in the right number: "1 run", "2 runs", "1 TRIM verdict"."""
    return f"{count:,} {word if count == 1 else (plural or word + 's')}"


def with_article(word: str) -> str:
    """"a wal", "an interference": the indefinite article a reader expects before `word`."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


IN_MEMORY = frozenset({"tmpfs", "ramfs"})
"""Filesystems whose files live in memory, with no disk under them."""


def filesystem_on(fstype: str, device: str | None, *, short: bool = False) -> str:
    """What a filesystem sits on, in plain words: "ext4 on dm-2", "tmpfs: in memory, no disk under it"
    ("tmpfs: in memory" `short`, for a menu), "nfs4: no block device under it"."""
    if device:
        return f"{fstype} on {device}"
    if fstype in IN_MEMORY:
        return f"{fstype}: in memory" + ("" if short else ", no disk under it")
    return f"{fstype}: no block device" + ("" if short else " under it")
