"""Hardware and driver rules: SATA link speed, NVMe APST, dm-crypt workqueues, swap on the data disk."""

from __future__ import annotations

import shlex
from collections.abc import Iterator

from diskdoctor.probes.link_power import gbps

from ..contexts import AdviceInput, DeviceContext, FsContext, stack_below
from ..finding import Evidence, Finding
from ..registry import Scope, rule
from ..vocabulary import Severity
from .mounts import data_evidence

WORKQUEUE_FLAGS = ("no_read_workqueue", "no_write_workqueue")


@rule("SATA-LINK", scope=Scope.DEVICE, severity=Severity.WARN,
      checks="a SATA link negotiated below its port/drive limit, or libata lowered the speed after errors",
      sources=("linux:Documentation/ABI/testing/sysfs-ata (sata_spd, hw_sata_spd_limit, spdn_cnt)",))
def sata_link(ctx: DeviceContext) -> Iterator[Finding]:
    """SATA-LINK: a degraded link caps throughput and usually means a bad cable, backplane or port."""
    link = ctx.advice.facts.sata_links.get(ctx.kname)
    if link is None:
        return
    speed, limit, downs = gbps(link.speed.value), gbps(link.hw_limit.value), link.speed_downs.value
    slow = speed is not None and limit is not None and speed < limit
    if not slow and not downs:
        return
    name = ctx.device.name
    title = f"{name}'s SATA link runs at {link.speed.value}, below {link.hw_limit.value}" if slow else \
        f"libata lowered {name}'s SATA link speed {downs} time(s) after errors"
    yield Finding(
        "SATA-LINK", Severity.WARN, name, title,
        (Evidence.of(f"{link.link} negotiated speed", link.speed),
         Evidence.of(f"{link.link} hardware limit", link.hw_limit),
         Evidence.of(f"speed-downs of {name}", link.speed_downs)),
        "A link below what both ends support, or one libata slowed down after transmission errors, caps "
        "throughput and often comes with retries that show as latency spikes. The usual cause is a cable, "
        "backplane slot or port.",
        ("dmesg | grep -iE 'SATA link up|limiting SATA link speed'",
         "# reseat or replace the cable, or move the drive to another port"),
        "Needs the drive offline for the hardware change.",
        (f"cat /sys/class/ata_link/{link.link}/sata_spd   # equals hw_sata_spd_limit",))


@rule("NVME-APST", scope=Scope.HOST, severity=Severity.INFO,
      checks="NVMe drives present and nvme_core lets them enter power states (default_ps_max_latency_us > 0)",
      sources=("linux:drivers/nvme/host/core.c (default_ps_max_latency_us)",))
def nvme_apst(advice: AdviceInput) -> Iterator[Finding]:
    """NVME-APST: deep NVMe power states can add wake-up latency spikes (or controller resets)."""
    limit = advice.facts.apst_max_latency_us
    nvme = sorted(d.name for d in advice.host.devices.values()
                  if d.kind == "disk" and d.transport.value == "nvme")
    if not nvme or not limit.value:
        return
    yield Finding(
        "NVME-APST", Severity.INFO, ", ".join(nvme),
        f"NVMe power saving (APST) may put {', '.join(nvme)} into states up to {limit.value:,} µs away",
        (Evidence.of("nvme_core default_ps_max_latency_us", limit),),
        "Autonomous power-state transitions save power when idle, but waking up adds latency to the next "
        "I/O; some drives' firmware also resets the controller ('controller is down' in dmesg). Suspect it "
        "when a mostly idle etcd or database shows rare multi-millisecond fsync outliers.",
        ("# add to the kernel command line (e.g. GRUB_CMDLINE_LINUX in /etc/default/grub), then reboot:",
         "#   nvme_core.default_ps_max_latency_us=0",
         "dmesg | grep -i 'nvme.*controller is down'   # evidence of firmware trouble"),
        "The drives draw more power when idle (matters on laptops, hardly on servers).",
        ("cat /sys/module/nvme_core/parameters/default_ps_max_latency_us   # 0",
         "nvme get-feature -f 0x0c -H /dev/nvme0   # APST disabled"))


@rule("CRYPT-WORKQUEUE", scope=Scope.DEVICE, severity=Severity.INFO,
      checks="dm-crypt over NVMe without no_read_workqueue/no_write_workqueue in its table",
      sources=("cryptsetup-refresh(8) (--perf-no_*_workqueue)", "ceph/ceph pr#55335"))
def crypt_workqueue(ctx: DeviceContext) -> Iterator[Finding]:
    """CRYPT-WORKQUEUE: dm-crypt's queuing to kernel workqueues costs latency on fast flash."""
    device, host = ctx.device, ctx.advice.host
    if device.kind != "crypt" or not device.dm_name:
        return
    leaves = [k for k in stack_below(host, device.kname) if not host.parents(k)]
    if not any(host.devices[k].transport.value == "nvme" for k in leaves):
        return
    dm = ctx.advice.trim.dm
    targets = dm.tables.get(device.dm_name)
    if not targets:
        return
    missing = [flag for flag in WORKQUEUE_FLAGS if flag not in targets[0].args]
    if not missing:
        return
    persistent = " --persistent" if (device.dm_uuid or "").startswith("CRYPT-LUKS2-") else ""
    yield Finding(
        "CRYPT-WORKQUEUE", Severity.INFO, device.name,
        f"{device.name} (dm-crypt on NVMe) queues I/O through kernel workqueues",
        (Evidence(f"crypt table of {device.name}", f"no {' / '.join(missing)}", dm.tables_source),
         *(Evidence.of(f"transport of {host.devices[k].name}", host.devices[k].transport) for k in leaves)),
        "By default dm-crypt hands every read and write to a workqueue before encrypting; on NVMe that "
        "hop costs more than the crypto. Ceph enables the no-workqueue options for its encrypted OSDs "
        "since 18.2.4 (Linux >= 5.9 supports them).",
        (f"cryptsetup refresh --perf-no_read_workqueue --perf-no_write_workqueue{persistent} "
         f"{shlex.quote(device.dm_name)}",),
        "Encryption then runs in the submitting thread's CPU time; heavy parallel writers may see less "
        "throughput.",
        (f"dmsetup table {shlex.quote(device.dm_name)}   # shows no_read_workqueue no_write_workqueue",))


def _swap_knames(advice: AdviceInput) -> list[tuple[str, str]]:
    """(swap filename, kname of the device under it) for each active swap area."""
    host, found = advice.host, []
    by_path = {d.path: k for k, d in host.devices.items()} | {f"/dev/{k}": k for k in host.devices}
    for filename, _kind in host.swaps:
        kname = by_path.get(filename)
        if kname is None:
            mounted = host.mount_for_path(filename)
            kname = mounted.kname if mounted else None
        if kname:
            found.append((filename, kname))
    return found


@rule("SWAP-SHARED", scope=Scope.FILESYSTEM, severity=Severity.WARN,
      checks="active swap on the same disk as database or search data",
      sources=("etcd-io/etcd#13587",))
def swap_shared(ctx: FsContext) -> Iterator[Finding]:
    """SWAP-SHARED: paging competes with the data's fsyncs on the same disk."""
    if not ctx.data_dirs:
        return
    host, leaves = ctx.advice.host, set(ctx.leaves)
    for filename, kname in _swap_knames(ctx.advice):
        shared = sorted(leaves & {k for k in stack_below(host, kname) if not host.parents(k)})
        if not shared:
            continue
        yield Finding(
            "SWAP-SHARED", Severity.WARN, ctx.mountpoint,
            f"Swap {filename} is on {', '.join(shared)}, the disk under {ctx.mountpoint}",
            (Evidence("active swap", filename, "/proc/swaps"), *data_evidence(ctx),
             Evidence(f"disks under {ctx.mountpoint}", ", ".join(sorted(leaves)), "/sys/block/*/slaves")),
            "When the host swaps, page-in and page-out I/O queues in front of the database's fsyncs on the "
            "same disk; the etcd maintainers' first question for slow WAL syncs is 'is the OS swapping on "
            "the disk?'.",
            (f"swapoff {shlex.quote(filename)}   # with RAM to spare; then remove it from /etc/fstab",
             "# or move swap to another disk, or make it rarer: sysctl vm.swappiness=10"),
            "Without swap, memory pressure ends in the OOM killer instead of slowness.",
            ("cat /proc/swaps", "vmstat 5 5   # si/so columns stay at 0"))
