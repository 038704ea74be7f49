"""Hardware and driver rules: SATA link speed and power management, NVMe APST, dm-crypt workqueues, swap on
the data disk."""

from __future__ import annotations

from collections.abc import Iterator

from diskdoctor.app.core.bench.wal import format_ms
from diskdoctor.app.core.findings.finding import Evidence, Finding
from diskdoctor.app.core.findings.registry import Scope, rule
from diskdoctor.app.core.findings.vocabulary import Severity
from diskdoctor.probes.host_text import shell_quote
from diskdoctor.probes.link_power import gbps

from ..contexts import AdviceInput, DeviceContext, FsContext, data_evidence, data_evidence_of, stack_below

WORKQUEUE_FLAGS = ("no_read_workqueue", "no_write_workqueue")
OUTLIER_FACTOR = 10.0
"""A WAL run's slowest fdatasync at least this many times its p99 is an outlier, not the tail."""
OUTLIER_FLOOR_MS = 2.0
"""...and at least this slow: deep NVMe power states take milliseconds to leave."""


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


def _outliers(advice: AdviceInput, nvme: list[str]) -> list[Evidence]:
    """Tail-latency outliers in the WAL results in hand that ran on these NVMe disks: a maximum at least
    OUTLIER_FACTOR times the p99 and over OUTLIER_FLOOR_MS (a wake-up from a deep power state)."""
    found = []
    for bench in advice.bench:
        for prefix, result in _wal_results(bench.document):
            sync = result.get("sync_latency_us")
            p99 = sync.get("p99") if isinstance(sync, dict) else None
            top = sync.get("max") if isinstance(sync, dict) else None
            if not isinstance(p99, (int, float)) or not isinstance(top, (int, float)) or p99 <= 0:
                continue
            if top < OUTLIER_FACTOR * p99 or top / 1000.0 < OUTLIER_FLOOR_MS:
                continue
            if not set(_result_disks(advice, bench.document)) & set(nvme):
                continue
            what = f"slowest fdatasync ({top / p99:.0f}x the p99 of {format_ms(p99 / 1000.0)})"
            source = f"{bench.origin}: {prefix}sync_latency_us.max"
            found.append(Evidence(what, format_ms(top / 1000.0), source))
    return found


def _wal_results(document: dict[str, object]) -> list[tuple[str, dict[str, object]]]:
    """The WAL results in a benchmark document: itself, or an interference run's two parts."""
    if "sync_latency_us" in document:
        return [("", document)]
    return [(f"{key}.", part) for key in ("alone", "under_compaction")
            if isinstance(part := document.get(key), dict)]


def _result_disks(advice: AdviceInput, document: dict[str, object]) -> list[str]:
    """The disks of this host under a result's target device."""
    target = document.get("target")
    device = target.get("device") if isinstance(target, dict) else None
    host = advice.host
    if not isinstance(device, str) or device not in host.devices:
        return []
    return [k for k in stack_below(host, device) if not host.parents(k)]


@rule("NVME-APST", scope=Scope.HOST, severity=Severity.INFO,
      checks="NVMe power states allowed (default_ps_max_latency_us > 0) and evidence that they hurt: "
             "tail-latency outliers in a WAL result on the NVMe disks, or controller resets in the kernel "
             "log",
      sources=("linux:drivers/nvme/host/core.c (default_ps_max_latency_us)",
               "storage-facts rule catalog: APST suspected only with outliers or 'controller is down'"))
def nvme_apst(advice: AdviceInput) -> Iterator[Finding]:
    """NVME-APST: deep NVMe power states can add wake-up latency spikes (or controller resets)."""
    limit = advice.facts.apst_max_latency_us
    nvme = sorted(d.name for d in advice.host.devices.values()
                  if d.kind == "disk" and d.transport.value == "nvme")
    if not nvme or not limit.value:
        return
    outliers = _outliers(advice, nvme)
    trouble = advice.facts.nvme_trouble
    resets = trouble.value or []
    if not outliers and not resets:
        return
    said = [text for text, present in (("tail-latency outliers in a benchmark", outliers),
                                       ("NVMe controller resets in the kernel log", resets)) if present]
    log = [Evidence(f"kernel log: NVMe reset lines ({len(resets)}), the newest", resets[-1],
                    trouble.source)] if resets else []
    yield Finding(
        "NVME-APST", Severity.INFO, ", ".join(nvme),
        f"NVMe power saving (APST) is on and there are {' and '.join(said)}: suspect wake-ups of "
        f"{', '.join(nvme)}",
        (Evidence.of("nvme_core default_ps_max_latency_us", limit), *outliers, *log),
        "Autonomous power-state transitions save power when idle, but waking up adds latency to the next "
        f"I/O (up to {limit.value:,} µs here); some drives' firmware also resets the controller ('controller "
        "is down' in dmesg). Rare multi-millisecond outliers on a mostly idle etcd or database, or resets "
        "in the log, are the signs; disabling APST is the usual test.",
        ("# add to the kernel command line (e.g. GRUB_CMDLINE_LINUX in /etc/default/grub), then reboot:",
         "#   nvme_core.default_ps_max_latency_us=0",
         "dmesg | grep -iE 'nvme.*(controller is down|reset)'   # the firmware trouble, if any"),
        "The drives draw more power when idle (matters on laptops, hardly on servers).",
        ("cat /sys/module/nvme_core/parameters/default_ps_max_latency_us   # 0",
         "nvme get-feature -f 0x0c -H /dev/nvme0   # APST disabled",
         "# re-run the benchmark: the outliers should be gone"))


ALPM_QUIET = ("max_performance",)
ALPM_AGGRESSIVE = ("min_power", "medium_power")
"""Policies that let the link go to sleep without device-initiated wake-ups tuned for latency."""


@rule("SATA-ALPM", scope=Scope.DEVICE, severity=Severity.WARN,
      checks="a SATA disk under database or search data on a SCSI host whose link_power_management_policy is "
             "not max_performance (warn for min_power/medium_power, info otherwise)",
      sources=("linux:Documentation/ABI/testing/sysfs-class-scsi_host (link_power_management_policy)",
               "libata ALPM default (med_power_with_dipm) patch thread; TLP/NixOS SATA_LINKPWR configs"))
def sata_alpm(ctx: DeviceContext) -> Iterator[Finding]:
    """SATA-ALPM: link power saving puts the SATA link to sleep between requests; waking it costs latency."""
    power = ctx.advice.facts.link_power.get(ctx.kname)
    data = ctx.data_dirs_above
    if power is None or not data or power.policy.value in (None, *ALPM_QUIET):
        return
    policy, name = power.policy.value, ctx.device.name
    severity = Severity.WARN if policy in ALPM_AGGRESSIVE else Severity.INFO
    path = shell_quote(f"/sys/class/scsi_host/{power.host}/link_power_management_policy")
    udev = ('ACTION=="add", SUBSYSTEM=="scsi_host", KERNEL=="host*", '
            'ATTR{link_power_management_policy}="max_performance"')
    yield Finding(
        "SATA-ALPM", severity, name,
        f"{name}'s SATA link may sleep between requests ({power.host}: {policy}) under "
        f"{', '.join(sorted({d.owner for d in data}))} data",
        (Evidence.of(f"link_power_management_policy of {power.host}", power.policy),
         Evidence.of(f"transport of {name}", ctx.device.transport), *data_evidence_of(data)),
        "Aggressive Link Power Management lets the SATA link drop into partial or slumber states when "
        "idle; the next request waits for it to wake (microseconds to milliseconds, more with some "
        "drives and port multipliers). min_power and medium_power do so most eagerly; med_power_with_dipm "
        "and firmware settings are milder. For a database's fdatasync path max_performance keeps the link "
        "awake.",
        (f"echo max_performance > {path}",
         f"printf '%s\\n' {shell_quote(udev)} > /etc/udev/rules.d/60-diskdoctor-alpm.rules   # at every boot",
         "# on laptops or with TLP/tuned, set SATA_LINKPWR_ON_AC=max_performance (TLP) or the tuned profile "
         "instead"),
        "The host draws more power with idle links (a few hundred mW per port).",
        (f"cat {path}   # max_performance",))


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
         f"{shell_quote(device.dm_name)}",),
        "Encryption then runs in the submitting thread's CPU time; heavy parallel writers may see less "
        "throughput.",
        (f"dmsetup table {shell_quote(device.dm_name)}   # shows no_read_workqueue no_write_workqueue",))


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
            (f"swapoff {shell_quote(filename)}   # with RAM to spare; then remove it from /etc/fstab",
             "# or move swap to another disk, or make it rarer: sysctl vm.swappiness=10"),
            "Without swap, memory pressure ends in the OOM killer instead of slowness.",
            ("cat /proc/swaps", "vmstat 5 5   # si/so columns stay at 0"))
