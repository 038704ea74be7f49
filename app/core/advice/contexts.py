"""What rules are called with: the whole advice input, one filesystem, one device, one benchmark result
(BenchContext, defined with the bench rules)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from diskdoctor.probes.advice_facts import AdviceFacts
from diskdoctor.probes.blockdev import BlockDevice
from diskdoctor.probes.data_dirs import DataDir
from diskdoctor.probes.etcd_metrics import EtcdMetrics
from diskdoctor.probes.host import Host, MountedFs, natural_key
from diskdoctor.probes.host_text import shell_quote
from diskdoctor.probes.mountinfo import MOUNTINFO
from diskdoctor.probes.trim_facts import TrimFacts

from ..bench.context import BenchContext
from ..findings.finding import Evidence

if TYPE_CHECKING:
    from ..trim.doctor import TrimVerdict


@dataclass(frozen=True)
class AdviceInput:
    """One snapshot of everything the rules judge: host, TRIM facts and verdicts, tuning, results."""

    host: Host
    trim: TrimFacts
    facts: AdviceFacts
    verdicts: list[TrimVerdict]
    bench: list[BenchContext] = field(default_factory=list)
    etcd_metrics: EtcdMetrics | None = None
    """etcd's disk histograms, when `advise --etcd-metrics` named its /metrics (or a saved copy)."""

    def mount_of(self, path: str) -> MountedFs | None:
        """The mounted filesystem holding `path`."""
        return self.host.mount_for_path(path)

    def data_dirs_on(self, mountpoint: str) -> list[DataDir]:
        """Data directories (etcd, Elasticsearch...) on the filesystem mounted at `mountpoint` (also
        when they are reached through another mount of it, such as a bind mount)."""
        here = self.mount_of(mountpoint)
        if here is None or here.kname is None:
            return []
        found = []
        for data in self.facts.data_dirs:
            mounted = self.mount_of(data.path)
            if mounted is not None and mounted.kname == here.kname:
                found.append(data)
        return found

    def filesystems(self) -> list[MountedFs]:
        """One mount per block device (bind mounts and repeated subvolume mounts share its options):
        the one of the filesystem's root, else the shortest mountpoint."""
        chosen: dict[str, MountedFs] = {}
        for mounted in self.host.block_mounts():
            kname = mounted.kname or ""
            best = chosen.get(kname)
            key = (mounted.mount.fs_root != "/", len(mounted.mount.mountpoint))
            if best is None or key < (best.mount.fs_root != "/", len(best.mount.mountpoint)):
                chosen[kname] = mounted
        return sorted(chosen.values(), key=lambda m: m.mount.mountpoint)


def stack_below(host: Host, kname: str) -> list[str]:
    """`kname` and every layer under it, top-down, each once."""
    order: list[str] = []
    todo = [kname]
    while todo:
        current = todo.pop(0)
        if current in order or current not in host.devices:
            continue
        order.append(current)
        todo += sorted(host.parents(current), key=natural_key)
    return order


@dataclass(frozen=True)
class FsContext:
    """One mounted filesystem on a block device, with its stack and the data it holds."""

    advice: AdviceInput
    mounted: MountedFs

    @property
    def mountpoint(self) -> str:
        """Where it is mounted."""
        return self.mounted.mount.mountpoint

    @property
    def fstype(self) -> str:
        """Its type from mountinfo."""
        return self.mounted.mount.fstype

    @property
    def options(self) -> tuple[str, ...]:
        """Per-mount and superblock options, as /proc/mounts shows them."""
        return self.mounted.mount.options

    @property
    def kname(self) -> str:
        """The kernel name of the device it is mounted from."""
        return self.mounted.kname or ""

    @property
    def options_source(self) -> str:
        """Where the options were read."""
        return f"/{MOUNTINFO} ({self.mountpoint})"

    def option_value(self, name: str) -> str | None:
        """The value of `name=value` among the options (the last one wins, as the kernel parses)."""
        values = [o.split("=", 1)[1] for o in self.options if o.startswith(name + "=")]
        return values[-1] if values else None

    @property
    def layers(self) -> list[str]:
        """The device and every layer below it, top-down."""
        return stack_below(self.advice.host, self.kname)

    @property
    def leaves(self) -> list[str]:
        """The bottom devices (disks) under it."""
        host = self.advice.host
        return [k for k in self.layers if not host.parents(k)]

    @property
    def data_dirs(self) -> list[DataDir]:
        """Database or search data on this filesystem."""
        return self.advice.data_dirs_on(self.mountpoint)

    @property
    def quoted(self) -> str:
        """The mountpoint, shell-quoted for fix commands."""
        return shell_quote(self.mountpoint)


@dataclass(frozen=True)
class DeviceContext:
    """One block device."""

    advice: AdviceInput
    device: BlockDevice

    @property
    def kname(self) -> str:
        """Its kernel name."""
        return self.device.kname

    @property
    def mounted_above(self) -> list[str]:
        """Mountpoints of filesystems that sit on this device or on anything stacked on it."""
        host = self.advice.host
        return [m.mount.mountpoint for m in self.advice.filesystems()
                if self.kname in stack_below(host, m.kname or "")]

    @property
    def data_dirs_above(self) -> list[DataDir]:
        """Data directories on filesystems stacked on this device."""
        return [d for point in self.mounted_above for d in self.advice.data_dirs_on(point)]


def sysfs(kname: str, attribute: str) -> str:
    """The shell-quoted sysfs path of a queue attribute, for fix commands."""
    return shell_quote(os.path.join("/sys/block", kname, "queue", attribute))


def options_evidence(ctx: FsContext) -> Evidence:
    """The mount options as the kernel reports them."""
    return Evidence(f"mount options of {ctx.mountpoint}", ",".join(ctx.options), ctx.options_source)


def data_evidence(ctx: FsContext) -> tuple[Evidence, ...]:
    """Which database or search data lives on the filesystem, and how we know."""
    return data_evidence_of(ctx.data_dirs)


def data_evidence_of(data_dirs: list[DataDir]) -> tuple[Evidence, ...]:
    """Each database or search data directory, and how we know it is one."""
    return tuple(Evidence(f"{data.owner} data", data.path, data.source) for data in data_dirs)
