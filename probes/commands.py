"""The read-only commands diskdoctor may run, keyed by the file name they are captured under."""

from __future__ import annotations

READ_ONLY_COMMANDS: dict[str, list[str]] = {
    "blkid": ["blkid", "-c", "/dev/null", "-o", "export"],
    "lsblk": ["lsblk", "-J", "-O", "-b"],
    "systemctl-show-fstrim": ["systemctl", "show", "fstrim.timer", "fstrim.service"],
    "dmsetup-table": ["dmsetup", "table"],
    "lvs": ["lvs", "--reportformat", "json", "-a", "-o", "+discards,lv_uuid,vg_uuid"],
    "uname": ["uname", "-r"],
}
