"""Write sysroot trees laid out like an old kernel's sysfs (2.6.18 or 2.6.32), one device at a time.

Every file and link written here is one the kernel of that era made; tests/fixtures/old-kernels/README.md
cites the kernel source or ABI document for each set. Unlike tests/support/sysfs_builder.py (today's layout),
this writes only what the old kernel had, so a probe reading a newer file finds it missing."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

SECTOR = 512
ERA_2618 = "2.6.18"
ERA_2632 = "2.6.32"

QUEUE_2618 = ("nr_requests", "read_ahead_kb", "max_hw_sectors_kb", "max_sectors_kb", "scheduler")
"""block/ll_rw_blk.c default_attrs in 2.6.18: the whole queue/ directory of that kernel."""
QUEUE_2632 = QUEUE_2618 + ("hw_sector_size", "logical_block_size", "physical_block_size",
                           "minimum_io_size", "optimal_io_size", "rotational", "nomerges",
                           "rq_affinity", "iostats")
"""block/blk-sysfs.c in 2.6.32: no discard_* (2.6.33), write_same (3.7), discard_max_hw_bytes (4.3)."""
QUEUE_VALUES = {"nr_requests": "128", "read_ahead_kb": "128", "max_hw_sectors_kb": "32767",
                "max_sectors_kb": "512", "hw_sector_size": "512", "logical_block_size": "512",
                "physical_block_size": "512", "minimum_io_size": "512", "optimal_io_size": "0",
                "rotational": "1", "nomerges": "0", "rq_affinity": "1", "iostats": "1"}
SCHED_2618 = "noop anticipatory deadline [cfq]"
SCHED_2632 = "noop anticipatory deadline [cfq]"
STAT_DISK = "       0        0        0        0        0        0        0        0        0" \
            "        0        0"
STAT_PART_2618 = "       0        0        0        0"


@dataclass
class OldKernelTree:
    """Builds sys/ and proc/ for one old kernel; `era` picks the layout and the attribute sets."""

    root: Path
    era: str
    kernel: str
    hostname: str
    mounts: list[str] = field(default_factory=list)
    swaps: list[str] = field(default_factory=list)
    mdstat: list[str] = field(default_factory=list)
    _dirs: dict[str, str] = field(default_factory=dict)
    _numbers: dict[str, str] = field(default_factory=dict)
    _sizes: dict[str, int] = field(default_factory=dict)
    _order: list[str] = field(default_factory=list)
    _mount_id: int = 15

    @property
    def deprecated_layout(self) -> bool:
        """2.6.18: block devices are kobjects under /sys/block, not devices under /sys/devices."""
        return self.era == ERA_2618

    def _write(self, rel: str, text: str) -> None:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n")

    def _link(self, rel_link: str, rel_target: str) -> None:
        """A relative link spelled as sysfs spells it: up to the nearest directory that also holds the
        target's parent, then down (sysfs_get_target_path): /sys/block/sda/device in 2.6.32 reads
        ../../../0:0:0:0, whose last component lsblk parses as host:channel:target:lun."""
        link = self.root / rel_link
        link.parent.mkdir(parents=True, exist_ok=True)
        here, target = link.parent, self.root / rel_target
        base = Path(os.path.commonpath([here, target.parent]))
        ups = len(here.relative_to(base).parts)
        link.symlink_to("../" * ups + str(target.relative_to(base)))

    def _common(self, kname: str, devdir: str, maj_min: str, sectors: int) -> None:
        self._dirs[kname] = devdir
        self._numbers[kname] = maj_min
        self._sizes[kname] = sectors
        self._order.append(kname)
        self._write(f"{devdir}/dev", maj_min)
        self._write(f"{devdir}/size", str(sectors))
        (self.root / devdir / "holders").mkdir(parents=True, exist_ok=True)
        if self.deprecated_layout:
            self._link(f"{devdir}/subsystem", "sys/block")

    def _index(self, kname: str, devdir: str, *, whole: bool) -> None:
        """2.6.32's indexes: /sys/block/X, /sys/class/block/X and /sys/dev/block/M:m links."""
        if self.deprecated_layout:
            return
        if whole:
            self._link(f"sys/block/{kname}", devdir)
        self._link(f"sys/class/block/{kname}", devdir)
        self._link(f"sys/dev/block/{self._numbers[kname]}", devdir)

    def disk(self, kname: str, maj_min: str, sectors: int, *, parent: str | None = None,
             queue: bool = True, scheduler: str | None = None, rotational: str = "1",
             removable: str = "0", queue_values: dict[str, str] | None = None,
             device: dict[str, str] | None = None, range_: int = 16) -> str:
        """A whole block device; `parent` is its sysfs device (a SCSI device path) or None for a
        virtual one; `queue` False for 2.6.18's bio-based drivers (md, dm, loop, ram), which had no
        queue/ directory (blk_register_queue returned early without a request_fn)."""
        if self.deprecated_layout:
            devdir = f"sys/block/{kname}"
        else:
            base = parent or "sys/devices/virtual"
            devdir = f"{base}/block/{kname}"
        self._common(kname, devdir, maj_min, sectors)
        (self.root / devdir / "slaves").mkdir(parents=True, exist_ok=True)
        self._write(f"{devdir}/range", str(range_))
        self._write(f"{devdir}/removable", removable)
        if self.deprecated_layout:
            self._write(f"{devdir}/stat", STAT_DISK)
        else:
            for name, value in (("ext_range", str(range_)), ("ro", "0"), ("alignment_offset", "0"),
                                ("capability", "12" if removable == "0" else "13"),
                                ("stat", STAT_DISK), ("inflight", "       0        0")):
                self._write(f"{devdir}/{name}", value)
        if queue:
            names = QUEUE_2618 if self.deprecated_layout else QUEUE_2632
            values = {**QUEUE_VALUES, "rotational": rotational, **(queue_values or {})}
            values["scheduler"] = scheduler or (SCHED_2618 if self.deprecated_layout else SCHED_2632)
            for name in names:
                self._write(f"{devdir}/queue/{name}", values[name])
        if parent:
            self._link(f"{devdir}/device", parent)
            for name, value in (device or {}).items():
                self._write(f"{parent}/{name}", value)
            if self.deprecated_layout:
                self._link(f"{parent}/block:{kname}", devdir)
        self._index(kname, devdir, whole=True)
        return kname

    def scsi_host(self, host: int, pci: str, proc_name: str) -> str:
        """A SCSI host adapter under its PCI function, with its scsi_host class entry (proc_name
        names the driver: ahci, ata_piix, usb-storage); returns the host's device path."""
        host_dir = f"sys/devices/pci0000:00/{pci}/host{host}"
        (self.root / host_dir).mkdir(parents=True, exist_ok=True)
        if self.deprecated_layout:
            class_dir = f"sys/class/scsi_host/host{host}"
            self._link(f"{class_dir}/device", host_dir)
        else:
            class_dir = f"{host_dir}/scsi_host/host{host}"
            self._link(f"sys/class/scsi_host/host{host}", class_dir)
        self._write(f"{class_dir}/proc_name", proc_name)
        return host_dir

    def scsi_disk(self, kname: str, maj_min: str, sectors: int, *, host_dir: str, hctl: str,
                  model: str, vendor: str = "ATA", scsi_type: str = "0", rev: str = "1.00",
                  **disk_args: object) -> str:
        """A SCSI disk (sd/sr) at host:channel:target:lun under a host adapter."""
        host, channel, target, _ = hctl.split(":")
        scsi_dir = f"{host_dir}/target{host}:{channel}:{target}/{hctl}"
        device = {"model": model, "vendor": vendor, "type": scsi_type, "rev": rev, "state": "running"}
        return self.disk(kname, maj_min, sectors, parent=scsi_dir, device=device,
                         **disk_args)  # type: ignore[arg-type]

    def partition(self, disk: str, number: int, maj_min: str, start: int, sectors: int) -> str:
        """A partition: a subdirectory of its disk (2.6.18: dev, start, size, stat, holders/ only;
        the `partition` file came with 2.6.28's device-model partitions)."""
        kname = f"{disk}p{number}" if disk[-1].isdigit() else f"{disk}{number}"
        devdir = f"{self._dirs[disk]}/{kname}"
        self._common(kname, devdir, maj_min, sectors)
        self._write(f"{devdir}/start", str(start))
        if self.deprecated_layout:
            self._write(f"{devdir}/stat", STAT_PART_2618)
        else:
            for name, value in (("partition", str(number)), ("alignment_offset", "0"),
                                ("stat", STAT_DISK), ("inflight", "       0        0")):
                self._write(f"{devdir}/{name}", value)
        self._index(kname, devdir, whole=False)
        return kname

    def _holder_links(self, upper: str, lowers: list[str]) -> None:
        """bd_claim_by_disk's links: slaves/<lower> in the upper device, holders/<upper> below."""
        for lower in lowers:
            self._link(f"{self._dirs[upper]}/slaves/{lower}", self._dirs[lower])
            self._link(f"{self._dirs[lower]}/holders/{upper}", self._dirs[upper])

    def md(self, kname: str, maj_min: str, *, level: str, members: list[str],
           metadata: str = "0.90") -> str:
        """An md array over `members` with md/ attributes, dev-<member>/ and rdN links (md.c)."""
        smallest = min(self._sizes[m] for m in members)
        sectors = (smallest & ~127) - 128 if metadata == "0.90" else smallest - 2048 - 8
        self.disk(kname, maj_min, sectors, queue=not self.deprecated_layout, scheduler="none",
                  range_=1)
        devdir = self._dirs[kname]
        for name, value in (("level", level), ("raid_disks", str(len(members))),
                            ("chunk_size", "0" if level == "raid1" else "65536"),
                            ("array_state", "clean"), ("metadata_version", metadata),
                            ("sync_action", "idle")):
            self._write(f"{devdir}/md/{name}", value)
        for slot, member in enumerate(members):
            self._link(f"{devdir}/md/dev-{member}/block", self._dirs[member])
            self._write(f"{devdir}/md/dev-{member}/slot", str(slot))
            self._write(f"{devdir}/md/dev-{member}/state", "in_sync")
            self._link(f"{devdir}/md/rd{slot}", f"{devdir}/md/dev-{member}")
        self._holder_links(kname, members)
        active = " ".join(f"{m}[{i}]" for i, m in reversed(list(enumerate(members))))
        used = "U" * len(members)
        self.mdstat.append(f"{kname} : active {level} {active}")
        self.mdstat.append(f"      {sectors // 2} blocks [{len(members)}/{len(members)}] [{used}]")
        self.mdstat.append("")
        return kname

    def dm(self, kname: str, maj_min: str, sectors: int, *, lowers: list[str], name: str,
           uuid: str) -> str:
        """A device-mapper device; dm/name and dm/uuid exist only from 2.6.29 (dm-sysfs.c), so a
        2.6.18 tree has neither (the name lives in the dm ioctl interface only)."""
        self.disk(kname, maj_min, sectors, queue=not self.deprecated_layout, scheduler="none",
                  range_=1)
        if not self.deprecated_layout:
            devdir = self._dirs[kname]
            self._write(f"{devdir}/dm/name", name)
            self._write(f"{devdir}/dm/uuid", uuid)
            self._write(f"{devdir}/dm/suspended", "0")
        self._holder_links(kname, lowers)
        return kname

    def loops_and_ramdisks(self, *, loops: int = 8, ramdisks: int = 16,
                           ram_sectors: int = 32768) -> None:
        """The unused loop devices (size 0) and RAM disks (16 MiB each) every RHEL kernel shows."""
        for index in range(ramdisks):
            self.disk(f"ram{index}", f"1:{index}", ram_sectors, queue=not self.deprecated_layout,
                      scheduler="none", range_=1)
        for index in range(loops):
            self.disk(f"loop{index}", f"7:{index}", 0, queue=not self.deprecated_layout,
                      scheduler="none", range_=1)

    def mount(self, maj_min: str, source: str, mountpoint: str, fstype: str, options: str) -> None:
        """One mount: a /proc/mounts line on 2.6.18 (mountinfo came with 2.6.26), else mountinfo."""
        if self.deprecated_layout:
            self.mounts.append(f"{source} {mountpoint} {fstype} {options} 0 0")
        else:
            self.mounts.append(f"{self._mount_id} 1 {maj_min} / {mountpoint} {options} - "
                               f"{fstype} {source} {options}")
            self._mount_id += 1

    def etc(self, rel: str, text: str) -> None:
        """A file under etc/."""
        self._write(f"etc/{rel}", text)

    def finish(self) -> Path:
        """Write proc/ (partitions, diskstats, mdstat, mounts, swaps, kernel) and return the root."""
        partitions = ["major minor  #blocks  name", ""]
        for kname in self._order:
            major, minor = self._numbers[kname].split(":")
            partitions.append(f"{major:>4} {minor:>5} {self._sizes[kname] // 2:>10} {kname}")
        self._write("proc/partitions", "\n".join(partitions))
        if self.deprecated_layout:
            base = ["rootfs / rootfs rw 0 0", "/proc /proc proc rw 0 0", "/sys /sys sysfs rw 0 0"]
            self._write("proc/mounts", "\n".join(base + self.mounts))
        else:
            base = ["1 1 0:1 / / rw - rootfs rootfs rw", "2 1 0:3 / /proc rw - proc proc rw",
                    "3 1 0:14 / /sys rw - sysfs sysfs rw"]
            self._write("proc/self/mountinfo", "\n".join(base + self.mounts))
            self._write("proc/mounts", "\n".join(
                f"{line.split(' - ')[1].split()[1]} {line.split()[4]} "
                f"{line.split(' - ')[1].split()[0]} {line.split()[5]} 0 0"
                for line in base + self.mounts))
        self._write("proc/swaps", "\n".join(
            ["Filename\t\t\t\tType\t\tSize\tUsed\tPriority"] + self.swaps))
        self._write("proc/mdstat", "\n".join(["Personalities : [raid1] "] + self.mdstat
                                             + ["unused devices: <none>"]))
        self._write("proc/sys/kernel/hostname", self.hostname)
        self._write("proc/sys/kernel/osrelease", self.kernel)
        return self.root
