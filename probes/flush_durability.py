"""Why an fdatasync on a benchmark's target may not reach stable storage: cache flushes switched off at the
mount (nobarrier, barrier=0) or at a disk whose queue was told "write through" while its own volatile cache
is on. A figure measured there is not what a durable write costs, so the benchmark records the reasons."""

from __future__ import annotations

from .device_cache import WRITE_THROUGH, device_says_cache_on, read_cache_reports
from .host import Host
from .root import Root

NO_FLUSH_OPTIONS = ("nobarrier", "barrier=0")
"""Mount options that stop the filesystem sending cache flushes (ext3/ext4, btrfs, f2fs, reiserfs, and xfs
before Linux 4.19 dropped the option; a kernel that refuses it never shows it in mountinfo)."""


def mount_reasons(options: tuple[str, ...] | list[str]) -> list[str]:
    """The mount's own reasons: "mounted nobarrier: the filesystem sends no cache flushes"."""
    found = [option for option in NO_FLUSH_OPTIONS if option in options]
    return [f"mounted {option}: the filesystem sends no cache flushes" for option in found[:1]]


def cache_reasons(root: Root, host: Host, layers: tuple[str, ...] | list[str]) -> list[str]:
    """A whole disk under the target whose kernel view is "write through" while the drive reports its own
    volatile cache on (the WCACHE-SYSFS-TOGGLED finding): no flush reaches that cache."""
    reasons = []
    for kname in layers:
        device = host.devices.get(kname)
        if device is None or device.kind != "disk":
            continue
        mode = root.fact_str(f"{device.queue_dir}/queue/write_cache").value
        if mode != WRITE_THROUGH:
            continue
        decisive = device_says_cache_on(read_cache_reports(root, device))
        if decisive is not None:
            reasons.append(f"{device.name}'s queue says write through while its drive's cache is on "
                           f"({decisive.what}): no cache flush reaches it")
    return reasons


def not_durable_reasons(root: Root, host: Host, options: tuple[str, ...] | list[str],
                        layers: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Every reason an fdatasync on this mount and these layers is not durable (empty when it is, as far
    as the host can tell; RAM-backed filesystems are judged from their type by the app)."""
    return tuple(mount_reasons(options) + cache_reasons(root, host, layers))
