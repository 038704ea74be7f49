"""Where a benchmark may write: checks on the target directory, its filesystem and stack, and scratch dirs."""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass

from .mountinfo import Mount, parse_mountinfo
from .scratch import make_owned_dir, remove_tree

SCRATCH_PREFIX = ".diskdoctor-bench-"
SPACE_MARGIN = 4 << 20
"""Free space wanted beyond the file itself (filesystem metadata, other writers), plus 10% of the file."""
PSEUDO_FILESYSTEMS = frozenset({
    "proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "debugfs", "tracefs", "securityfs",
    "pstore", "bpf", "configfs", "fusectl", "mqueue", "hugetlbfs", "autofs", "efivarfs", "binfmt_misc",
    "nsfs", "rpc_pipefs", "selinuxfs"})


class TargetError(Exception):
    """The target cannot be benchmarked; the message is one line for the user."""


@dataclass(frozen=True)
class Target:
    """A checked target directory, its mount and the block layers under it (top-down)."""

    directory: str
    mountpoint: str
    fstype: str
    device: str | None
    layers: tuple[str, ...]
    not_durable: tuple[str, ...] = ()
    """Why an fdatasync here may not reach stable storage (nobarrier, a drive cache the kernel never
    flushes): probes/flush_durability.py; empty when it does as far as the host can tell."""

    def to_json(self) -> dict[str, object]:
        """The `target` object of the JSON result."""
        return {"dir": self.directory, "fstype": self.fstype, "device": self.device,
                "mountpoint": self.mountpoint, "layers": list(self.layers),
                "not_durable": list(self.not_durable)}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Target:
        """Inverse of `to_json` plus the optional `layers` list; KeyError/TypeError on a foreign document."""
        device = data.get("device")
        return cls(str(data["dir"]), str(data["mountpoint"]), str(data["fstype"]),
                   None if device is None else str(device),
                   tuple(str(layer) for layer in data.get("layers") or ()),  # type: ignore[union-attr]
                   tuple(str(reason) for reason in data.get("not_durable") or ()))  # type: ignore[union-attr]


def describe_bench_error(err: OSError) -> str:
    """One clear line for an error met while benchmarking."""
    reasons = {
        errno.ENOSPC: "no space left on the device",
        errno.EDQUOT: "disk quota exceeded",
        errno.EIO: "I/O error: the device failed a write or flush (see dmesg)",
        errno.EROFS: "the filesystem is read-only",
        errno.EACCES: "permission denied",
        errno.EPERM: "operation not permitted",
    }
    return reasons.get(err.errno or 0, str(err.strerror or err))


def _mount_of(path: str, mounts: list[Mount]) -> Mount | None:
    best = None
    for mount in mounts:
        point = mount.mountpoint
        if (path == point or path.startswith(point.rstrip("/") + "/")) and \
                (best is None or len(point) >= len(best.mountpoint)):
            best = mount
    return best


def _read_mounts() -> list[Mount]:
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as handle:
            return parse_mountinfo(handle.read())
    except OSError:
        return []


def check_directory(path: str, needed_bytes: int) -> tuple[str, Mount | None]:
    """Return (real path, its mount) if a benchmark of `needed_bytes` may write there, else TargetError."""
    try:
        info = os.stat(path)
    except FileNotFoundError as err:
        raise TargetError(f"{path} does not exist") from err
    except OSError as err:
        raise TargetError(f"cannot use {path}: {describe_bench_error(err)}") from err
    if stat.S_ISBLK(info.st_mode) or stat.S_ISCHR(info.st_mode):
        raise TargetError(f"{path} is a device: the benchmark never writes to raw devices; give a "
                          "directory on the mounted filesystem instead")
    if not stat.S_ISDIR(info.st_mode):
        raise TargetError(f"{path} is not a directory")
    real = os.path.realpath(path)
    mount = _mount_of(real, _read_mounts())
    if mount is not None and mount.fstype in PSEUDO_FILESYSTEMS:
        raise TargetError(f"{path} is on a {mount.fstype} pseudo-filesystem, not storage")
    if mount is not None and "ro" in mount.options:
        raise TargetError(f"{path} is on a read-only mount ({mount.mountpoint})")
    try:
        fs = os.statvfs(real)
    except OSError as err:
        raise TargetError(f"cannot use {path}: {describe_bench_error(err)}") from err
    free = fs.f_bavail * fs.f_frsize
    margin = space_needed(needed_bytes) - needed_bytes
    if fs.f_blocks and free < needed_bytes + margin:  # ramfs reports no size at all: nothing to check
        raise TargetError(f"not enough free space in {path}: the run needs {_mib(needed_bytes + margin)}"
                          f" (files plus {_mib(margin)} margin), {_mib(free)} free")
    return real, mount


def space_needed(needed_bytes: int) -> int:
    """What a run of `needed_bytes` asks to be free: its files plus a margin (4 MiB and a tenth)."""
    return needed_bytes + SPACE_MARGIN + needed_bytes // 10


def free_bytes(path: str) -> int | None:
    """Bytes an unprivileged writer may still use under `path`, or None when unknown (ramfs has no size)."""
    try:
        fs = os.statvfs(path)
    except OSError:
        return None
    return fs.f_bavail * fs.f_frsize if fs.f_blocks else None


def _mib(value: int) -> str:
    if value >= 10 << 30:
        return f"{value / (1 << 30):.1f} GiB"
    return f"{value / (1 << 20):.1f} MiB"


def make_scratch(directory: str) -> str:
    """A private scratch directory (mode 0700) inside the target."""
    try:
        return make_owned_dir(SCRATCH_PREFIX, directory)
    except OSError as err:
        raise TargetError(f"cannot create a scratch directory in {directory}: "
                          f"{describe_bench_error(err)}") from err


def remove_scratch(path: str | None) -> None:
    """Delete a scratch directory made by `make_scratch` (and only such a directory)."""
    if path and os.path.basename(path).startswith(SCRATCH_PREFIX):
        remove_tree(path)


def leftover_scratch(directory: str) -> list[str]:
    """Scratch directories still present in `directory` (used by tests and the cleanup check)."""
    try:
        return sorted(n for n in os.listdir(directory) if n.startswith(SCRATCH_PREFIX))
    except OSError:
        return []


def describe_target(directory: str, needed_bytes: int) -> Target:
    """Check `directory` and find its filesystem type, device and the layers below (live host only)."""
    from .discard_path import layers_below
    from .flush_durability import not_durable_reasons
    from .host import read_host
    from .root import live_root

    real, mount = check_directory(directory, needed_bytes)
    root = live_root()
    host = read_host(root)
    mounted = host.mount_for_path(real)
    device = mounted.kname if mounted else None
    layers = tuple(layers_below(host, device)) if device else ()
    reasons = not_durable_reasons(root, host, mount.options if mount else (), layers)
    return Target(real, mount.mountpoint if mount else "/", mount.fstype if mount else "unknown",
                  device, layers, reasons)
