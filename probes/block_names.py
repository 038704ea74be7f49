"""Find every block device in a sysfs tree the way lsblk does, whichever of its indexes the root has."""

from __future__ import annotations

import os
from dataclasses import dataclass

from .facts import Fact
from .root import Root

SYS_BLOCK = "sys/block"
CLASS_BLOCK = "sys/class/block"
DEV_BLOCK = "sys/dev/block"
NUMBER_FROM_NAME = "start and the name (no partition file before Linux 2.6.28)"


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


def partition_suffix(disk: str, name: str) -> str | None:
    """The number part of a partition's name ("2" for sda2, nvme0n1p2), or None when `name` is not
    named like a partition of `disk`: util-linux's rule (sysfs_blkdev_is_partition_dirent), since the
    kernel names them "<disk><N>", or "<disk>p<N>" when the disk's name ends in a digit."""
    if len(name) <= len(disk) or not name.startswith(disk):
        return None
    rest = name[len(disk):]
    if rest[0] == "p" and rest[1:2].isdigit():
        rest = rest[1:]
    digits = rest[: len(rest) - len(rest.lstrip("0123456789"))]
    return digits or None


def partition_number(root: Root, rel: str, disk: str, name: str | None = None) -> Fact[int] | None:
    """The partition number of device `name` (by default the last part of `rel`, its directory) under
    `disk`, or None when it is no partition. The `partition` file says so from 2.6.28 on; older
    kernels have only `start` (lsblk: "Cannot use /partition file, not supported on old sysfs"), so
    then the name gives the number."""
    suffix = partition_suffix(disk, name or os.path.basename(rel))
    if suffix is None:
        return None
    number = root.fact_int(f"{rel}/partition")
    if number.value is not None:
        return number
    if root.fact_int(f"{rel}/start").value is None:
        return None
    return Fact(int(suffix), f"{root.host_path(rel)}: {NUMBER_FROM_NAME}")


def is_hidden(root: Root, name: str) -> bool:
    """A device the kernel marks hidden (sys/block/X/hidden is 1, e.g. an NVMe multipath path):
    lsblk never lists these (sysfs_devname_is_hidden)."""
    return root.fact_int(f"{SYS_BLOCK}/{name}/hidden").value == 1


def add_disk_entries(root: Root, name: str, class_names: set[str], entries: dict[str, BlockEntry]) -> None:
    """Add sys/block/`name` to `entries` (unless it is hidden), and its partitions after it: called for
    every disk of sys/block (old kernels keep only these), then `add_indexed_entries`, as lsblk looks."""
    base = f"{SYS_BLOCK}/{name}"
    subs = root.listdir(base)
    if (subs is None or "hidden" in subs) and is_hidden(root, name):  # no file: not hidden
        return
    entries[name] = BlockEntry(name, base, _real(root, base))
    for sub in subs or ():  # only a name that starts with the disk's can be a partition of it
        number = partition_number(root, f"{base}/{sub}", name, sub) \
            if sub.startswith(name) and sub not in entries else None
        if number is not None:
            part_base = f"{CLASS_BLOCK}/{sub}" if sub in class_names else f"{base}/{sub}"
            entries[sub] = BlockEntry(sub, part_base, f"{entries[name].real_dir}/{sub}", name, number)


def dev_block_links(root: Root) -> dict[str, str]:
    """Each sys/dev/block entry (in listing order) with its link followed, as `add_indexed_entries` reads
    them: a split read takes them while its children finish (5,000 links at 5,000 devices)."""
    rels = [f"{DEV_BLOCK}/{number}" for number in root.listdir(DEV_BLOCK) or ()]
    return {rel: _real(root, rel) for rel in rels}


def add_indexed_entries(root: Root, entries: dict[str, BlockEntry], class_names: set[str],
                        disks: list[str], dev_links: dict[str, str] | None = None) -> None:
    """Add the devices sys/class/block and sys/dev/block list that sys/block (`disks`) did not give
    (`dev_links`: sys/dev/block as `dev_block_links` read it already)."""
    in_sys_block = set(disks)
    links = dev_block_links(root) if dev_links is None else dev_links
    indexed: list[tuple[str | None, str]] = [(name, f"{CLASS_BLOCK}/{name}") for name in sorted(class_names)]
    indexed += [(None, rel) for rel in links]
    for known_name, rel in indexed:
        if known_name in entries:  # found under sys/block already: its link need not be read again
            continue
        real_dir = links.get(rel) or _real(root, rel)
        name = known_name or os.path.basename(real_dir)
        if name in entries or (name in in_sys_block and is_hidden(root, name)):  # only sys/block has it
            continue
        parent = os.path.basename(os.path.dirname(real_dir))
        if parent != name and (parent in entries or parent in class_names):
            number = partition_number(root, rel, parent, name)
            entries[name] = BlockEntry(name, rel, real_dir, parent, number)
        else:
            entries[name] = BlockEntry(name, rel, real_dir)
