"""Read block devices from sysfs (found like lsblk does) with the attributes the stack view needs."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields, replace
from operator import attrgetter

from .blkid import read_blkid
from .block_names import (
    CLASS_BLOCK,
    SYS_BLOCK,
    BlockEntry,
    add_disk_entries,
    add_indexed_entries,
    dev_block_links,
)
from .commands import READ_ONLY_COMMANDS
from .device_kinds import (
    SCSI_TYPE_ROM,
    lsblk_type_from_dm_uuid,
    scsi_host_of,
    transport_from_scsi_host,
    transport_from_sysfs_path,
)
from .facts import Fact
from .root import Root
from .udev import read_udev_properties, udev_data_path

TYPE_CHECKING = False  # not typing's (see facts.py)
if TYPE_CHECKING:
    from collections.abc import Sequence

RAM_MAJOR = "1"
LOOP_MAJOR = "7"
DM_NAME_UNKNOWN = ("no dm/name: kernels before 2.6.29 keep device-mapper names out of sysfs "
                   "(`dmsetup ls` on the host maps dm-N to its name)")
FILE_SINCE = {
    "queue/discard_granularity": "2.6.33", "queue/discard_max_bytes": "2.6.33",
    "discard_alignment": "2.6.33", "queue/discard_max_hw_bytes": "4.3", "queue/rotational": "2.6.29",
}
"""The Linux release that added each attribute (Documentation/ABI/stable/sysfs-block, kernel source)."""
SIGNATURES_NOT_READ = "not read by this command (it judges mounted filesystems only; blkid not run)"
SPLIT_FROM_DEVICES = 400
"""From this many entries in sys/block (devices, not partitions) the read is split across processes (see
split_read). Measured in fresh processes on 2 cores (docs/figures.md): 200 entries 46 ms serial, 56 ms split;
400 entries 91 ms serial, 65 ms split; 800 entries 192 ms, 125 ms."""
NO_QUEUE_DIR = ("no queue/ directory: old kernels gave none to bio-based devices such as md, dm, "
                "loop and RAM disks (2.6.18 blk_register_queue)")


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
    name_why_unknown: str | None = None
    """Why a device-mapper device shows its kernel name: its dm name could not be read."""

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


def _missing_why(root: Root, base: str, attr: str, fact: Fact) -> Fact:
    """A missing attribute's reason: the kernel release that added it, or the absent queue/."""
    if fact.value is not None or root.exists(f"{base}/{attr}"):
        return fact
    if attr.startswith("queue/") and not root.is_dir(f"{base}/queue"):
        return replace(fact, why_unknown=NO_QUEUE_DIR)
    since = FILE_SINCE.get(attr)
    if since is None:
        return fact
    return replace(fact, why_unknown=f"file missing: {attr} appeared in Linux {since} "
                                     "(older kernels and some drivers lack it)")


def _attr_int(root: Root, base: str, attr: str) -> Fact[int]:
    return _missing_why(root, base, attr, root.fact_int(f"{base}/{attr}"))


NO_SCHEDULER = "bio-based device without an I/O scheduler"
"""Why a device has no active scheduler: it has no blk-mq queue (zram, md, most dm targets)."""


def _scheduler(root: Root, queue_dir: str) -> Fact[str]:
    """The active scheduler; a bio-based device's queue/scheduler is empty on some kernels and absent on
    others (6.x shows it only on blk-mq queues, which have an mq/ directory): either says it has none."""
    fact = root.fact_str(f"{queue_dir}/queue/scheduler", empty_means=f"empty: {NO_SCHEDULER}")
    missing = fact.value is None and not root.exists(f"{queue_dir}/queue/scheduler")
    if missing and root.is_dir(f"{queue_dir}/queue") and not root.exists(f"{queue_dir}/mq"):  # recorded
        return replace(fact, why_unknown=f"no queue/scheduler file: {NO_SCHEDULER} (the kernel shows it "
                                         "only on blk-mq queues)")
    fact = _missing_why(root, queue_dir, "queue/scheduler", fact)
    return Fact(active_scheduler(fact.value), fact.source, fact.why_unknown) if fact.value else fact


def has_no_scheduler(device: BlockDevice) -> bool:
    """Whether sysfs says the device has no I/O scheduler (a bio-based queue), as opposed to unknown."""
    fact = device.scheduler
    return fact.value is None and NO_SCHEDULER in (fact.why_unknown or "")


def scheduler_shown(device: BlockDevice) -> str:
    """SCHED as every table prints it: the active scheduler, `none` where sysfs says the device has none
    (a bio-based queue), and "-" only where it is unknown; one word on the Stack, in `devices` and reports."""
    return device.scheduler.value or ("none" if has_no_scheduler(device) else "-")


def _is_virtual(root: Root, base: str, real_dir: str) -> bool:
    """No hardware below: under devices/virtual, or (2.6.18's sys/block kobjects) no device link."""
    if real_dir.startswith("sys/devices/"):
        return "/virtual/" in real_dir
    return root.readlink(f"{base}/device") is None


def _transport(root: Root, kname: str, base: str, real_dir: str) -> tuple[str | None, str | None]:
    """The bus from the sysfs path, then, like lsblk, from the SCSI host's class entries
    (sys/class/<kind>_host/hostN). 2.6.18's sys/block/X holds no bus: its `device` link has it, and
    without one it is what newer kernels put under sys/devices/virtual."""
    path = real_dir
    if not real_dir.startswith("sys/devices/"):
        device = root.resolve(f"{base}/device") if root.readlink(f"{base}/device") else None
        path = device or f"sys/devices/virtual/block/{kname}"
    transport, why = transport_from_sysfs_path(kname, path)
    if transport is not None or kname.startswith(("loop", "dm-", "md")):
        return transport, why
    host = scsi_host_of(root.readlink(f"{base}/device"))
    if host is None:
        return transport, why
    classes = {kind: root.is_dir(f"sys/class/{kind}_host/host{host}")
               for kind in ("spi", "fc", "sas", "iscsi")}
    proc_name, _ = root.read_attr(f"sys/class/scsi_host/host{host}/proc_name")
    found = transport_from_scsi_host(classes, proc_name)
    if found:
        return found, None
    if proc_name is None:
        where = "in the capture" if not root.live else "readable"
        return None, f"SCSI disk; its adapter (host{host}) is not {where}"
    return None, f"SCSI disk; its driver ({proc_name}) names no bus (nor does lsblk)"


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


def _dm_identity(root: Root, base: str, udev: dict[str, str]) -> dict:
    """A dm device's name and uuid from dm/ (2.6.29+), else from its udev record; a name found in
    neither stays unknown with the reason (never the kernel name passed off as a dm name)."""
    dm_name, _ = root.read_attr(f"{base}/dm/name")
    dm_uuid, _ = root.read_attr(f"{base}/dm/uuid")
    dm_name = dm_name or udev.get("DM_NAME") or None
    dm_uuid = dm_uuid or udev.get("DM_UUID") or None
    why = None
    if dm_name is None:
        why = DM_NAME_UNKNOWN if not root.is_dir(f"{base}/dm") else "dm/name is empty or unreadable"
    return {"dm_name": dm_name, "dm_uuid": dm_uuid, "name_why_unknown": why}


def _whole_disk_kind(root: Root, kname: str, base: str, real_dir: str,
                     udev: dict[str, str], early: dict[str, Fact]) -> tuple[str, dict]:
    """lsblk TYPE and type-specific facts of a device that is not a partition."""
    extra: dict = {}
    if kname.startswith("dm-"):
        extra.update(_dm_identity(root, base, udev))
        return lsblk_type_from_dm_uuid(extra["dm_uuid"]), extra
    if kname.startswith("md"):
        level, _ = root.read_attr(f"{base}/md/level")
        extra["md_level"] = level or None
        return (level or "md"), extra
    if kname.startswith("loop"):
        backing = early.get("loop/backing_file") or root.fact_str(f"{base}/loop/backing_file")
        extra["loop_backing_file"] = backing
        return "loop", extra
    if not _is_virtual(root, base, real_dir):
        scsi_type, _ = root.read_attr(f"{base}/device/type")
        if scsi_type == SCSI_TYPE_ROM:
            return "rom", extra
    return "disk", extra


def _read_whole(root: Root, entry: BlockEntry, use_udev: bool, signatures: Signatures,
                early: dict[str, Fact]) -> BlockDevice:
    """A device that is not a partition; `early` holds the attributes `_hidden_by_default` already read."""
    kname, base, real_dir = entry.kname, entry.base, entry.real_dir
    maj_min = early.get("dev") or root.fact_str(f"{base}/dev")
    udev = read_udev_properties(root, maj_min.value) if (use_udev and maj_min.value) else {}
    kind, extra = _whole_disk_kind(root, kname, base, real_dir, udev, early)
    virtual = _is_virtual(root, base, real_dir)
    if virtual:
        why = "virtual device: no hardware identity"
        model, serial = Fact(None, f"/{base}/device/model", why), Fact(None, f"/{base}/device/serial", why)
    else:
        model, serial = _identity(root, base, real_dir, udev, maj_min.value or "?")
    transport, why_transport = _transport(root, kname, base, real_dir)
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
        size_bytes=_sectors(early.get("size")) or root.fact_int(f"{base}/size", scale=512),
        read_only=root.fact_bool(f"{base}/ro"),
        removable=root.fact_bool(f"{base}/removable"),
        rotational=_missing_why(root, base, "queue/rotational",
                                root.fact_bool(f"{base}/queue/rotational")),
        scheduler=_scheduler(root, base),
        discard_granularity=_attr_int(root, base, "queue/discard_granularity"),
        discard_max_bytes=_attr_int(root, base, "queue/discard_max_bytes"),
        discard_max_hw_bytes=_attr_int(root, base, "queue/discard_max_hw_bytes"),
        discard_alignment=_attr_int(root, base, "discard_alignment"),
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
        discard_alignment=_attr_int(root, base, "discard_alignment"),
        fstype=signatures.fstype(kname, maj_min.value, udev),
        parents=(disk.kname,),
        holders=tuple(root.listdir(f"{base}/holders") or ()),
        partition_number=number.value,
        dm_name=None,
        dm_uuid=None,
        md_level=None,
        loop_backing_file=None,
        udev=udev,
        name_why_unknown=None,
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


def read_block_devices(root: Root, *, include_empty: bool = False,
                       signatures: bool = True, read_here: bool = True) -> dict[str, BlockDevice]:
    """All block devices under `root`, keyed by kernel name; unattached loops and RAM disks are
    skipped unless `include_empty` (lsblk's default filter). Without `signatures` blkid is not run and
    an unmounted device's filesystem type stays unknown (a command that judges only mounted
    filesystems, whose type mountinfo gives, saves the child process). A big host is read in several
    processes (`_DeviceReader.split`), with the same result; without `read_here` all of its parts are read
    in child processes (see `split_read.read_split`'s `here`)."""
    class_names = set(root.listdir(CLASS_BLOCK) or ())
    disks = root.listdir(SYS_BLOCK) or []
    use_udev = root.is_dir("run/udev/data")
    split = len(disks) >= SPLIT_FROM_DEVICES and root.recorded is None and hasattr(os, "fork")
    entries = None if split else _entries(root, disks, class_names)  # listed while a started blkid runs
    if signatures:
        blkid, blkid_output = read_blkid(root)
        found = Signatures(blkid, blkid_output.source, blkid_output.why_unknown)
    else:
        found = Signatures({}, "command: " + " ".join(READ_ONLY_COMMANDS["blkid"]), SIGNATURES_NOT_READ)
    reader = _DeviceReader(root, class_names, use_udev, found,
                           quick=not include_empty and root.recorded is None)  # a capture records all
    devices = None
    if split:
        from .split_read import MAX_PROCESSES, usable_cpus

        processes = min(usable_cpus(), MAX_PROCESSES)
        devices = reader.split(disks, processes, here=read_here) if processes > 1 else None
    if devices is None:
        devices = reader.devices(entries if entries is not None else _entries(root, disks, class_names))
    if not include_empty:
        devices = {k: d for k, d in devices.items() if _shown_by_default(d)}
    return devices


def _entries(root: Root, disks: list[str], class_names: set[str]) -> dict[str, BlockEntry]:
    """Every block device's entry: sys/block's disks with their partitions, then those only indexes list."""
    entries: dict[str, BlockEntry] = {}
    for name in disks:
        add_disk_entries(root, name, class_names, entries)
    add_indexed_entries(root, entries, class_names, disks)
    return entries


class _DeviceReader:
    """Reads the devices of a set of entries; `split` reads the disks of sys/block in several processes.
    `quick` skips reading in full a device `_hidden_by_default` hides (not for --all, nor a capture's
    record). A plain class: a dataclass's methods would be compiled at every start (see record_code)."""

    def __init__(self, root: Root, class_names: set[str], use_udev: bool, found: Signatures, *,
                 quick: bool) -> None:
        self.root, self.class_names, self.use_udev, self.found, self.quick = \
            root, class_names, use_udev, found, quick

    def devices(self, entries: dict[str, BlockEntry]) -> dict[str, BlockDevice]:
        """The devices of `entries`: the whole ones in order, then their partitions in order."""
        root, use_udev, found = self.root, self.use_udev, self.found
        with_partitions = {entry.disk for entry in entries.values() if entry.disk is not None}
        whole: dict[str, BlockDevice] = {}
        for name, entry in entries.items():
            if entry.disk is not None:
                continue
            early: dict[str, Fact] = {}
            if self.quick and name not in with_partitions and _hidden_by_default(root, entry, early):
                continue
            whole[name] = _read_whole(root, entry, use_udev, found, early)
        devices = dict(whole)
        for name, entry in entries.items():
            if entry.disk is not None and entry.disk in whole:
                devices[name] = _read_partition(root, entry, whole[entry.disk], use_udev, found)
        return devices

    def _part(self, disks: Sequence[str]) -> tuple[dict[str, BlockEntry], dict[str, BlockDevice]]:
        """The entries of some of sys/block's disks (with their partitions), and their devices."""
        entries: dict[str, BlockEntry] = {}
        for name in disks:
            add_disk_entries(self.root, name, self.class_names, entries)
        return entries, self.devices(entries)

    def split(self, disks: list[str], processes: int, *, here: bool = True) -> dict[str, BlockDevice] | None:
        """The devices read in `processes` processes, as the serial read gives them; None when the parts
        do not fit together as the serial read would see them (a name twice, or a device found only in
        sys/class/block or sys/dev/block), so that the caller reads serially."""
        from .split_read import read_split

        dev_links: dict[str, str] = {}
        parts = read_split(self._part, disks, processes, _plain_part, _from_plain_part,
                           meanwhile=lambda: dev_links.update(dev_block_links(self.root)), here=here)
        groups: dict[str, list[BlockEntry]] = {}
        count = 0
        for entries, _ in parts:
            count += len(entries)
            for entry in entries.values():
                groups.setdefault(entry.disk or entry.kname, []).append(entry)
        merged = {entry.kname: entry for name in disks for entry in groups.get(name, ())}
        if len(merged) != count:
            return None
        add_indexed_entries(self.root, merged, self.class_names, disks, dev_links or None)
        if len(merged) != count:
            return None
        read: dict[str, BlockDevice] = {}
        for _, devices in parts:
            read.update(devices)
        order = [name for name, entry in merged.items() if entry.disk is None]
        order += [name for name, entry in merged.items() if entry.disk is not None]
        return {name: read[name] for name in order if name in read}


_IS_FACT = tuple(f.type.startswith("Fact") for f in fields(BlockDevice))
_FIELD_NAMES = tuple(f.name for f in fields(BlockDevice))


def _plain_part(part: tuple[dict[str, BlockEntry], dict[str, BlockDevice]]) -> tuple:
    """A part's entries and devices as plain values (tuples of str, int, bool, None), cheap to send."""
    entries, devices = part
    return ([(e.kname, e.base, e.real_dir, e.disk, _plain_fact(e.partition)) for e in entries.values()],
            [_plain(device) for device in devices.values()])


def _from_plain_part(values: tuple) -> tuple[dict[str, BlockEntry], dict[str, BlockDevice]]:
    """The part `_plain_part` made `values` from."""
    entries, devices = values
    return ({e[0]: BlockEntry(*e[:4], None if e[4] is None else Fact(*e[4])) for e in entries},
            {d[0]: _from_plain(d) for d in devices})


def _plain_fact(fact: Fact | None) -> tuple | None:
    return None if fact is None else (fact.value, fact.source, fact.why_unknown)


_ALL_FIELDS = attrgetter(*_FIELD_NAMES)
_FACT_FIELDS = attrgetter("value", "source", "why_unknown")


def _plain(device: BlockDevice) -> tuple:
    """A device as plain values, each Fact a tuple (its fields taken by one `attrgetter` call)."""
    return tuple([(None if value is None else _FACT_FIELDS(value)) if is_fact else value
                  for value, is_fact in zip(_ALL_FIELDS(device), _IS_FACT, strict=True)])


_new = object.__new__
_SET_FACT = (Fact.value.__set__, Fact.source.__set__, Fact.why_unknown.__set__)  # type: ignore[attr-defined]
_SET_DEVICE = tuple(getattr(BlockDevice, name).__set__ for name in _FIELD_NAMES)


def _from_plain(values: tuple) -> BlockDevice:
    """The device `_plain` made `values` from. Each slot is set directly, as the frozen classes' own
    `__init__` sets them (`object.__setattr__` field by field, nothing else): a third of the time for the
    ~2,500 devices and 37,000 facts a child sends at 5,000 devices (docs/figures.md, "Thirteenth pass")."""
    set_value, set_source, set_why = _SET_FACT
    device = _new(BlockDevice)
    for value, is_fact, put in zip(values, _IS_FACT, _SET_DEVICE, strict=True):
        if is_fact and value is not None:
            fact = _new(Fact)
            set_value(fact, value[0])
            set_source(fact, value[1])
            set_why(fact, value[2])
            value = fact
        put(device, value)
    return device


def _hidden_by_default(root: Root, entry: BlockEntry, early: dict[str, Fact]) -> bool:
    """What `_shown_by_default` will say of a device without partitions, from the two or three files it
    looks at: a host's 24 unattached loop devices are then not read in full only to be dropped. The
    facts it read go into `early`, so a device that is shown does not read them again."""
    early["dev"] = root.fact_str(f"{entry.base}/dev")
    major = (early["dev"].value or "").split(":")[0]
    if major == RAM_MAJOR:
        return True
    if major != LOOP_MAJOR:
        return False
    early["size"] = root.fact_int(f"{entry.base}/size")
    if early["size"].value != 0:
        return False
    if not entry.kname.startswith("loop"):
        return True
    early["loop/backing_file"] = root.fact_str(f"{entry.base}/loop/backing_file")
    return early["loop/backing_file"].value is None


def _sectors(size: Fact[int] | None) -> Fact[int] | None:
    """A `size` attribute read unscaled, in bytes (it counts 512-byte sectors), as `fact_int` scales it."""
    if size is None or size.value is None:
        return size
    return Fact(size.value * 512, size.source)


def _shown_by_default(device: BlockDevice) -> bool:
    """lsblk's default filter (lsblk -a lists all): RAM disks (major 1) are left out, and so is an
    empty loop device with no backing file; every other device shows, even at size 0 (an empty DVD
    drive). lsblk asks this machine's /dev/loopN about the backing file; a capture answers itself."""
    major = (device.maj_min.value or "").split(":")[0]
    if major == RAM_MAJOR:
        return False
    if major == LOOP_MAJOR and device.size_bytes.value == 0:
        return device.loop_backing_file is not None and device.loop_backing_file.value is not None
    return True
