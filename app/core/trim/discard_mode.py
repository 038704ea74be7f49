"""A filesystem's own discard behaviour from its mount options: continuous, async, or off."""

from __future__ import annotations

import re
from dataclasses import dataclass

from diskdoctor.probes.fstab import FstabEntry

BTRFS_AUTO_ASYNC = (6, 2)


@dataclass(frozen=True, slots=True)
class DiscardMode:
    """How the filesystem discards freed blocks by itself, and where that was read."""

    mode: str
    """continuous (sync discard on every delete), async (btrfs, batched in the background) or off."""
    option: str | None
    automatic: bool
    """btrfs turned discard=async on by itself (kernel >= 6.2 on a discard-capable device)."""
    text: str
    source: str


def kernel_version(release: str | None) -> tuple[int, int] | None:
    """(major, minor) of a kernel release such as '6.1.0-18-amd64'."""
    match = re.match(r"^(\d+)\.(\d+)", release or "")
    return (int(match.group(1)), int(match.group(2))) if match else None


def discard_mode(fstype: str, options: tuple[str, ...], fstab: FstabEntry | None,
                 kernel: str | None, source: str) -> DiscardMode:
    """Read the discard mode from the options the kernel reports for the mount."""
    if fstype == "btrfs":
        if "discard=async" in options:
            asked = fstab is not None and any(o.startswith("discard") for o in fstab.options)
            version = kernel_version(kernel)
            automatic = not asked and (version is None or version >= BTRFS_AUTO_ASYNC)
            how = ("turned on automatically by btrfs (kernel >= 6.2 on a device that accepts discard)"
                   if automatic else "asked for in the mount options")
            return DiscardMode("async", "discard=async", automatic,
                               f"async discard (batched in the background), {how}", source)
        if "discard" in options or "discard=sync" in options:
            option = "discard=sync" if "discard=sync" in options else "discard"
            return DiscardMode("continuous", option, False,
                               "synchronous discard on every delete (btrfs discard=sync)", source)
        if "nodiscard" in options:
            return DiscardMode("off", "nodiscard", False, "off (nodiscard)", source)
        return DiscardMode("off", None, False, "off", source)
    if "discard" in options:
        return DiscardMode("continuous", "discard", False,
                           "continuous: the filesystem discards on every delete (mount option discard)",
                           source)
    option = "nodiscard" if "nodiscard" in options else None
    return DiscardMode("off", option, False, "off (the default: use periodic fstrim)", source)
