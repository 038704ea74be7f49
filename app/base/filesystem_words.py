"""How a benchmark target's filesystem is named in plain words (a leaf: the benchmark models import it)."""

from __future__ import annotations

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
