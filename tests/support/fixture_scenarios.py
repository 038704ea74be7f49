"""The fixture hosts: storage stacks this kernel cannot build (md, dm, LVM, LUKS, multipath)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from support.sysfs_builder import SysrootBuilder

GIB = 1 << 30
MIB = 1 << 20
LVM_VG_UUID = "Jx3kQe8yLm0aB9cD2eF4gH6iJ8kL0mN2"
LUKS_UUID = "3f9c2a417b8e4d06a5c1e2f3d4b5a697"
MPATH_WWID = "3600508b4000156d700012000000b0000"


def sata_ext4(root: Path) -> Path:
    """A SATA SSD with /boot, / and swap partitions, plus a DVD drive."""
    b = SysrootBuilder(root, hostname="web-01")
    b.sata("sda", "8:0", 480 * GIB, port=1, model="Samsung SSD 860 EVO 500GB")
    b.partition("sda", 1, "8:1", 2048, 1 * GIB)
    b.partition("sda", 2, "8:2", 2099200, 440 * GIB)
    b.partition("sda", 3, "8:3", 924846080, 16 * GIB)
    b.sata("sr0", "11:0", 1 * GIB, port=2, model="DVD+-RW DU-8A5LH", rotational="1",
           scsi_type="5", discard=False)
    b.udev("8:0", {"ID_SERIAL_SHORT": "S3Z9NB0K123456A", "ID_MODEL": "Samsung_SSD_860"})
    b.udev("8:1", {"ID_FS_TYPE": "ext4", "ID_FS_UUID": "0f1d2c3b-4a59-4687-9a1b-2c3d4e5f6a7b"})
    b.udev("8:2", {"ID_FS_TYPE": "ext4", "ID_FS_UUID": "7e6d5c4b-3a29-4817-8695-a4b3c2d1e0f9"})
    b.udev("8:3", {"ID_FS_TYPE": "swap"})
    b.mount("8:2", "/", "ext4", "/dev/sda2", "rw,relatime", "rw,errors=remount-ro")
    b.mount("8:1", "/boot", "ext4", "/dev/sda1", "rw,relatime", "rw")
    b.swaps.append("/dev/sda3                               partition\t16777212\t0\t\t-2")
    b.etc("fstab", "UUID=7e6d5c4b-3a29-4817-8695-a4b3c2d1e0f9 / ext4 errors=remount-ro 0 1\n")
    return b.finish()


def etcd_raid0_lvm_luks(root: Path) -> Path:
    """Two NVMe partitions -> md raid0 -> LVM LV -> LUKS2 -> xfs on /var/lib/etcd.

    The crypt layer was opened without allow_discards, so it blocks discard."""
    b = SysrootBuilder(root, hostname="etcd-2")
    for index in (0, 1):
        b.nvme(f"nvme{index}n1", f"259:{index * 3}", 1920 * GIB, pci=f"0000:0{index + 4}:00.0",
               ctrl=f"nvme{index}", model="SAMSUNG MZQL21T9HCJR-00A07",
               serial=f"S64GNE0R90051{index}")
        b.partition(f"nvme{index}n1", 1, f"259:{index * 3 + 1}", 2048, 1900 * GIB)
    b.partition("nvme0n1", 2, "259:2", 3984588800, 16 * GIB)
    b.md("md0", "9:0", 3800 * GIB, level="raid0", members=["nvme0n1p1", "nvme1n1p1"])
    b.dm("dm-0", "253:0", 200 * GIB, name="vg0-etcd",
         uuid=f"LVM-{LVM_VG_UUID}Zq1Wx2Ec3Rv4Tb5Yn6Um7Ik8Ol9Pa0Sd1", lowers=["md0"],
         queue={"minimum_io_size": "524288", "optimal_io_size": "1048576"})
    b.dm("dm-1", "253:1", 200 * GIB - 16 * MIB, name="luks-etcd",
         uuid=f"CRYPT-LUKS2-{LUKS_UUID}-luks-etcd", lowers=["dm-0"], discard=False)
    b.mount("253:1", "/var/lib/etcd", "xfs", "/dev/mapper/luks-etcd", "rw,noatime",
            "rw,attr2,inode64,logbufs=8,logbsize=32k,sunit=1024,swidth=2048,noquota")
    b.mount("259:2", "/", "ext4", "/dev/nvme0n1p2", "rw,relatime", "rw")
    b.etc("crypttab", "luks-etcd UUID=3f9c2a41-7b8e-4d06-a5c1-e2f3d4b5a697 none luks\n")
    return b.finish()


def lvm_multi_pv(root: Path) -> Path:
    """A volume group over three SAS PVs; one LV spans all three, one name has dashes."""
    b = SysrootBuilder(root, hostname="db-7")
    for index, letter in enumerate("bcd"):
        b.sata(f"sd{letter}", f"8:{16 * (index + 1)}", 960 * GIB, port=index + 3,
               model="MZ7KH960HAJR0D3", vendor="SAMSUNG")
    pvs = ["sdb", "sdc", "sdd"]
    b.dm("dm-0", "253:0", 2800 * GIB, name="data-pg",
         uuid="LVM-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90Uv12Wx34Yz56Ab78Cd90Ef12", lowers=pvs)
    b.dm("dm-1", "253:1", 64 * GIB, name="my--vg-wal--lv",
         uuid="LVM-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Zz11Yy22Xx33Ww44Vv55Uu66Tt77Ss88", lowers=["sdb"])
    b.mount("253:0", "/var/lib/postgresql", "ext4", "/dev/mapper/data-pg", "rw,noatime",
            "rw,stripe=256")
    b.mount("253:1", "/var/lib/postgresql/wal", "xfs", "/dev/mapper/my--vg-wal--lv")
    return b.finish()


def multipath(root: Path) -> Path:
    """Two SAS paths to one LUN -> dm-multipath -> kpartx partition -> ext4 on /srv."""
    b = SysrootBuilder(root, hostname="san-host")
    for index, letter in enumerate("ef"):
        b.sata(f"sd{letter}", f"8:{64 + 16 * index}", 500 * GIB, port=index + 6,
               model="MSA 2050 SAN", vendor="HPE", rotational="1")
    b.dm("dm-0", "253:0", 500 * GIB, name="mpatha", uuid=f"mpath-{MPATH_WWID}",
         lowers=["sde", "sdf"])
    b.dm("dm-1", "253:1", 499 * GIB, name="mpatha1", uuid=f"part1-mpath-{MPATH_WWID}",
         lowers=["dm-0"])
    b.mount("253:1", "/srv", "ext4", "/dev/mapper/mpatha1")
    return b.finish()


def loop_image(root: Path) -> Path:
    """An attached loop device with ext4 from an image file, and an unattached one."""
    b = SysrootBuilder(root, hostname="builder")
    b.loop("loop0", "7:0", 2 * GIB, "/var/lib/images/disk.img")
    b.loop("loop1", "7:1", 0, None)
    b.whole("zram0", "sys/devices/virtual/block/zram0", "252:0", 4 * GIB,
            queue={"scheduler": "", "nr_requests": "", "rotational": "0"})
    b.mount("7:0", "/mnt/image", "ext4", "/dev/loop0")
    b.swaps.append("/dev/zram0                              partition\t4194300\t0\t\t100")
    return b.finish()


KUBELET_VOLUME = ("/var/lib/kubelet/pods/8f0c2a4e-5b1d-4c0e-9a77-3c1f2d4e5f60/volumes/kubernetes.io~csi/"
                  "pvc-4d5e6f70-8192-4a3b-bc4d-5e6f708192a3/mount")


def long_names(root: Path) -> Path:
    """A Kubernetes node with long names everywhere: CSI volume mountpoints, LVM/LUKS names, a WAL dir.

    For layout only (snapshots at 80, 120 and 200 columns): the names are the point, not the stack."""
    b = SysrootBuilder(root, hostname="k8s-worker-elasticsearch-hot-07.prod.example.internal")
    for index in (0, 1):
        b.nvme(f"nvme{index}n1", f"259:{index * 3}", 3840 * GIB, pci=f"0000:0{index + 4}:00.0",
               ctrl=f"nvme{index}", model="SAMSUNG MZQL23T8HCLS-00A07", serial=f"S64HNA0T60023{index}")
        b.partition(f"nvme{index}n1", 1, f"259:{index * 3 + 1}", 2048, 3800 * GIB)
    b.partition("nvme0n1", 2, "259:2", 7969177600, 30 * GIB)
    b.dm("dm-0", "253:0", 1500 * GIB, name="vg_elasticsearch_hot-lv_data_nodes_shard_01",
         uuid=f"LVM-{LVM_VG_UUID}Hh1Jj2Kk3Ll4Zz5Xx6Cc7Vv8Bb9Nn0Mm1", lowers=["nvme0n1p1", "nvme1n1p1"])
    b.dm("dm-1", "253:1", 1500 * GIB - 16 * MIB, name="luks-elasticsearch-hot-tier-data-volume-01",
         uuid=f"CRYPT-LUKS2-{LUKS_UUID}-luks-elasticsearch-hot-tier-data-volume-01", lowers=["dm-0"],
         discard=False)
    b.dm("dm-2", "253:2", 200 * GIB, name="vg_elasticsearch_hot-lv_postgresql_write_ahead_log",
         uuid=f"LVM-{LVM_VG_UUID}Qq1Ww2Ee3Rr4Tt5Yy6Uu7Ii8Oo9Pp0Aa2", lowers=["nvme1n1p1"])
    b.mount("253:1", KUBELET_VOLUME, "xfs", "/dev/mapper/luks-elasticsearch-hot-tier-data-volume-01",
            "rw,noatime", "rw,attr2,inode64,logbufs=8,logbsize=32k,noquota")
    b.mount("253:2", "/srv/postgresql/16/main/pg_wal_archive_for_point_in_time_recovery", "ext4",
            "/dev/mapper/vg_elasticsearch_hot-lv_postgresql_write_ahead_log", "rw,relatime", "rw")
    b.mount("259:2", "/", "ext4", "/dev/nvme0n1p2", "rw,relatime", "rw")
    b.fstrim_units()
    return b.finish()


SCENARIOS: dict[str, Callable[[Path], Path]] = {
    "long-names": long_names,
    "sata-ext4": sata_ext4,
    "etcd-raid0-lvm-luks": etcd_raid0_lvm_luks,
    "lvm-multi-pv": lvm_multi_pv,
    "multipath": multipath,
    "loop-image": loop_image,
}
