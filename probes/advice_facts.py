"""Everything the advisor needs beyond the Host and TRIM facts, read once per refresh with sources."""

from __future__ import annotations

from dataclasses import dataclass

from .commands import compsize_command, tune2fs_command
from .data_dirs import DataDir, find_data_dirs
from .device_cache import CacheReport, cache_commands, read_cache_reports
from .facts import Fact
from .host import Host
from .kernel_log import ARGV as DMESG_ARGV
from .kernel_log import KEY as DMESG_KEY
from .kernel_log import read_nvme_trouble
from .link_power import LinkPower, SataLink, read_apst_limit, read_link_power, read_sata_link
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
    read_fio_version,
    read_os_release,
)

EXT_FILESYSTEMS = ("ext2", "ext3", "ext4")


@dataclass(frozen=True)
class AdviceFacts:
    """Queue tuning, partition placement, md geometry, links, drive caches, tool reports, the kernel log's
    NVMe trouble and data directories."""

    queues: dict[str, QueueTuning]
    partitions: dict[str, PartitionPlacement]
    md: dict[str, MdGeometry]
    sata_links: dict[str, SataLink]
    apst_max_latency_us: Fact[int]
    link_power: dict[str, LinkPower]
    """By kname, for whole disks on an ATA port: the ALPM policy of their SCSI host."""
    cache_reports: dict[str, list[CacheReport]]
    """By kname, for whole disks whose queue says write through: what the drive itself says."""
    nvme_trouble: Fact[list[str]]
    """NVMe reset / controller-down lines of the kernel log."""
    fio_version: Fact[str]
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
    """The per-device read-only commands the advisor runs, by capture key (a capture records them too: the
    drive-cache questions for every disk, and the kernel log's NVMe lines)."""
    ext4, btrfs = tool_targets(host)
    commands = dict(tune2fs_command(kname, host.devices[kname].path) for kname in ext4)
    commands.update(compsize_command(point) for point in btrfs)
    for kname, device in host.devices.items():
        commands.update(cache_commands(kname, device))
    commands[DMESG_KEY] = DMESG_ARGV
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
        link_power={k: power for k, d in devices.items() if (power := read_link_power(root, d)) is not None},
        cache_reports={k: reports for k, d in devices.items() if (reports := read_cache_reports(root, d))},
        nvme_trouble=read_nvme_trouble(root) if any(d.transport.value == "nvme" for d in devices.values())
        else Fact(None, "command: dmesg", "no NVMe devices"),
        fio_version=read_fio_version(root),
        ext4_raid=ext4_raid,
        compression=compression,
        ceph_osd_version=read_ceph_version(root),
        os_release=read_os_release(root),
        data_dirs=find_data_dirs(root, [m.mount.mountpoint for m in host.block_mounts()], data_paths),
    )
