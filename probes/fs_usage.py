"""Size, used and free bytes of a mounted filesystem: statvfs live, the captured figures otherwise."""

from __future__ import annotations

import os
from dataclasses import dataclass

from .facts import Fact
from .root import Root, describe_os_error

CAPTURED_USAGE = "fs-usage.json"


@dataclass(frozen=True, slots=True)
class FsUsage:
    """Filesystem capacity as df reports it (used = total - free)."""

    size_bytes: Fact[int]
    used_bytes: Fact[int]
    free_bytes: Fact[int]


def _statvfs(mountpoint: str) -> dict[str, int]:
    stat = os.statvfs(mountpoint)
    size = stat.f_blocks * stat.f_frsize
    return {"size": size, "used": size - stat.f_bfree * stat.f_frsize,
            "free": stat.f_bavail * stat.f_frsize}


def usage_figures(mountpoint: str) -> dict[str, int] | str:
    """statvfs figures of a live mountpoint, or the reason they cannot be read."""
    try:
        return _statvfs(mountpoint)
    except OSError as err:
        return describe_os_error(err)


def read_fs_usage(root: Root, mountpoint: str) -> FsUsage:
    """Usage of `mountpoint`, live via statvfs or from the capture's fs-usage.json."""
    if root.live:
        source = f"statvfs({mountpoint})"
        figures: dict[str, int] | str = usage_figures(mountpoint)
    else:
        source = f"/{CAPTURED_USAGE} (statvfs at capture time)"
        text, why = root.read_text(CAPTURED_USAGE)
        import json  # only for a capture: the TUI's first frame on a live host needs no JSON (~1 ms)

        try:
            figures = json.loads(text)[mountpoint] if text else (why or "not captured")
        except (ValueError, KeyError, TypeError):
            figures = "not recorded in this capture"
    if isinstance(figures, str):
        return FsUsage(*(Fact(None, source, figures) for _ in range(3)))
    return FsUsage(Fact(figures.get("size"), source), Fact(figures.get("used"), source),
                   Fact(figures.get("free"), source))
