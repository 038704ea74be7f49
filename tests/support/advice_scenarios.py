"""Hosts for the advisor's rules: one small builder per kind of stack, each tweakable per test."""

from __future__ import annotations

from pathlib import Path

from support.fixture_scenarios import GIB, LUKS_UUID, LVM_VG_UUID
from support.sysfs_builder import SysrootBuilder

SWAP_LINE = "{name}                               partition\t16777212\t0\t\t-2"
VIRTIO_DIR = "sys/devices/pci0000:00/0000:00:05.0/virtio2/block/{kname}"


def nvme_host(root: Path, *, fstype: str = "xfs", mountpoint: str = "/var/lib/etcd",
              options: str = "rw,noatime", super_options: str = "rw,attr2,inode64",
              queue: dict[str, str] | None = None, start: int = 2048, swap: str | None = None,
              apst: str | None = None, data_dirs: tuple[str, ...] = ()) -> SysrootBuilder:
    """An NVMe disk: p1 holds `fstype` on `mountpoint`, p2 is /; swap on p3 (same disk) or on a
    second NVMe (`swap="other"`)."""
    b = SysrootBuilder(root, hostname="db-1")
    b.nvme("nvme0n1", "259:0", 960 * GIB, pci="0000:04:00.0", ctrl="nvme0", model="Micron_7450",
           serial="MTFDKBG960TFR1")
    for name, value in (queue or {}).items():
        (root / b._dirs["nvme0n1"] / "queue" / name).write_text(value + "\n")
    b.partition("nvme0n1", 1, "259:1", start, 400 * GIB)
    b.partition("nvme0n1", 2, "259:2", 900 * 1024 * 2048, 100 * GIB)
    b.mount("259:1", mountpoint, fstype, "/dev/nvme0n1p1", options, super_options)
    b.mount("259:2", "/", "ext4", "/dev/nvme0n1p2", "rw,relatime", "rw")
    if swap == "same":
        b.partition("nvme0n1", 3, "259:3", 1000 * 1024 * 2048, 16 * GIB)
        b.swaps.append(SWAP_LINE.format(name="/dev/nvme0n1p3"))
    elif swap == "other":
        b.nvme("nvme1n1", "259:4", 240 * GIB, pci="0000:05:00.0", ctrl="nvme1", model="Micron_7450",
               serial="MTFDKBG240TFR2")
        b.swaps.append(SWAP_LINE.format(name="/dev/nvme1n1"))
    if apst is not None:
        b._write("sys/module/nvme_core/parameters/default_ps_max_latency_us", apst)
    for path in data_dirs:
        (root / path.lstrip("/")).mkdir(parents=True, exist_ok=True)
    return b


def sata_host(root: Path, *, rotational: str = "0", scheduler: str = "none [mq-deadline] kyber bfq",
              link: tuple[str, str] = ("6.0 Gbps", "6.0 Gbps"), speed_downs: str = "0",
              write_cache: str = "write back", fua: str = "0", alpm: str | None = None,
              identify_cache: bool | None = None) -> SysrootBuilder:
    """A SATA disk on ata1 (scsi host0) with /var/lib/etcd (xfs) on sda1, its link speeds, cache mode,
    the host's ALPM policy and the drive's IDENTIFY data (word 85 bit 5: write cache enabled)."""
    b = SysrootBuilder(root, hostname="sata-1")
    b.sata("sda", "8:0", 480 * GIB, port=1, model="WDC WD40EFRX" if rotational == "1" else "SSD 860",
           rotational=rotational, ata_trim="queued")
    queue = root / b._dirs["sda"] / "queue"
    for name, value in (("scheduler", scheduler), ("write_cache", write_cache), ("fua", fua)):
        (queue / name).write_text(value + "\n")
    b._write("sys/devices/pci0000:00/0000:00:1f.2/ata1/link1/ata_link/link1/sata_spd", link[0])
    b._write("sys/devices/pci0000:00/0000:00:1f.2/ata1/link1/ata_link/link1/hw_sata_spd_limit", link[1])
    b._link("sys/class/ata_link/link1", "sys/devices/pci0000:00/0000:00:1f.2/ata1/link1/ata_link/link1")
    b._write("sys/devices/pci0000:00/0000:00:1f.2/ata1/link1/dev1.0/ata_device/dev1.0/spdn_cnt", speed_downs)
    if alpm is not None:
        host = "sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/scsi_host/host0"
        b._write(f"{host}/link_power_management_policy", alpm)
        b._link("sys/class/scsi_host/host0", host)
    if identify_cache is not None:
        words = ["0000"] * 256
        words[82], words[85] = "7469", "7469" if identify_cache else "7449"  # bit 5: write cache
        rows = "\n".join(" ".join(words[i:i + 8]) for i in range(0, 256, 8))
        b._write("sys/devices/pci0000:00/0000:00:1f.2/ata1/link1/dev1.0/ata_device/dev1.0/id", rows)
    b.partition("sda", 1, "8:1", 2048, 400 * GIB)
    b.mount("8:1", "/var/lib/etcd", "xfs", "/dev/sda1", "rw,noatime", "rw,attr2,inode64")
    return b


def virtio_host(root: Path, *, rotational: str = "1", scheduler: str = "none [mq-deadline] kyber bfq",
                ) -> SysrootBuilder:
    """A cloud VM: virtio vda with / on vda1."""
    b = SysrootBuilder(root, hostname="vm-1")
    b.whole("vda", VIRTIO_DIR.format(kname="vda"), "254:0", 64 * GIB,
            queue={"rotational": rotational, "scheduler": scheduler, "fua": "0"})
    b.partition("vda", 1, "254:1", 2048, 63 * GIB)
    b.mount("254:1", "/", "ext4", "/dev/vda1", "rw,relatime", "rw")
    return b


def md_host(root: Path, *, level: str = "raid5", members: int = 3, chunk: int = 512 * 1024,
            fstype: str = "xfs", super_options: str = "rw,attr2,inode64", read_ahead: str = "128",
            crypt_table: str | None = None, mountpoint: str = "/var/lib/elasticsearch") -> SysrootBuilder:
    """NVMe members -> md `level` -> LVM LV -> (optional LUKS2) -> `fstype` on `mountpoint`."""
    b = SysrootBuilder(root, hostname="es-1")
    names = []
    for index in range(members):
        b.nvme(f"nvme{index}n1", f"259:{index}", 960 * GIB, pci=f"0000:0{index + 4}:00.0",
               ctrl=f"nvme{index}", model="Micron_7450", serial=f"MTFDKBG960TF{index}")
        names.append(f"nvme{index}n1")
    b.md("md0", "9:0", 1800 * GIB, level=level, members=names, chunk_bytes=chunk,
         queue={"read_ahead_kb": read_ahead})
    b.dm("dm-0", "253:0", 1000 * GIB, name="vg0-data",
         uuid=f"LVM-{LVM_VG_UUID}Zq1Wx2Ec3Rv4Tb5Yn6Um7Ik8Ol9Pa0Sd1", lowers=["md0"],
         queue={"read_ahead_kb": read_ahead})
    top = "253:0"
    if crypt_table is not None:
        b.dm("dm-1", "253:1", 1000 * GIB, name="luks-data", uuid=f"CRYPT-LUKS2-{LUKS_UUID}-luks-data",
             lowers=["dm-0"])
        b.command_output("dmsetup-table", f"luks-data: 0 2097119232 crypt {crypt_table}\n"
                                          "vg0-data: 0 2097152000 linear 9:0 2048\n")
        top = "253:1"
    source = "/dev/mapper/luks-data" if crypt_table is not None else "/dev/mapper/vg0-data"
    b.mount(top, mountpoint, fstype, source, "rw,noatime", super_options)
    return b
