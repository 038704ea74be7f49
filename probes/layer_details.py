"""Every performance-relevant attribute of one layer, read on demand, each with its source."""

from __future__ import annotations

from dataclasses import dataclass

from .blockdev import BlockDevice
from .device_kinds import describe_dm, scsi_host_of
from .facts import Fact
from .fs_usage import read_fs_usage
from .host import Host
from .root import FILE_MISSING, Root

ROTATIONAL_CAVEAT = "virtio and loop devices say yes (rotational=1) even on flash: do not infer an HDD"


@dataclass(frozen=True, slots=True)
class Detail:
    """One labelled fact in the details panel, with an optional caveat."""

    label: str
    fact: Fact
    note: str | None = None


@dataclass(frozen=True, slots=True)
class DetailSection:
    """A titled group of details (Identity, Queue, md RAID, ...)."""

    title: str
    details: tuple[Detail, ...]


def _given(label: str, value: object, source: str, note: str | None = None) -> Detail:
    return Detail(label, Fact(value, source), note)


def type_source(device: BlockDevice) -> str:
    """Which file decides a device's lsblk TYPE."""
    base = f"/sys/block/{device.kname}"
    if device.kind == "part" and device.dm_uuid is None:
        return f"/sys/class/block/{device.kname}/partition"
    if device.dm_uuid is not None or device.kname.startswith("dm-"):
        return f"{base}/dm/uuid (prefix)"
    if device.md_level is not None:
        return f"{base}/md/level"
    if device.kind == "loop":
        return f"{base}/loop/"
    return f"{base}/device/type (SCSI type; disk unless 5 = rom)"


def _disk_of(host: Host, device: BlockDevice) -> str:
    """The whole disk a partition belongs to (its vendor and model live there); else the device itself."""
    if device.kind == "part" and device.dm_uuid is None:
        parents = host.parents(device.kname)
        if parents:
            return parents[0]
    return device.kname


def _vendor(root: Root, device: BlockDevice, base: str) -> Fact[str]:
    """A disk's vendor: only SCSI-family disks have one; a missing file is said as missing, not as
    a wrong kind of disk (a SCSI disk on an unrecognised bus, such as scsi_debug, is still SCSI)."""
    scsi = (device.transport.value in ("sata", "sas", "usb", "fc", "iscsi", "spi", "ata")
            or scsi_host_of(root.readlink(f"{base}/device")) is not None)
    if not scsi:
        return Fact(None, f"/{base}/device/vendor", "only SCSI-family disks report a vendor")
    vendor = root.fact_str(f"{base}/device/vendor")
    if vendor.value is None and vendor.why_unknown == FILE_MISSING:
        why = "not reported by the device" if root.live else "not in the capture"
        return Fact(None, vendor.source, why)
    return vendor


def _identity(host: Host, device: BlockDevice, root: Root) -> DetailSection:
    rot_note = ROTATIONAL_CAVEAT if device.transport.value in ("virtio", "loop") else None
    base = f"sys/block/{_disk_of(host, device)}"
    vendor = _vendor(root, device, base)
    entry = f"/sys/class/block/{device.kname}"
    name_source = f"/sys/block/{device.kname}/dm/name" if device.dm_name else entry
    path_rule = "device-mapper naming" if device.dm_name else "kernel naming"
    rows = [
        _given("name", device.name, name_source),
        _given("kernel name", device.kname, entry),
        _given("path", device.path, f"{path_rule}: {device.path}"),
        _given("type", device.kind, type_source(device)),
        Detail("maj:min", device.maj_min),
        Detail("size (bytes)", device.size_bytes),
        Detail("read-only", device.read_only),
        Detail("removable", device.removable),
        Detail("model", device.model),
        Detail("vendor", vendor),
        Detail("serial", device.serial),
        Detail("transport", device.transport),
        Detail("rotational", device.rotational, rot_note),
        Detail("filesystem type", device.fstype),
        _given("mountpoints", ", ".join(host.mountpoints(device.kname)) or "(none)",
               "/proc/self/mountinfo, /proc/swaps"),
    ]
    return DetailSection("Identity", tuple(rows))


def _queue(device: BlockDevice, root: Root) -> DetailSection:
    q = f"{device.queue_dir}/queue"
    inherited = " (of parent disk)" if device.kind == "part" else ""
    available = root.fact_str(f"{q}/scheduler", empty_means="empty: no I/O scheduler (bio-based)")
    rows = [
        Detail("scheduler (active)", device.scheduler),
        Detail("schedulers available", available),
        Detail("nr_requests", root.fact_int(f"{q}/nr_requests")),
        Detail("read_ahead_kb", root.fact_int(f"{q}/read_ahead_kb")),
        Detail("write_cache", root.fact_str(f"{q}/write_cache"),
               "never toggle in sysfs: it only changes the kernel's view and stops flushes"),
        Detail("fua", root.fact_bool(f"{q}/fua")),
        Detail("logical_block_size", root.fact_int(f"{q}/logical_block_size")),
        Detail("physical_block_size", root.fact_int(f"{q}/physical_block_size")),
        Detail("minimum_io_size", root.fact_int(f"{q}/minimum_io_size")),
        Detail("optimal_io_size", root.fact_int(f"{q}/optimal_io_size")),
        Detail("alignment_offset", root.fact_int(f"sys/class/block/{device.kname}/alignment_offset",
                                                 signed=True)),
        Detail("discard_granularity", device.discard_granularity),
        Detail("discard_max_bytes", device.discard_max_bytes,
               "0 means this layer accepts no discard (TRIM)"),
        Detail("discard_max_hw_bytes", device.discard_max_hw_bytes),
        Detail("discard_alignment", device.discard_alignment),
        Detail("max_sectors_kb", root.fact_int(f"{q}/max_sectors_kb")),
        Detail("zoned", root.fact_str(f"{q}/zoned")),
        Detail("wbt_lat_usec", root.fact_int(f"{q}/wbt_lat_usec")),
    ]
    return DetailSection("Queue" + inherited, tuple(rows))


def _md(device: BlockDevice, host: Host, root: Root) -> DetailSection:
    md = f"sys/block/{device.kname}/md"
    chunk = root.fact_int(f"{md}/chunk_size")
    chunk_note = None if device.md_level in ("raid0", "raid4", "raid5", "raid6", "raid10") else \
        "only meaningful for raid0/4/5/6/10"
    rows = [
        Detail("level", root.fact_str(f"{md}/level")),
        Detail("chunk size (bytes)", chunk, chunk_note),
        Detail("raid disks", root.fact_int(f"{md}/raid_disks")),
        Detail("array state", root.fact_str(f"{md}/array_state")),
        Detail("degraded", root.fact_int(f"{md}/degraded")),
        Detail("sync action", root.fact_str(f"{md}/sync_action")),
        _given("members", ", ".join(host.parents(device.kname)) or "(none)",
               f"/sys/block/{device.kname}/slaves"),
    ]
    return DetailSection("md RAID", tuple(rows))


def _dm(device: BlockDevice, host: Host) -> DetailSection:
    meaning = describe_dm(device.dm_name or device.kname, device.dm_uuid)
    base = f"/sys/block/{device.kname}/dm"
    rows = [
        _given("dm name", device.dm_name, f"{base}/name"),
        Detail("dm uuid", Fact(device.dm_uuid, f"{base}/uuid",
                               None if device.dm_uuid else "empty: created without a UUID")),
        _given("meaning", meaning.summary, f"{base}/uuid prefix"),
    ]
    if meaning.vg_name is not None:
        rows += [_given("volume group", meaning.vg_name, f"{base}/name"),
                 _given("logical volume", meaning.lv_name, f"{base}/name")]
    if meaning.crypt_type is not None:
        rows.append(_given("crypt type", meaning.crypt_type, f"{base}/uuid"))
    rows.append(_given("lower layers", ", ".join(host.parents(device.kname)) or "(none)",
                       f"/sys/block/{device.kname}/slaves"))
    return DetailSection("device-mapper", tuple(rows))


def _loop(device: BlockDevice, root: Root) -> DetailSection:
    loop = f"sys/block/{device.kname}/loop"
    rows = [
        Detail("backing file", device.loop_backing_file or root.fact_str(f"{loop}/backing_file")),
        Detail("offset (bytes)", root.fact_int(f"{loop}/offset")),
        Detail("size limit (bytes)", root.fact_int(f"{loop}/sizelimit")),
        Detail("direct I/O", root.fact_bool(f"{loop}/dio")),
        Detail("autoclear", root.fact_bool(f"{loop}/autoclear")),
    ]
    return DetailSection("loop", tuple(rows))


def _partition(device: BlockDevice, root: Root) -> DetailSection:
    base = f"sys/class/block/{device.kname}"
    rows = [
        Detail("partition number", root.fact_int(f"{base}/partition")),
        Detail("start (bytes)", root.fact_int(f"{base}/start", scale=512)),
        Detail("alignment_offset", root.fact_int(f"{base}/alignment_offset", signed=True),
               "non-zero means the partition is misaligned"),
        _given("disk", device.parents[0] if device.parents else None, f"/{base}/.."),
    ]
    return DetailSection("partition", tuple(rows))


def _filesystems(host: Host, device: BlockDevice, root: Root) -> list[DetailSection]:
    sections = []
    for mounted in host.mounts:
        if mounted.kname != device.kname:
            continue
        mount = mounted.mount
        usage = read_fs_usage(root, mount.mountpoint)
        src = "/proc/self/mountinfo"
        rows = (
            _given("type", mount.fstype, src),
            _given("source", mount.source, src),
            _given("mount options", ",".join(mount.mount_options), src + " (per-mount)"),
            _given("super options", ",".join(mount.super_options), src + " (superblock)"),
            _given("root within fs", mount.fs_root, src),
            Detail("size (bytes)", usage.size_bytes),
            Detail("used (bytes)", usage.used_bytes),
            Detail("free (bytes)", usage.free_bytes, "available to unprivileged users"),
        )
        sections.append(DetailSection(f"filesystem on {mount.mountpoint}", rows))
    return sections


def read_layer_details(root: Root, host: Host, kname: str) -> list[DetailSection]:
    """All detail sections for one device; unknown values carry the reason."""
    device = host.devices[kname]
    sections = [_identity(host, device, root), _queue(device, root)]
    if device.kind == "part" and device.partition_number is not None:
        sections.append(_partition(device, root))
    if device.md_level is not None or device.kname.startswith("md"):
        sections.append(_md(device, host, root))
    if device.kname.startswith("dm-"):
        sections.append(_dm(device, host))
    if device.kind == "loop":
        sections.append(_loop(device, root))
    sections += _filesystems(host, device, root)
    return sections
