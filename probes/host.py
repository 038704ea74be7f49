"""The Host snapshot: block devices, mounted filesystems and swap, linked into one stack graph."""

from __future__ import annotations

import gc
import os
import re
from dataclasses import dataclass, field, replace

from .blockdev import BlockDevice, read_block_devices
from .facts import Fact
from .mountinfo import MOUNTINFO, Mount, read_mounts
from .root import Root
from .swaps import read_swaps

SWAP_MOUNTPOINT = "[SWAP]"
_DIGIT_RUNS = re.compile(r"([0-9]+)")


@dataclass(frozen=True, slots=True)
class MountedFs:
    """A mounted filesystem and the block device it lives on (None for tmpfs, proc, NFS...)."""

    mount: Mount
    kname: str | None
    resolved_by: str


@dataclass(frozen=True)
class Host:
    """Everything the passive probes learned about one host, live or from a capture."""

    root_label: str
    hostname: str | None
    kernel: str | None
    devices: dict[str, BlockDevice]
    mounts: list[MountedFs]
    swaps: list[tuple[str, str]]
    warnings: list[str] = field(default_factory=list)
    mounts_unknown: str | None = None
    """Why the mounted filesystems could not be read (no mountinfo in a sys-only root), else None."""
    _children: dict[str, list[str]] = field(default_factory=dict, repr=False, compare=False)
    _mountpoints: dict[str, list[str]] = field(default_factory=dict, repr=False, compare=False)
    _parents: dict[str, list[str]] = field(default_factory=dict, repr=False, compare=False)
    _roots: list[str] = field(default_factory=list, repr=False, compare=False)

    def _cut_cycles(self, order: list[str]) -> None:
        """Drop every holder/slave link that closes a loop (a self-loop too) and say so in `warnings`;
        `order` is every device in natural order.

        sysfs never has loops, but a hand-made or hostile capture can; cut here, every walk above
        (tree, JSON, discard path) is finite without its own guard."""
        for edges, other, word in ((self._children, self._parents, "holder"),
                                   (self._parents, self._children, "slave")):
            state: dict[str, int] = {}
            for start in order:
                if state.get(start):
                    continue
                if not edges[start]:  # most devices (a loop, a disk's top layer): no walk to make
                    state[start] = 2
                    continue
                state[start] = 1
                stack = [(start, iter(list(edges[start])))]
                while stack:
                    node, pending = stack[-1]
                    nxt = next(pending, None)
                    if nxt is None:
                        state[node] = 2
                        stack.pop()
                    elif state.get(nxt) == 1:
                        edges[node].remove(nxt)
                        if node in other.get(nxt, ()):
                            other[nxt].remove(node)
                        self.warnings.append(f"{word} link {node} -> {nxt} closes a loop; cut")
                    elif not state.get(nxt):
                        state[nxt] = 1
                        stack.append((nxt, iter(list(edges[nxt]))))

    def __post_init__(self) -> None:
        """Index children and mountpoints once, so walking 5,000 devices stays linear. Every name's natural
        key is made once (`rank`: its place in natural order), not again in each sort."""
        order = sorted(self.devices, key=natural_key)
        rank = {kname: index for index, kname in enumerate(order)}.__getitem__
        partitions: dict[str, list[str]] = {}
        for kname, device in self.devices.items():
            if device.kind == "part" and device.partition_number is not None and \
                    device.dm_uuid is None and len(device.parents) == 1:
                partitions.setdefault(device.parents[0], []).append(kname)
        for kname, device in self.devices.items():
            parts = partitions.get(kname)
            if parts:
                parts.sort(key=rank)
            holders = device.holders
            above = sorted({h for h in holders if h in self.devices and not (parts and h in parts)},
                           key=rank) if holders else []
            self._children[kname] = parts + above if parts else above
        for kname, device in self.devices.items():
            self._parents[kname] = list(dict.fromkeys(p for p in device.parents if p in self.devices))
        self._cut_cycles(order)
        self._roots[:] = [k for k in order if not self._parents[k]]
        swap_files = {filename for filename, _ in self.swaps}
        for mounted in self.mounts:
            if mounted.kname:
                self._mountpoints.setdefault(mounted.kname, []).append(mounted.mount.mountpoint)
        for kname, device in self.devices.items():
            if swap_files & {device.path, f"/dev/{kname}"}:
                self._mountpoints.setdefault(kname, []).append(SWAP_MOUNTPOINT)

    def children(self, kname: str) -> list[str]:
        """Devices stacked directly on `kname` (partitions first, then holders), in natural order."""
        return list(self._children.get(kname, ()))

    def parents(self, kname: str) -> list[str]:
        """Devices directly below `kname` (its slaves, or the disk of a partition)."""
        return list(self._parents.get(kname, ()))

    def roots(self) -> list[str]:
        """Bottom-most devices (nothing below them), in natural order: the lsblk forest roots."""
        return list(self._roots)

    def mountpoints(self, kname: str) -> list[str]:
        """Where this device is mounted (and [SWAP] when it is active swap), lsblk style."""
        return list(self._mountpoints.get(kname, ()))

    def block_mounts(self) -> list[MountedFs]:
        """Mounted filesystems that sit on a known block device, by mountpoint."""
        return sorted((m for m in self.mounts if m.kname), key=lambda m: m.mount.mountpoint)

    def mount_for_path(self, path: str) -> MountedFs | None:
        """The mount holding `path` (longest mountpoint prefix), e.g. for /var/lib/etcd/member."""
        best: MountedFs | None = None
        clean = os.path.normpath(path)
        for mounted in self.mounts:
            point = mounted.mount.mountpoint
            inside = clean == point or clean.startswith(point.rstrip("/") + "/")
            if inside and (best is None or len(point) >= len(best.mount.mountpoint)):
                best = mounted
        return best


def natural_key(name: str) -> list[object]:
    """Sort key that orders loop2 before loop10 and nvme0n1p2 before nvme0n1p10."""
    # Split on ASCII digit runs only: every odd part is a number and every even one text, so two keys
    # always compare like with like (a name with other scripts' digits, e.g. from a capture, stays text).
    return [int(part) if index % 2 else part for index, part in enumerate(_DIGIT_RUNS.split(name))]


def _resolve_mount(mount: Mount, devices: dict[str, BlockDevice],
                   by_maj_min: dict[str, str], by_dm_name: dict[str, str]) -> MountedFs:
    """Find the device under a mount: by MAJ:MIN first, then by the source path (btrfs uses 0:N)."""
    if mount.maj_min in by_maj_min:
        return MountedFs(mount, by_maj_min[mount.maj_min], "MAJ:MIN in mountinfo")
    source = mount.source
    if source.startswith("/dev/mapper/") and source[len("/dev/mapper/"):] in by_dm_name:
        return MountedFs(mount, by_dm_name[source[len("/dev/mapper/"):]], "source /dev/mapper name")
    if source.startswith("/dev/"):
        base = source.rsplit("/", 1)[-1]
        if base in devices:
            return MountedFs(mount, base, "source device path")
    return MountedFs(mount, None, "not a block device")


def _mounts_unknown(root: Root, why: str) -> str:
    """The warning shown when mountpoints cannot be known, with the reason."""
    if not root.live and not root.exists(MOUNTINFO):
        return f"mountpoints unknown: no mountinfo in this root (/{MOUNTINFO})"
    return f"mountpoints unknown: cannot read /{MOUNTINFO} ({why})"


def _unnamed_dm_warning(devices: dict[str, BlockDevice]) -> list[str]:
    """One line naming the device-mapper devices shown by kernel name, and why (old kernels)."""
    unnamed = sorted((k for k, d in devices.items() if d.name_why_unknown), key=natural_key)
    if not unnamed:
        return []
    why = devices[unnamed[0]].name_why_unknown
    return [f"device-mapper names unknown for {', '.join(unnamed)}: {why}"]


def read_host(root: Root, *, include_empty: bool = False, signatures: bool = True,
              read_here: bool = True) -> Host:
    """Read the whole passive snapshot of the host under `root` (without `signatures`, no blkid; without
    `read_here`, a big host's devices all read in child processes: see `read_block_devices`), with
    Python's cycle collector paused: the read makes no cycles, and its passes
    over the read's new objects (~300,000 at 5,000 devices) cost 1-9% of the read's CPU (alternating runs,
    docs/figures.md); a forked reader inherits the pause."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _read_host(root, include_empty=include_empty, signatures=signatures, read_here=read_here)
    finally:
        if collecting:
            gc.enable()


def _read_host(root: Root, *, include_empty: bool, signatures: bool, read_here: bool) -> Host:
    """`read_host` itself."""
    mounts, mount_error, mount_file = read_mounts(root)  # first: a started blkid runs meanwhile
    devices = read_block_devices(root, include_empty=include_empty, signatures=signatures,
                                 read_here=read_here)
    unknown = _mounts_unknown(root, mount_error) if mount_error else None
    warnings = [unknown] if unknown else []
    if mount_file != MOUNTINFO:
        warnings.append(f"mounts read from /{mount_file} (no /{MOUNTINFO} before Linux 2.6.26): "
                        "devices matched by their source path, not MAJ:MIN")
    warnings += _unnamed_dm_warning(devices)
    by_maj_min = {d.maj_min.value: k for k, d in devices.items() if d.maj_min.value}
    by_dm_name = {d.dm_name: k for k, d in devices.items() if d.dm_name}
    resolved = [_resolve_mount(m, devices, by_maj_min, by_dm_name) for m in mounts]
    for mounted in resolved:
        if mounted.kname and devices[mounted.kname].fstype.value is None:
            fstype = Fact(mounted.mount.fstype, f"/{mount_file}")
            devices[mounted.kname] = replace(devices[mounted.kname], fstype=fstype)
    hostname, _ = root.read_attr("proc/sys/kernel/hostname")
    kernel, _ = root.read_attr("proc/sys/kernel/osrelease")
    return Host(
        root_label=root.describe(),
        hostname=hostname,
        kernel=kernel,
        devices=devices,
        mounts=resolved,
        swaps=read_swaps(root),
        warnings=warnings,
        mounts_unknown=unknown,
    )
