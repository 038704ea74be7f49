"""Everything the advisor needs beyond the Host and TRIM facts, read once per refresh with sources."""

from __future__ import annotations

from dataclasses import dataclass

from .commands import compsize_command, tune2fs_command
from .data_dirs import DataDir, find_data_dirs
from .facts import Fact
from .host import Host
from .link_power import SataLink, read_apst_limit, read_sata_link
from .queue_tuning import (
    MdGeometry,
    PartitionPlacement,
    QueueTuning,
    read_md_geometry,
    read_partition_placement,
    read_queue_tuning,
)
from .root import Root
from .tool_reports import (
    Compression,
    Ext4Raid,
    read_ceph_version,
    read_compression,
    read_ext4_raid,
    read_os_release,
)

EXT_FILESYSTEMS = ("ext2", "ext3", "ext4")


@dataclass(frozen=True)
class AdviceFacts:
    """Queue tuning, partition placement, md geometry, links, tool reports and data directories."""

    queues: dict[str, QueueTuning]
    partitions: dict[str, PartitionPlacement]
    md: dict[str, MdGeometry]
    sata_links: dict[str, SataLink]
    apst_max_latency_us: Fact[int]
    ext4_raid: dict[str, Fact[Ext4Raid]]
    """By kname, for ext filesystems sitting on (or above) an md array."""
    compression: dict[str, Fact[Compression]]
    """By mountpoint, for btrfs mounts with a compress option."""
    ceph_osd_version: Fact[str]
    os_release: Fact[dict[str, str]]
    data_dirs: list[DataDir]


def _over_md(host: Host, kname: str) -> bool:
    """Whether an md array sits anywhere below `kname`."""
    seen, todo = set(), [kname]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        if host.devices[current].md_level:
            return True
        todo += host.parents(current)
    return False


def tool_targets(host: Host) -> tuple[list[str], list[str]]:
    """Which ext filesystems (knames, on md) get `tune2fs -l` and which btrfs mounts get `compsize`."""
    ext4, btrfs = [], []
    for mounted in host.block_mounts():
        mount, kname = mounted.mount, mounted.kname or ""
        if mount.fstype in EXT_FILESYSTEMS and kname not in ext4 and _over_md(host, kname):
            ext4.append(kname)
        if mount.fstype == "btrfs" and any(o.startswith("compress") for o in mount.options):
            btrfs.append(mount.mountpoint)
    return ext4, btrfs


def tool_commands(host: Host) -> dict[str, list[str]]:
    """The per-device read-only commands the advisor runs, by capture key (a capture records them too)."""
    ext4, btrfs = tool_targets(host)
    commands = dict(tune2fs_command(kname, host.devices[kname].path) for kname in ext4)
    commands.update(compsize_command(point) for point in btrfs)
    return commands


def read_advice_facts(root: Root, host: Host, data_paths: tuple[str, ...] = ()) -> AdviceFacts:
    """Read the advisor's facts for every device and block mount of `host`."""
    devices = host.devices
    links = {k: link for k, d in devices.items() if (link := read_sata_link(root, d)) is not None}
    ext4, btrfs = tool_targets(host)
    ext4_raid = {kname: read_ext4_raid(root, kname, devices[kname].path) for kname in ext4}
    compression = {point: read_compression(root, point) for point in btrfs}
    return AdviceFacts(
        queues={k: read_queue_tuning(root, d) for k, d in devices.items()},
        partitions={k: read_partition_placement(root, d) for k, d in devices.items()
                    if d.kind == "part" and d.partition_number is not None},
        md={k: read_md_geometry(root, d) for k, d in devices.items() if d.md_level},
        sata_links=links,
        apst_max_latency_us=read_apst_limit(root),
        ext4_raid=ext4_raid,
        compression=compression,
        ceph_osd_version=read_ceph_version(root),
        os_release=read_os_release(root),
        data_dirs=find_data_dirs(root, [m.mount.mountpoint for m in host.block_mounts()], data_paths),
    )
