"""Per-device tuning facts the advisor judges: write cache, FUA, read-ahead, alignment, md geometry."""

from __future__ import annotations

from dataclasses import dataclass

from .blockdev import BlockDevice
from .facts import Fact
from .root import Root

RAID_STRIPED = ("raid0", "raid4", "raid5", "raid6", "raid10")


@dataclass(frozen=True, slots=True)
class QueueTuning:
    """The queue attributes of one device (a partition's come from its disk's queue/)."""

    write_cache: Fact[str]
    fua: Fact[bool]
    read_ahead_kb: Fact[int]
    physical_block_size: Fact[int]
    minimum_io_size: Fact[int]
    hw_queues: Fact[int]
    """How many hardware queues (entries of mq/); None for bio-based devices."""


@dataclass(frozen=True, slots=True)
class PartitionPlacement:
    """Where a partition starts on its disk, and the kernel's own alignment verdict."""

    start_bytes: Fact[int]
    alignment_offset: Fact[int]


@dataclass(frozen=True, slots=True)
class MdGeometry:
    """An md array's striping: level, chunk size (bytes), member count and layout."""

    level: str
    chunk_bytes: Fact[int]
    raid_disks: Fact[int]
    layout: Fact[int]

    @property
    def data_disks(self) -> int | None:
        """Members that carry distinct data in one stripe (raid10 divides by its copies)."""
        disks = self.raid_disks.value
        if disks is None or self.level not in RAID_STRIPED:
            return None
        if self.level == "raid10":
            layout = self.layout.value or 0x102
            copies = max(1, layout & 0xFF) * max(1, (layout >> 8) & 0xFF)
            return max(1, disks // copies)
        return disks - {"raid0": 0, "raid4": 1, "raid5": 1, "raid6": 2}[self.level]


def read_queue_tuning(root: Root, device: BlockDevice) -> QueueTuning:
    """The queue attributes of `device` (its disk's, for a partition)."""
    queue = f"{device.queue_dir}/queue"
    mq = root.listdir(f"{device.queue_dir}/mq")
    hw_queues = Fact(len(mq), f"/{device.queue_dir}/mq/") if mq else \
        Fact(None, f"/{device.queue_dir}/mq/", "no mq/ directory: bio-based device")
    return QueueTuning(
        write_cache=root.fact_str(f"{queue}/write_cache"),
        fua=root.fact_bool(f"{queue}/fua"),
        read_ahead_kb=root.fact_int(f"{queue}/read_ahead_kb"),
        physical_block_size=root.fact_int(f"{queue}/physical_block_size"),
        minimum_io_size=root.fact_int(f"{queue}/minimum_io_size"),
        hw_queues=hw_queues,
    )


def read_partition_placement(root: Root, device: BlockDevice) -> PartitionPlacement:
    """A partition's start (bytes; sysfs counts 512-byte sectors) and alignment_offset."""
    base = f"sys/class/block/{device.kname}"
    return PartitionPlacement(root.fact_int(f"{base}/start", scale=512),
                              root.fact_int(f"{base}/alignment_offset", signed=True))


def read_md_geometry(root: Root, device: BlockDevice) -> MdGeometry:
    """md/ attributes of an array (chunk_size is in bytes)."""
    md = f"sys/block/{device.kname}/md"
    return MdGeometry(device.md_level or "?", root.fact_int(f"{md}/chunk_size"),
                      root.fact_int(f"{md}/raid_disks"), root.fact_int(f"{md}/layout"))
