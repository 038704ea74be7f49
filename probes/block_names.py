"""Find every block device in a sysfs tree the way lsblk does, whichever of its indexes the root has."""

from __future__ import annotations

import os
from dataclasses import dataclass

from .facts import Fact
from .root import Root

SYS_BLOCK = "sys/block"
CLASS_BLOCK = "sys/class/block"
DEV_BLOCK = "sys/dev/block"


@dataclass(frozen=True, slots=True)
class BlockEntry:
    """Where one block device's attributes live under the root, and its disk when it is a partition."""

    kname: str
    base: str
    """The directory its attributes are read from (sys/block/X, sys/class/block/X, or another index)."""
    real_dir: str
    """Its sysfs device directory with links followed (the bus shows in this path)."""
    disk: str | None = None
    partition: Fact[int] | None = None
    """The partition number as read while telling partitions apart (so it is read once)."""


def _real(root: Root, rel: str) -> str:
    link = root.readlink(rel)
    if link is None:
        return rel
    return os.path.normpath(os.path.join(os.path.dirname(rel), link))


def _partition(root: Root, rel: str) -> Fact[int] | None:
    """The partition number file of a subdirectory, or None when it is not a partition."""
    number = root.fact_int(f"{rel}/partition")
    return number if number.value is not None else None


def block_entries(root: Root) -> dict[str, BlockEntry]:
    """Whole disks from sys/block with their partition subdirectories (old kernels keep only these),
    then anything more in sys/class/block and sys/dev/block."""
    entries: dict[str, BlockEntry] = {}
    class_names = set(root.listdir(CLASS_BLOCK) or ())
    for name in root.listdir(SYS_BLOCK) or ():
        base = f"{SYS_BLOCK}/{name}"
        entries[name] = BlockEntry(name, base, _real(root, base))
        for sub in root.listdir(base) or ():
            fresh = sub.startswith(name) and sub not in entries
            number = _partition(root, f"{base}/{sub}") if fresh else None
            if number is not None:
                part_base = f"{CLASS_BLOCK}/{sub}" if sub in class_names else f"{base}/{sub}"
                entries[sub] = BlockEntry(sub, part_base, f"{entries[name].real_dir}/{sub}", name, number)
    indexed = [(name, f"{CLASS_BLOCK}/{name}") for name in sorted(class_names)]
    indexed += [(None, f"{DEV_BLOCK}/{number}") for number in root.listdir(DEV_BLOCK) or ()]
    for known_name, rel in indexed:
        real_dir = _real(root, rel)
        name = known_name or os.path.basename(real_dir)
        if name in entries:
            continue
        parent = os.path.basename(os.path.dirname(real_dir))
        if parent != name and (parent in entries or parent in class_names):
            entries[name] = BlockEntry(name, rel, real_dir, parent)
        else:
            entries[name] = BlockEntry(name, rel, real_dir)
    return entries
