"""Read block devices from sysfs (found like lsblk does) with the attributes the stack view needs."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .blkid import read_blkid
from .block_names import BlockEntry, block_entries
from .device_kinds import SCSI_TYPE_ROM, lsblk_type_from_dm_uuid, transport_from_sysfs_path
from .facts import Fact
from .root import Root
from .udev import read_udev_properties, udev_data_path

RAM_MAJOR = "1"


@dataclass(frozen=True, slots=True)
class BlockDevice:
    """One block device and the facts shown in the tree; details are read on demand elsewhere."""

    kname: str
    name: str
    path: str
    kind: str
    sys_dir: str
    queue_dir: str
    maj_min: Fact[str]
    size_bytes: Fact[int]
    read_only: Fact[bool]
    removable: Fact[bool]
    rotational: Fact[bool]
    scheduler: Fact[str]
    discard_granularity: Fact[int]
    discard_max_bytes: Fact[int]
    discard_max_hw_bytes: Fact[int]
    discard_alignment: Fact[int]
    model: Fact[str]
    serial: Fact[str]
    transport: Fact[str]
    fstype: Fact[str]
    parents: tuple[str, ...] = ()
    holders: tuple[str, ...] = ()
    partition_number: int | None = None
    dm_name: str | None = None
    dm_uuid: str | None = None
    md_level: str | None = None
    loop_backing_file: Fact[str] | None = None
    udev: dict[str, str] = field(default_factory=dict)

    @property
    def accepts_discard(self) -> bool | None:
        """Whether this layer passes discard down (discard_max_bytes > 0); None when unknown."""
        value = self.discard_max_bytes.value
        return None if value is None else value > 0


def active_scheduler(text: str) -> str:
    """The bracketed scheduler in a queue/scheduler line ("none [mq-deadline]" -> mq-deadline)."""
    if "[" in text and "]" in text:
        return text[text.index("[") + 1 : text.index("]")]
    return text.strip()


def _scheduler(root: Root, queue_dir: str) -> Fact[str]:
    fact = root.fact_str(f"{queue_dir}/queue/scheduler",
                         empty_means="empty: bio-based device without an I/O scheduler")
    return replace(fact, value=active_scheduler(fact.value)) if fact.value else fact


def _identity(root: Root, base: str, real_dir: str, udev: dict[str, str],
              maj_min: str) -> tuple[Fact, Fact]:
    """Model and serial of a whole disk from sysfs, falling back to the udev database."""
    model = root.fact_str(f"{base}/device/model")
    serial = root.fact_str(f"{base}/device/serial")
    if serial.value is None and "/virtio" in real_dir:
        serial = root.fact_str(f"{base}/serial")
    if model.value is None and udev.get("ID_MODEL"):
        model = Fact(udev["ID_MODEL"], "/" + udev_data_path(maj_min) + " (ID_MODEL)")
    if serial.value is None and udev.get("ID_SERIAL_SHORT"):
        serial = Fact(udev["ID_SERIAL_SHORT"], "/" + udev_data_path(maj_min) + " (ID_SERIAL_SHORT)")
    if model.value is None:
        model = replace(model, why_unknown="not reported by the driver; udev has no ID_MODEL")
    if serial.value is None:
        serial = replace(serial, why_unknown="not exposed in sysfs; udev has no ID_SERIAL_SHORT")
    return model, serial


def _whole_disk_kind(root: Root, kname: str, base: str, real_dir: str) -> tuple[str, dict]:
    """lsblk TYPE and type-specific facts of a device that is not a partition."""
    extra: dict = {}
    if kname.startswith("dm-"):
        dm_name, _ = root.read_attr(f"{base}/dm/name")
        dm_uuid, _ = root.read_attr(f"{base}/dm/uuid")
        extra.update(dm_name=dm_name or kname, dm_uuid=dm_uuid or None)
        return lsblk_type_from_dm_uuid(dm_uuid), extra
    if kname.startswith("md"):
        level, _ = root.read_attr(f"{base}/md/level")
        extra["md_level"] = level or None
        return (level or "md"), extra
    if kname.startswith("loop"):
        extra["loop_backing_file"] = root.fact_str(f"{base}/loop/backing_file")
        return "loop", extra
    if "/virtual/" not in real_dir:
        scsi_type, _ = root.read_attr(f"{base}/device/type")
        if scsi_type == SCSI_TYPE_ROM:
            return "rom", extra
    return "disk", extra


def _read_whole(root: Root, entry: BlockEntry, use_udev: bool, signatures: Signatures) -> BlockDevice:
    kname, base, real_dir = entry.kname, entry.base, entry.real_dir
    maj_min = root.fact_str(f"{base}/dev")
    udev = read_udev_properties(root, maj_min.value) if (use_udev and maj_min.value) else {}
    kind, extra = _whole_disk_kind(root, kname, base, real_dir)
    virtual = "/virtual/" in real_dir
    if virtual:
        why = "virtual device: no hardware identity"
        model, serial = Fact(None, f"/{base}/device/model", why), Fact(None, f"/{base}/device/serial", why)
    else:
        model, serial = _identity(root, base, real_dir, udev, maj_min.value or "?")
    transport, why_transport = transport_from_sysfs_path(kname, real_dir)
    if kind in ("lvm", "crypt", "mpath", "dm", "part") or extra.get("md_level"):
        why_transport = "stacked device: see the layers below"
    dm_name = extra.get("dm_name")
    return BlockDevice(
        kname=kname,
        name=dm_name or kname,
        path=f"/dev/mapper/{dm_name}" if dm_name else f"/dev/{kname}",
        kind=kind,
        sys_dir=real_dir,
        queue_dir=base,
        maj_min=maj_min,
        size_bytes=root.fact_int(f"{base}/size", scale=512),
        read_only=root.fact_bool(f"{base}/ro"),
        removable=root.fact_bool(f"{base}/removable"),
        rotational=root.fact_bool(f"{base}/queue/rotational"),
        scheduler=_scheduler(root, base),
        discard_granularity=root.fact_int(f"{base}/queue/discard_granularity"),
        discard_max_bytes=root.fact_int(f"{base}/queue/discard_max_bytes"),
        discard_max_hw_bytes=root.fact_int(f"{base}/queue/discard_max_hw_bytes"),
        discard_alignment=root.fact_int(f"{base}/discard_alignment"),
        model=model,
        serial=serial,
        transport=Fact(transport, f"sysfs path {real_dir.removeprefix('sys/')}", why_transport),
        fstype=signatures.fstype(kname, maj_min.value, udev),
        parents=tuple(root.listdir(f"{base}/slaves") or ()),
        holders=tuple(root.listdir(f"{base}/holders") or ()),
        udev=udev,
        **extra,
    )


def _read_partition(root: Root, entry: BlockEntry, disk: BlockDevice, use_udev: bool,
                    signatures: Signatures) -> BlockDevice:
    kname, base, real_dir = entry.kname, entry.base, entry.real_dir
    number = entry.partition or root.fact_int(f"{base}/partition")
    maj_min = root.fact_str(f"{base}/dev")
    udev = read_udev_properties(root, maj_min.value) if (use_udev and maj_min.value) else {}
    return replace(
        disk,
        kname=kname,
        name=kname,
        path=f"/dev/{kname}",
        kind="part",
        sys_dir=real_dir,
        maj_min=maj_min,
        size_bytes=root.fact_int(f"{base}/size", scale=512),
        read_only=root.fact_bool(f"{base}/ro"),
        discard_alignment=root.fact_int(f"{base}/discard_alignment"),
        fstype=signatures.fstype(kname, maj_min.value, udev),
        parents=(disk.kname,),
        holders=tuple(root.listdir(f"{base}/holders") or ()),
        partition_number=number.value,
        dm_name=None,
        dm_uuid=None,
        md_level=None,
        loop_backing_file=None,
        udev=udev,
    )


@dataclass(frozen=True)
class Signatures:
    """Filesystem signatures from blkid, read once before the devices so each device is built once."""

    blkid: dict[str, dict[str, str]]
    source: str
    why_unknown: str | None

    def fstype(self, kname: str, maj_min: str | None, udev: dict[str, str]) -> Fact[str]:
        """udev's ID_FS_TYPE, else blkid's TYPE, else why it is unknown."""
        if udev.get("ID_FS_TYPE"):
            return Fact(udev["ID_FS_TYPE"], f"/{udev_data_path(maj_min or '?')} (ID_FS_TYPE)")
        props = self.blkid.get(kname)
        if props and props.get("TYPE"):
            return Fact(props["TYPE"], self.source)
        if props is not None or self.why_unknown is None:
            return Fact(None, self.source, "no filesystem signature found")
        return Fact(None, self.source, self.why_unknown)


def read_block_devices(root: Root, *, include_empty: bool = False) -> dict[str, BlockDevice]:
    """All block devices under `root`, keyed by kernel name; unattached loops and RAM disks are
    skipped unless `include_empty` (lsblk's default filter)."""
    entries = block_entries(root)
    use_udev = root.is_dir("run/udev/data")
    blkid, blkid_output = read_blkid(root)
    signatures = Signatures(blkid, blkid_output.source, blkid_output.why_unknown)
    whole = {name: _read_whole(root, entry, use_udev, signatures)
             for name, entry in entries.items() if entry.disk is None}
    devices = dict(whole)
    for name, entry in entries.items():
        if entry.disk is not None and entry.disk in whole:
            devices[name] = _read_partition(root, entry, whole[entry.disk], use_udev, signatures)
    if not include_empty:
        devices = {k: d for k, d in devices.items() if _shown_by_default(d)}
    return devices


def _shown_by_default(device: BlockDevice) -> bool:
    """lsblk hides unattached loop devices (size 0) and RAM disks unless --all."""
    if device.kind == "loop" and device.size_bytes.value == 0:
        return False
    return not (device.maj_min.value or "").startswith(RAM_MAJOR + ":")
