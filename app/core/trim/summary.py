"""Per-filesystem TRIM reach lines shared by the CLI and the TUI."""

from __future__ import annotations

from dataclasses import dataclass

from diskdoctor.probes.discard_path import DiscardReach, discard_reach
from diskdoctor.probes.host import Host


@dataclass(frozen=True, slots=True)
class MountTrim:
    """A mounted filesystem and whether discard reaches the bottom of its stack."""

    mountpoint: str
    fstype: str
    kname: str
    reach: DiscardReach


def mount_trims(host: Host) -> list[MountTrim]:
    """One entry per mounted filesystem on a block device (each mountpoint once)."""
    seen: set[str] = set()
    trims = []
    for mounted in host.block_mounts():
        point = mounted.mount.mountpoint
        if point in seen or mounted.kname is None:
            continue
        seen.add(point)
        trims.append(MountTrim(point, mounted.mount.fstype, mounted.kname,
                               discard_reach(host, mounted.kname)))
    return trims
