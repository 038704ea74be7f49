"""Regenerate the old-kernel fixture trees: python tests/build_old_fixtures.py.

They live in tests/fixtures/old-kernels/ (README.md there cites the kernel sources each file follows)."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from support.old_sysfs_builder import ERA_2618, ERA_2632, OldKernelTree

OLD_KERNELS = Path(__file__).parent / "fixtures" / "old-kernels"
GIB_SECTORS = (1 << 30) // 512
VG00_UUID = "LVM-Hz3dVbTqgX0kcWfPsE4mOy9JnAa2Lr7QdK1uY5oBw8CeNt6iMv3ZpSg0RjHxFl"
VG_WEB_UUID = "LVM-q8Wn2YcR5tLm0VbKx7JpZa3HdEs9GuFo1Ni4Ty6QeRw8Uk2Mc5Xv0Bz7Lj3DhPa"
LUKS1_UUID = "CRYPT-LUKS1-6b2f9e1c4d8a4f3b9e7c2a1d5f8b3e6c-luks-srv"


def rhel5_2618(root: Path) -> Path:
    """A RHEL 5 era (2.6.18) host: two SATA disks, md0 raid1 on the first partitions holding /boot,
    md1 raid1 on the second partitions holding LVM (VolGroup00: LogVol00 on /, LogVol01 swap), an
    empty CD drive, and the unused loop devices and RAM disks; no /sys/class/block, no /sys/dev."""
    t = OldKernelTree(root, ERA_2618, "2.6.18-398.el5", "rhel5-db")
    ahci = t.scsi_host(0, "0000:00:1f.2", "ata_piix")
    t.scsi_host(1, "0000:00:1f.2", "ata_piix")
    pata = t.scsi_host(2, "0000:00:1f.1", "ata_piix")
    disk_sectors = 312581808
    for index, letter in enumerate("ab"):
        kname = f"sd{letter}"
        host_dir = ahci if index == 0 else ahci.replace("host0", "host1")
        t.scsi_disk(kname, f"8:{16 * index}", disk_sectors, host_dir=host_dir,
                    hctl=f"{index}:0:0:0", model="WDC WD1600AAJS-0", rev="01.0")
        t.partition(kname, 1, f"8:{16 * index + 1}", 63, 208782)
        t.partition(kname, 2, f"8:{16 * index + 2}", 208845, disk_sectors - 208845)
    t.scsi_disk("sr0", "11:0", 0, host_dir=pata, hctl="2:0:0:0", model="DVD-ROM DDU1615",
                vendor="SONY", scsi_type="5", removable="1", range_=1)
    t.md("md0", "9:0", level="raid1", members=["sda1", "sdb1"])
    t.md("md1", "9:1", level="raid1", members=["sda2", "sdb2"])
    t.dm("dm-0", "253:0", 146 * GIB_SECTORS, lowers=["md1"], name="VolGroup00-LogVol00",
         uuid=VG00_UUID + "0")
    t.dm("dm-1", "253:1", 2 * GIB_SECTORS, lowers=["md1"], name="VolGroup00-LogVol01",
         uuid=VG00_UUID + "1")
    t.loops_and_ramdisks()
    t.mount("253:0", "/dev/mapper/VolGroup00-LogVol00", "/", "ext3", "rw,data=ordered")
    t.mount("9:0", "/dev/md0", "/boot", "ext3", "rw,data=ordered")
    t.swaps.append("/dev/mapper/VolGroup00-LogVol01         partition\t2097144\t0\t-1")
    t.etc("redhat-release", "Red Hat Enterprise Linux Server release 5.11 (Tikanga)")
    return t.finish()


def linux_2632(root: Path) -> Path:
    """A 2.6.32 host (the kernel RHEL 6 is based on, with mainline's files): an SSD with /boot and
    an LVM PV (vg_web: lv_root on /, lv_swap), two disks in md0 raid1 under LUKS1 on /srv, a USB
    stick, an empty DVD drive, unused loop devices and RAM disks; no discard_* queue files yet."""
    t = OldKernelTree(root, ERA_2632, "2.6.32-754.el6.x86_64", "rhel6-web")
    ahci = t.scsi_host(0, "0000:00:1f.2", "ahci")
    usb = "sys/devices/pci0000:00/0000:00:1d.7/usb2/2-1/2-1:1.0/host6"
    ssd_sectors = 234441648
    t.scsi_disk("sda", "8:0", ssd_sectors, host_dir=ahci, hctl="0:0:0:0",
                model="INTEL SSDSC2BB12", rotational="0", scheduler="noop anticipatory [deadline] cfq")
    t.partition("sda", 1, "8:1", 2048, 1024000)
    t.partition("sda", 2, "8:2", 1026048, ssd_sectors - 1026048)
    for index, letter in enumerate("bc"):
        host_dir = ahci.replace("host0", f"host{index + 1}")
        t.scsi_host(index + 1, "0000:00:1f.2", "ahci")
        t.scsi_disk(f"sd{letter}", f"8:{16 * (index + 1)}", 1953525168, host_dir=host_dir,
                    hctl=f"{index + 1}:0:0:0", model="ST1000NM0033-9ZM")
        t.partition(f"sd{letter}", 1, f"8:{16 * (index + 1) + 1}", 2048, 1953523120)
    t.scsi_host(6, "0000:00:1d.7/usb2/2-1/2-1:1.0", "usb-storage")
    t.scsi_disk("sdd", "8:48", 15633408, host_dir=usb, hctl="6:0:0:0", model="DataTraveler 2.0",
                vendor="Kingston", removable="1")
    t.partition("sdd", 1, "8:49", 2048, 15631360)
    pata = t.scsi_host(5, "0000:00:1f.5", "ata_piix")
    t.scsi_disk("sr0", "11:0", 0, host_dir=pata, hctl="5:0:0:0", model="DVD+-RW GT30N",
                vendor="HL-DT-ST", scsi_type="5", removable="1", range_=1)
    t.md("md0", "9:0", level="raid1", members=["sdb1", "sdc1"], metadata="1.2")
    t.dm("dm-0", "253:0", 100 * GIB_SECTORS, lowers=["sda2"], name="vg_web-lv_root",
         uuid=VG_WEB_UUID + "0")
    t.dm("dm-1", "253:1", 8 * GIB_SECTORS, lowers=["sda2"], name="vg_web-lv_swap",
         uuid=VG_WEB_UUID + "1")
    t.dm("dm-2", "253:2", 1953519016 - 4096, lowers=["md0"], name="luks-srv", uuid=LUKS1_UUID)
    t.loops_and_ramdisks()
    t.mount("253:0", "/dev/mapper/vg_web-lv_root", "/", "ext4", "rw,relatime")
    t.mount("8:1", "/dev/sda1", "/boot", "ext4", "rw,relatime")
    t.mount("253:2", "/dev/mapper/luks-srv", "/srv", "ext4", "rw,noatime")
    t.swaps.append("/dev/mapper/vg_web-lv_swap              partition\t8388600\t0\t-1")
    t.etc("redhat-release", "Red Hat Enterprise Linux Server release 6.10 (Santiago)")
    return t.finish()


OLD_KERNEL_FIXTURES: dict[str, Callable[[Path], Path]] = {
    "rhel5-2.6.18": rhel5_2618,
    "linux-2.6.32": linux_2632,
}


def main() -> None:
    """Rebuild every old-kernel tree under tests/fixtures/old-kernels/<name>/ (README.md is kept)."""
    for name, build in OLD_KERNEL_FIXTURES.items():
        target = OLD_KERNELS / name
        shutil.rmtree(target, ignore_errors=True)
        build(target)
        print(f"wrote {target}")


if __name__ == "__main__":
    main()
