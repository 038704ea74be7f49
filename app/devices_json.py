"""The `devices --json` document: an lsblk-style forest from the disks up."""

from __future__ import annotations

from typing import Any

from diskdoctor.probes.host import Host

MAX_DEPTH = 64


def device_node(host: Host, kname: str, depth: int = 0) -> dict[str, Any]:
    """One device and, recursively, everything stacked on it (a device with two parents
    appears under both, as in lsblk)."""
    device = host.devices[kname]
    children = [] if depth >= MAX_DEPTH else [
        device_node(host, child, depth + 1) for child in host.children(kname)]
    return {
        "name": device.name,
        "kname": device.kname,
        "path": device.path,
        "maj_min": device.maj_min.value,
        "type": device.kind,
        "size_bytes": device.size_bytes.value,
        "rotational": device.rotational.value,
        "scheduler": device.scheduler.value,
        "read_only": device.read_only.value,
        "removable": device.removable.value,
        "model": device.model.value,
        "serial": device.serial.value,
        "transport": device.transport.value,
        "discard": {
            "granularity_bytes": device.discard_granularity.value,
            "max_bytes": device.discard_max_bytes.value,
            "max_hw_bytes": device.discard_max_hw_bytes.value,
            "alignment_bytes": device.discard_alignment.value,
        },
        "fstype": device.fstype.value,
        "mountpoints": host.mountpoints(kname),
        "children": children,
    }


def devices_document(host: Host) -> dict[str, Any]:
    """The whole forest: {"devices": [<node>...]}."""
    return {"devices": [device_node(host, kname) for kname in host.roots()]}
