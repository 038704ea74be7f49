"""The read-only commands diskdoctor may run, keyed by the file name they are captured under."""

from __future__ import annotations

import re

READ_ONLY_COMMANDS: dict[str, list[str]] = {
    "blkid": ["blkid", "-c", "/dev/null", "-o", "export"],
    "lsblk": ["lsblk", "-J", "-O", "-b"],
    "systemctl-show-fstrim": ["systemctl", "show", "fstrim.timer", "fstrim.service"],
    "dmsetup-table": ["dmsetup", "table"],
    "lvs": ["lvs", "--reportformat", "json", "-a", "-o", "+discards,lv_uuid,vg_uuid"],
    "uname": ["uname", "-r"],
    "ceph-osd-version": ["ceph-osd", "--version"],
    "fio-version": ["fio", "--version"],
}


def command_slug(name: str) -> str:
    """A file-name-safe key part for a device or mountpoint ("/srv/logs" -> "srv-logs", "/" -> "root")."""
    return re.sub(r"[^A-Za-z0-9_.]+", "-", name).strip("-") or "root"


def tune2fs_command(kname: str, path: str) -> tuple[str, list[str]]:
    """`tune2fs -l` of one ext2/3/4 device (reads the superblock only): key and argv."""
    return f"tune2fs-{command_slug(kname)}", ["tune2fs", "-l", path]


def compsize_command(mountpoint: str) -> tuple[str, list[str]]:
    """`compsize -x` of one btrfs mount (real compression ratio; needs root): key and argv."""
    return f"compsize-{command_slug(mountpoint)}", ["compsize", "-x", mountpoint]
