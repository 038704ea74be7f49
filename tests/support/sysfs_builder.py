"""Write sysroot trees laid out exactly like real sysfs/procfs, for md/dm/LVM/crypt fixtures."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

QUEUE_DEFAULTS = {
    "rotational": "0", "scheduler": "[none] mq-deadline kyber bfq", "nr_requests": "1023",
    "read_ahead_kb": "128", "write_cache": "write back", "fua": "1",
    "logical_block_size": "512", "physical_block_size": "4096", "minimum_io_size": "4096",
    "optimal_io_size": "0", "discard_granularity": "4096", "discard_max_bytes": "2199023255040",
    "discard_max_hw_bytes": "2199023255040", "discard_zeroes_data": "0", "max_sectors_kb": "1280",
    "zoned": "none", "wbt_lat_usec": "2000", "nomerges": "0",
}
STAT_ZERO = " ".join(["0"] * 17) + "\n"
DEBIAN12_FSTRIM_TIMER = """[Unit]
Description=Discard unused blocks once a week
Documentation=man:fstrim
ConditionVirtualization=!container
ConditionPathExists=!/etc/initrd-release

[Timer]
OnCalendar=weekly
AccuracySec=1h
Persistent=true
RandomizedDelaySec=6000

[Install]
WantedBy=timers.target
"""
DEBIAN12_FSTRIM_SERVICE = """[Unit]
Description=Discard unused blocks on filesystems from /etc/fstab
Documentation=man:fstrim(8)
ConditionVirtualization=!container

[Service]
Type=oneshot
ExecStart=/sbin/fstrim --listed-in /etc/fstab:/proc/self/mountinfo --verbose --quiet-unsupported
PrivateDevices=no
PrivateNetwork=yes
"""


@dataclass
class SysrootBuilder:
    """Builds sys/, proc/ and run/udev/data under `root`, one device at a time."""

    root: Path
    hostname: str = "fixture-host"
    kernel: str = "6.1.0-26-amd64"
    mountinfo: list[str] = field(default_factory=list)
    swaps: list[str] = field(default_factory=list)
    mdstat: list[str] = field(default_factory=list)
    diskstats: list[str] = field(default_factory=list)
    _dirs: dict[str, str] = field(default_factory=dict)
    _next_mount_id: int = 21

    def _write(self, rel: str, text: str) -> None:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text if text.endswith("\n") or text == "" else text + "\n")

    def _link(self, rel_link: str, rel_target: str) -> None:
        link = self.root / rel_link
        link.parent.mkdir(parents=True, exist_ok=True)
        target = os.path.relpath(self.root / rel_target, link.parent)
        if not link.is_symlink():
            link.symlink_to(target)

    def _register(self, kname: str, devdir: str, maj_min: str, *, whole: bool) -> None:
        self._dirs[kname] = devdir
        self._link(f"sys/class/block/{kname}", devdir)
        self._link(f"sys/dev/block/{maj_min}", devdir)
        if whole:
            self._link(f"sys/block/{kname}", devdir)
        major, minor = maj_min.split(":")
        self.diskstats.append(f"{major:>4} {minor:>7} {kname} " + STAT_ZERO.strip())

    def _common(self, devdir: str, maj_min: str, size_bytes: int, ro: str = "0") -> None:
        for name, value in (("dev", maj_min), ("size", str(size_bytes // 512)), ("ro", ro),
                            ("alignment_offset", "0"), ("discard_alignment", "0"),
                            ("stat", STAT_ZERO), ("inflight", "0 0")):
            self._write(f"{devdir}/{name}", value)
        (self.root / devdir / "holders").mkdir(parents=True, exist_ok=True)

    def whole(self, kname: str, devdir: str, maj_min: str, size_bytes: int, *,
              queue: dict[str, str] | None = None, removable: str = "0",
              device_dir: str | None = None, device_attrs: dict[str, str] | None = None,
              own_attrs: dict[str, str] | None = None) -> str:
        """Any whole block device (disk, md, dm, loop): queue/, slaves/, optional device link."""
        self._common(devdir, maj_min, size_bytes)
        self._write(f"{devdir}/removable", removable)
        (self.root / devdir / "slaves").mkdir(parents=True, exist_ok=True)
        for name, value in {**QUEUE_DEFAULTS, **(queue or {})}.items():
            self._write(f"{devdir}/queue/{name}", value)
        for name, value in (own_attrs or {}).items():
            self._write(f"{devdir}/{name}", value)
        if device_dir:
            self._link(f"{devdir}/device", device_dir)
            for name, value in (device_attrs or {}).items():
                self._write(f"{device_dir}/{name}", value)
        self._register(kname, devdir, maj_min, whole=True)
        return devdir

    def nvme(self, kname: str, maj_min: str, size_bytes: int, *, pci: str, ctrl: str,
             model: str, serial: str) -> str:
        """An NVMe namespace under its controller (model/serial live on the controller)."""
        ctrl_dir = f"sys/devices/pci0000:00/{pci}/nvme/{ctrl}"
        return self.whole(kname, f"{ctrl_dir}/{kname}", maj_min, size_bytes,
                          device_dir=ctrl_dir, device_attrs={
                              "model": model, "serial": serial, "firmware_rev": "2B2QEXM7",
                              "transport": "pcie"})

    def sata(self, kname: str, maj_min: str, size_bytes: int, *, port: int, model: str,
             vendor: str = "ATA", rotational: str = "0", scsi_type: str = "0",
             discard: bool = True, ata_trim: str | None = None) -> str:
        """A SCSI disk on an AHCI port (model/vendor on the SCSI device, serial via udev)."""
        scsi = f"sys/devices/pci0000:00/0000:00:1f.2/ata{port}/host{port - 1}/" \
               f"target{port - 1}:0:0/{port - 1}:0:0:0"
        sched = "none [mq-deadline] kyber bfq"
        no_discard = {} if discard else {"discard_granularity": "0", "discard_max_bytes": "0",
                                         "discard_max_hw_bytes": "0"}
        if ata_trim is not None:
            ata_dev = f"sys/devices/pci0000:00/0000:00:1f.2/ata{port}/link{port}/dev{port}.0/" \
                      f"ata_device/dev{port}.0"
            self._write(f"{ata_dev}/trim", ata_trim)
            self._link(f"sys/class/ata_device/dev{port}.0", ata_dev)
        return self.whole(kname, f"{scsi}/block/{kname}", maj_min, size_bytes,
                          queue={"rotational": rotational, "scheduler": sched,
                                 "nr_requests": "64", "fua": "0", **no_discard},
                          device_dir=scsi, device_attrs={"model": model, "vendor": vendor,
                                                         "type": scsi_type})

    def partition(self, disk: str, number: int, maj_min: str, start_sector: int,
                  size_bytes: int, *, name: str | None = None) -> str:
        """A partition: a sub-directory of its disk with partition/start, and no queue/."""
        kname = name or (f"{disk}p{number}" if disk[-1].isdigit() else f"{disk}{number}")
        devdir = f"{self._dirs[disk]}/{kname}"
        self._common(devdir, maj_min, size_bytes)
        self._write(f"{devdir}/partition", str(number))
        self._write(f"{devdir}/start", str(start_sector))
        self._register(kname, devdir, maj_min, whole=False)
        return kname

    def stack(self, upper: str, lowers: list[str]) -> None:
        """Record that `upper` sits on `lowers`: slaves/ links up, holders/ links down."""
        for lower in lowers:
            self._link(f"{self._dirs[upper]}/slaves/{lower}", self._dirs[lower])
            self._link(f"{self._dirs[lower]}/holders/{upper}", self._dirs[upper])

    def md(self, kname: str, maj_min: str, size_bytes: int, *, level: str, members: list[str],
           chunk_bytes: int = 524288, array_state: str = "clean", degraded: str = "0",
           sync_action: str = "idle", queue: dict[str, str] | None = None) -> str:
        """An md array in devices/virtual/block with md/ attributes and rdN links."""
        devdir = f"sys/devices/virtual/block/{kname}"
        data_disks = {"raid0": len(members), "raid5": len(members) - 1,
                      "raid6": len(members) - 2, "raid10": len(members) // 2}.get(level, 1)
        io = {"minimum_io_size": str(chunk_bytes), "optimal_io_size": str(chunk_bytes *
                                                                        data_disks),
              "scheduler": "", "nr_requests": "", "rotational": "0"} \
            if level in ("raid0", "raid4", "raid5", "raid6", "raid10") else {"scheduler": ""}
        self.whole(kname, devdir, maj_min, size_bytes, queue={**io, **(queue or {})})
        md = {"level": level, "chunk_size": str(chunk_bytes if level != "raid1" else 0),
              "raid_disks": str(len(members)), "array_state": array_state,
              "degraded": degraded, "sync_action": sync_action, "metadata_version": "1.2",
              "consistency_policy": "none" if level in ("raid0", "linear") else "resync"}
        for name, value in md.items():
            self._write(f"{devdir}/md/{name}", value)
        for index, member in enumerate(members):
            self._link(f"{devdir}/md/dev-{member}/block", self._dirs[member])
            self._write(f"{devdir}/md/dev-{member}/slot", str(index))
            self._link(f"{devdir}/md/rd{index}", f"{devdir}/md/dev-{member}")
        self.stack(kname, members)
        active = " ".join(f"{m}[{i}]" for i, m in enumerate(members))
        self.mdstat.append(f"{kname} : active {level} {active}")
        self.mdstat.append(f"      {size_bytes // 1024} blocks super 1.2 "
                           f"{chunk_bytes // 1024}k chunks")
        return kname

    def dm(self, kname: str, maj_min: str, size_bytes: int, *, name: str, uuid: str,
           lowers: list[str], discard: bool = True, queue: dict[str, str] | None = None) -> str:
        """A device-mapper device; without discard its discard limits read 0 (dm-table.c)."""
        devdir = f"sys/devices/virtual/block/{kname}"
        limits = {} if discard else {"discard_granularity": "0", "discard_max_bytes": "0",
                                     "discard_max_hw_bytes": "0"}
        self.whole(kname, devdir, maj_min, size_bytes,
                   queue={"scheduler": "none", "nr_requests": "128", **limits, **(queue or {})})
        self._write(f"{devdir}/dm/name", name)
        self._write(f"{devdir}/dm/uuid", uuid)
        self._write(f"{devdir}/dm/suspended", "0")
        self.stack(kname, lowers)
        return kname

    def loop(self, kname: str, maj_min: str, size_bytes: int, backing_file: str | None) -> str:
        """A loop device; attached ones have loop/backing_file, unattached ones size 0."""
        devdir = f"sys/devices/virtual/block/{kname}"
        self.whole(kname, devdir, maj_min, size_bytes if backing_file else 0,
                   queue={"rotational": "1", "nr_requests": "128"})
        if backing_file:
            for name, value in (("backing_file", backing_file), ("offset", "0"),
                                ("sizelimit", "0"), ("autoclear", "0"), ("partscan", "0"),
                                ("dio", "0")):
                self._write(f"{devdir}/loop/{name}", value)
        return kname

    def mount(self, maj_min: str, mountpoint: str, fstype: str, source: str,
              options: str = "rw,relatime", super_options: str = "rw") -> None:
        """Add a mountinfo line."""
        mount_id = self._next_mount_id
        self._next_mount_id += 1
        self.mountinfo.append(f"{mount_id} 1 {maj_min} / {mountpoint} {options} shared:1 - "
                              f"{fstype} {source} {super_options}")

    def udev(self, maj_min: str, props: dict[str, str]) -> None:
        """A udev database record for a device."""
        lines = [f"E:{key}={value}" for key, value in props.items()]
        self._write(f"run/udev/data/b{maj_min}", "\n".join(lines))

    def etc(self, rel: str, text: str, *, mode: int | None = None) -> None:
        """A configuration file under etc/ (optionally with a file mode, e.g. 0o755 for cron scripts)."""
        self._write(f"etc/{rel}", text)
        if mode is not None:
            os.chmod(self.root / "etc" / rel, mode)

    def absolute_link(self, rel_link: str, target: str) -> None:
        """A symlink with an absolute target, as systemd writes them (resolves only inside the root)."""
        link = self.root / rel_link
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(target)

    def fstrim_units(self, *, timer: str = DEBIAN12_FSTRIM_TIMER,
                     service: str = DEBIAN12_FSTRIM_SERVICE, enabled: bool = True) -> None:
        """util-linux's fstrim.timer/.service in /lib/systemd/system, enabled like Debian's postinst."""
        self._write("lib/systemd/system/fstrim.timer", timer)
        self._write("lib/systemd/system/fstrim.service", service)
        if enabled:
            self.absolute_link("etc/systemd/system/timers.target.wants/fstrim.timer",
                               "/lib/systemd/system/fstrim.timer")

    def systemd_booted(self) -> None:
        """/run/systemd/system exists only when systemd is PID 1 (sd_booted)."""
        self._write("run/systemd/system/session-1.scope", "[Scope]\n")

    def command_output(self, key: str, text: str) -> None:
        """A read-only command's output as a capture stores it (commands/KEY.txt)."""
        self._write(f"commands/{key}.txt", text)

    def manifest(self, created_utc: str) -> None:
        """A capture manifest; its created_utc is "now" for schedules read from this root."""
        self._write("manifest.json", f'{{"format": "diskdoctor-capture", "format_version": 1, '
                                     f'"created_utc": "{created_utc}"}}')

    def finish(self) -> Path:
        """Write the proc files and return the root."""
        base = ["22 1 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw",
                "23 1 0:22 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw"]
        self._write("proc/self/mountinfo", "\n".join(base + self.mountinfo))
        self._write("proc/swaps", "\n".join(
            ["Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority"] + self.swaps))
        self._write("proc/mdstat", "\n".join(["Personalities : [raid0] [raid1] [raid6] "
                                              "[raid5] [raid4] [raid10] [linear]"]
                                             + self.mdstat + ["unused devices: <none>"]))
        self._write("proc/diskstats", "\n".join(self.diskstats))
        self._write("proc/sys/kernel/hostname", self.hostname)
        self._write("proc/sys/kernel/osrelease", self.kernel)
        (self.root / "sys/class/block").mkdir(parents=True, exist_ok=True)
        return self.root
