"""Parsers of kernel and command text: exact results on real samples, no exceptions on garbage."""

from __future__ import annotations

from diskdoctor.probes.blkid import parse_blkid_export
from diskdoctor.probes.blockdev import active_scheduler
from diskdoctor.probes.device_kinds import (
    describe_dm,
    lsblk_type_from_dm_uuid,
    split_lvm_dm_name,
    transport_from_sysfs_path,
)
from diskdoctor.probes.host import natural_key
from diskdoctor.probes.mountinfo import parse_mountinfo
from diskdoctor.probes.swaps import parse_swaps
from diskdoctor.probes.udev import parse_udev_data
from hypothesis import given, settings
from hypothesis import strategies as st

MOUNTINFO = """\
27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard
88 27 0:45 /@home /home\\040dir rw,noatime shared:5 master:1 - btrfs /dev/loop2 rw,compress-force=zstd:3,discard=async,space_cache=v2
garbage line without separator
"""


def test_mountinfo_fields_escapes_and_optional_fields() -> None:
    root, home = parse_mountinfo(MOUNTINFO)
    assert (root.maj_min, root.mountpoint, root.fstype, root.source) == ("254:0", "/", "ext4",
                                                                         "/dev/vda")
    assert root.super_options == ("rw", "discard")
    assert home.mountpoint == "/home dir" and home.fs_root == "/@home"
    assert "discard=async" in home.super_options and "noatime" in home.options


def test_swaps_udev_blkid() -> None:
    swaps = parse_swaps("Filename Type Size Used Priority\n/dev/sda3 partition 1 0 -2\n")
    assert swaps == [("/dev/sda3", "partition")]
    props = parse_udev_data("S:disk/by-id/x\nE:ID_FS_TYPE=xfs\nE:ID_SERIAL_SHORT=ABC=1\n")
    assert props == {"ID_FS_TYPE": "xfs", "ID_SERIAL_SHORT": "ABC=1"}
    blkid = parse_blkid_export("DEVNAME=/dev/loop0\nUUID=u1\nTYPE=ext4\n\nDEVNAME=/dev/sda1\n"
                               "TYPE=swap\n")
    assert blkid["loop0"]["TYPE"] == "ext4" and blkid["sda1"]["TYPE"] == "swap"


def test_scheduler_and_natural_order() -> None:
    assert active_scheduler("none [mq-deadline] kyber bfq") == "mq-deadline"
    assert active_scheduler("none") == "none"
    assert sorted(["loop10", "loop2", "nvme0n1p10", "nvme0n1p2"], key=natural_key) == [
        "loop2", "loop10", "nvme0n1p2", "nvme0n1p10"]


def test_lsblk_type_vocabulary_for_dm() -> None:
    assert lsblk_type_from_dm_uuid("LVM-abc") == "lvm"
    assert lsblk_type_from_dm_uuid("CRYPT-LUKS2-abc-name") == "crypt"
    assert lsblk_type_from_dm_uuid("mpath-3600") == "mpath"
    assert lsblk_type_from_dm_uuid("part1-mpath-3600") == "part"
    assert lsblk_type_from_dm_uuid(None) == "dm"
    assert lsblk_type_from_dm_uuid("") == "dm"


def test_lvm_names_with_doubled_dashes() -> None:
    assert split_lvm_dm_name("vg0-etcd") == ("vg0", "etcd", None)
    assert split_lvm_dm_name("my--vg-wal--lv") == ("my-vg", "wal-lv", None)
    assert split_lvm_dm_name("vg-pool-tpool") == ("vg", "pool", "tpool")


def test_dm_meaning() -> None:
    assert describe_dm("luks-x", "CRYPT-LUKS1-0123-luks-x").crypt_type == "LUKS1"
    assert "plain" in describe_dm("c", "CRYPT-PLAIN-c").summary
    lv = describe_dm("vg0-etcd", "LVM-" + "a" * 64)
    assert (lv.vg_name, lv.lv_name) == ("vg0", "etcd")
    assert "multipath" in describe_dm("mpatha", "mpath-3600").summary


def test_transport_from_path() -> None:
    assert transport_from_sysfs_path("nvme0n1", "sys/devices/pci/nvme/nvme0/nvme0n1")[0] == "nvme"
    assert transport_from_sysfs_path("sda", "sys/devices/pci/ata1/host0/t/0:0:0:0/block/sda")[0] \
        == "sata"
    assert transport_from_sysfs_path("sdb", "sys/devices/pci/usb2/2-1/host6/block/sdb")[0] == "usb"
    assert transport_from_sysfs_path("vda", "sys/devices/pci/virtio1/block/vda")[0] == "virtio"
    assert transport_from_sysfs_path("zram0", "sys/devices/virtual/block/zram0") == (
        None, "virtual device: no transport")


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_parsers_never_raise_on_arbitrary_text(text: str) -> None:
    parse_mountinfo(text)
    parse_swaps(text)
    parse_udev_data(text)
    parse_blkid_export(text)
    active_scheduler(text)
    split_lvm_dm_name(text)
    lsblk_type_from_dm_uuid(text)
    describe_dm(text, text)
