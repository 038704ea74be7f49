"""The `devices --json` document: an lsblk-style forest from the disks up."""

from __future__ import annotations

from diskdoctor.probes.host import Host

from .walk import walk_forest

TYPE_CHECKING = False  # not typing's: importing typing costs every start-up ~2 ms
if TYPE_CHECKING:
    from typing import Any


def device_node(host: Host, kname: str) -> dict[str, Any]:
    """One device's fields, with an empty "children" list for the walk to fill."""
    device = host.devices[kname]
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
        "children": [],
    }


def devices_document(host: Host) -> dict[str, Any]:
    """The whole forest: {"devices": [<node>...]}; a device with two parents appears under both, as in
    lsblk (on a graph where that would explode, later copies carry "children_shown_above": true)."""
    forest: list[dict[str, Any]] = []
    path: list[dict[str, Any]] = []
    for row in walk_forest(host):
        node = device_node(host, row.kname)
        if row.shown_above:
            node["children_shown_above"] = True
        del path[row.depth:]
        (path[-1]["children"] if path else forest).append(node)
        path.append(node)
    return {"devices": forest}
