"""SATA TRIM flavour per disk from /sys/class/ata_device/devN.M/trim: queued, unqueued or unsupported."""

from __future__ import annotations

import re

from .facts import Fact
from .host import Host
from .root import Root

ATA_DEVICES = "sys/class/ata_device"
ATA_PORT = re.compile(r"/ata(\d+)/")
BLOCKING = ("unqueued", "forced_unqueued")
"""Unqueued TRIM commands stall every other I/O on the disk while they run (sysfs-ata ABI)."""


def read_ata_trim(root: Root, host: Host) -> dict[str, Fact[str]]:
    """The trim mode of every whole disk behind a libata port, by kernel name."""
    modes: dict[str, Fact[str]] = {}
    entries = None
    for kname, device in host.devices.items():
        match = ATA_PORT.search("/" + device.sys_dir)
        if match is None or device.kind != "disk":
            continue
        if entries is None:
            entries = root.listdir(ATA_DEVICES) or []
        for entry in entries:
            if entry.startswith(f"dev{match.group(1)}."):
                modes[kname] = root.fact_str(f"{ATA_DEVICES}/{entry}/trim")
                break
    return modes
