"""Shared by the CLI and the TRIM screen: which filesystem to trim, and how to describe the result."""

from __future__ import annotations

import os

from diskdoctor.app.base.errors import UsageError
from diskdoctor.app.base.formatting import human_bytes
from diskdoctor.probes.fstrim_run import BYTES_NOTE, FstrimResult, HeldMount, hold_mount
from diskdoctor.probes.host import Host
from diskdoctor.probes.host_text import real_text
from diskdoctor.probes.root import describe_os_error

from .summary import mount_trims


def trimmable_mount(host: Host, mountpoint: str) -> tuple[str, tuple[str, ...]]:
    """(mountpoint as mounted, the disks under it) or a UsageError naming the mounted filesystems."""
    wanted = os.path.normpath(mountpoint)
    trims = {trim.mountpoint: trim for trim in mount_trims(host)}
    if wanted in trims:
        return wanted, trims[wanted].reach.leaves
    points = sorted(trims)
    hint = ", ".join(points[:8]) + (" ..." if len(points) > 8 else "")
    raise UsageError(f"{mountpoint} is not the mountpoint of a filesystem on a block device "
                     f"(mounted: {hint or 'none'})")


def hold_confirmed_mount(host: Host, mountpoint: str) -> HeldMount:
    """Hold the filesystem at `mountpoint` (as the snapshot shows it) open by its real name, checking it is
    the mount the host snapshot shows."""
    mounted = host.mount_for_path(mountpoint)
    try:
        held = hold_mount(real_text(mountpoint))
    except PermissionError as err:
        raise UsageError(f"{mountpoint}: fstrim needs root (run diskdoctor as root)") from err
    except OSError as err:
        raise UsageError(f"cannot open {mountpoint}: {describe_os_error(err)}") from err
    expected = mounted.mount.mount_id if mounted and mounted.mount.mountpoint == mountpoint else None
    if held.mount_id is not None and expected is not None and held.mount_id != expected:
        held.close()
        raise UsageError(f"{mountpoint} changed while it was being read (mounted over?); try again")
    return held


def result_text(result: FstrimResult) -> str:
    """What fstrim reported, what the disks' own counters say reached them, and the caveat."""
    if not result.ok:
        return f"failed after {result.elapsed_s:.1f} s: {result.message}"
    lines = [f"{result.mountpoint}: fstrim reported {human_bytes(result.reported_bytes)} "
             f"({result.reported_bytes} bytes) in {result.elapsed_s:.1f} s."]
    for disk, counters in (result.reached or {}).items():
        lines.append(f"{disk} completed {counters.requests} discard requests for "
                     f"{human_bytes(counters.bytes)}, busy {counters.busy_ms} ms "
                     f"(/sys/block/{disk}/stat)")
    lines.append(f"Note: {BYTES_NOTE}.")
    return "\n".join(lines)
