"""Block-queue rules: scheduler vs device kind, write cache and FUA, read-ahead, partition alignment."""

from __future__ import annotations

from collections.abc import Iterator

from diskdoctor.app.core.findings.finding import Evidence, Finding
from diskdoctor.app.core.findings.registry import Scope, rule
from diskdoctor.app.core.findings.vocabulary import Severity
from diskdoctor.probes.device_cache import device_says_cache_on
from diskdoctor.probes.host_text import shell_quote

from ..contexts import DeviceContext, sysfs

STACKED_KINDS = ("lvm", "crypt", "dm", "mpath", "raid0", "raid1", "raid4", "raid5", "raid6", "raid10",
                 "linear")
READ_AHEAD_MAX_KB = 128
ALIGN_FLOOR = 4096
REAL_HDD_TRANSPORTS = ("sata", "sas")


def _udev_rule(ctx: DeviceContext, attribute: str, value: str) -> str:
    """A printf writing a udev rule that sets a queue attribute at every boot."""
    kernel = ctx.device.kname.rstrip("0123456789") + "*" if ctx.device.kind == "disk" else ctx.device.kname
    line = f'ACTION=="add|change", KERNEL=="{kernel}", ATTR{{queue/{attribute}}}="{value}"'
    return f"printf '%s\\n' {shell_quote(line)} > /etc/udev/rules.d/60-diskdoctor-{attribute}.rules"


def _disk_evidence(ctx: DeviceContext) -> list[Evidence]:
    device = ctx.device
    return [Evidence.of(f"transport of {device.name}", device.transport),
            Evidence.of(f"rotational of {device.name}", device.rotational)]


def _under_mounts(ctx: DeviceContext) -> str:
    mounts = ctx.mounted_above
    return f" (under {', '.join(mounts)})" if mounts else ""


@rule("SCHED-NVME", scope=Scope.DEVICE, severity=Severity.INFO,
      checks="an NVMe namespace uses an I/O scheduler other than none",
      sources=("linux:block/elevator.c (elevator_get_default)", "linux:Documentation/block/queue-sysfs.rst"))
def scheduler_on_nvme(ctx: DeviceContext) -> Iterator[Finding]:
    """SCHED-NVME: NVMe drives schedule internally; a kernel scheduler only adds CPU and latency."""
    device = ctx.device
    if device.kind != "disk" or device.transport.value != "nvme" or device.scheduler.value in (None, "none"):
        return
    yield Finding(
        "SCHED-NVME", Severity.INFO, device.name,
        f"{device.name} (NVMe) uses the {device.scheduler.value} scheduler",
        (Evidence.of(f"active scheduler of {device.name}", device.scheduler), *_disk_evidence(ctx)),
        "NVMe drives have many deep hardware queues and reorder internally; the kernel's default for them "
        "is none. A scheduler adds per-request CPU and lock time, which shows at the tail of small "
        "synchronous writes.",
        (f"echo none > {sysfs(device.kname, 'scheduler')}", _udev_rule(ctx, "scheduler", "none")),
        "None for a single tenant; with mixed tenants on one drive mq-deadline or bfq may be on purpose.",
        (f"cat {sysfs(device.kname, 'scheduler')}   # [none]",))


@rule("SCHED-HDD", scope=Scope.DEVICE, severity=Severity.INFO,
      checks="a real SATA/SAS hard disk (rotational on a real bus, never virtio or loop) has no scheduler",
      sources=("linux:block/elevator.c", "linux:Documentation/block/queue-sysfs.rst"))
def no_scheduler_on_hdd(ctx: DeviceContext) -> Iterator[Finding]:
    """SCHED-HDD: a spinning disk with scheduler none lets one writer starve everyone's seeks."""
    device = ctx.device
    if device.kind != "disk" or device.rotational.value is not True or \
            device.transport.value not in REAL_HDD_TRANSPORTS or device.scheduler.value != "none":
        return
    yield Finding(
        "SCHED-HDD", Severity.INFO, device.name, f"{device.name} is a hard disk without an I/O scheduler",
        (Evidence.of(f"active scheduler of {device.name}", device.scheduler), *_disk_evidence(ctx)),
        "On a spinning disk the scheduler orders requests to save seeks and keeps reads from waiting "
        "behind write bursts (mq-deadline), or shares the disk fairly (bfq). With none, an fsync-heavy "
        "WAL waits behind every other writer's queue.",
        (f"echo mq-deadline > {sysfs(device.kname, 'scheduler')}",
         _udev_rule(ctx, "scheduler", "mq-deadline")),
        "None expected; bfq suits desktops better than servers.",
        (f"cat {sysfs(device.kname, 'scheduler')}   # [mq-deadline]",))


@rule("ROTA-VIRT", scope=Scope.DEVICE, severity=Severity.INFO,
      checks="a virtio disk under a mounted filesystem reports rotational=1",
      sources=("linux:Documentation/block/queue-sysfs.rst (rotational)", "verified on virtio, kernel 6.18"))
def rotational_virtio(ctx: DeviceContext) -> Iterator[Finding]:
    """ROTA-VIRT: virtio disks report rotational=1 whatever is behind them; nothing may infer an HDD."""
    device = ctx.device
    if device.kind != "disk" or device.transport.value != "virtio" or \
            device.rotational.value is not True or not ctx.mounted_above:
        return
    yield Finding(
        "ROTA-VIRT", Severity.INFO, device.name,
        f"{device.name} (virtio) says rotational=1{_under_mounts(ctx)}: that says nothing about the storage",
        tuple(_disk_evidence(ctx)),
        "virtio-blk reports rotational unless the hypervisor says otherwise, so lsblk ROTA, tuned profiles "
        "and databases that pick HDD settings from it may be wrong. Ask the cloud or hypervisor what backs "
        "the volume, and measure: diskdoctor's WAL benchmark tells flash from spinning disk.",
        ("# if the backing storage is flash, tell the kernel (not persistent across reboots):",
         f"echo 0 > {sysfs(device.kname, 'rotational')}"),
        "Only the kernel's hint changes; wrong if the volume really is on spinning disks.",
        (f"cat {sysfs(device.kname, 'rotational')}",))


@rule("WCACHE-OFF", "WCACHE-NO-FUA", scope=Scope.DEVICE, severity=Severity.INFO,
      checks="a disk under a filesystem reports write through (no volatile cache, or a disabled one), or a "
             "volatile cache without FUA (every durable write costs a full cache flush)",
      sources=("linux:Documentation/ABI/stable/sysfs-block (write_cache, fua)",))
def write_cache(ctx: DeviceContext) -> Iterator[Finding]:
    """WCACHE-OFF / WCACHE-NO-FUA: what the write cache mode means for fsync here."""
    device = ctx.device
    tuning = ctx.advice.facts.queues.get(device.kname)
    if device.kind != "disk" or tuning is None or not ctx.mounted_above:
        return
    cache = tuning.write_cache.value
    if device_says_cache_on(ctx.advice.facts.cache_reports.get(device.kname, [])) is not None:
        return  # the drive's cache is on: the kernel's view was toggled (WCACHE-SYSFS-TOGGLED)
    evidence = (Evidence.of(f"write_cache of {device.name}", tuning.write_cache),
                Evidence.of(f"fua of {device.name}", tuning.fua), *_disk_evidence(ctx))
    path = shell_quote(f"/dev/{device.kname}")
    if cache == "write through":
        yield Finding(
            "WCACHE-OFF", Severity.INFO, device.name, f"{device.name} reports no volatile write cache "
            f"(write through){_under_mounts(ctx)}", evidence,
            "Either the drive has power-loss protection or a battery-backed controller (then fsync is cheap "
            "and this is ideal), or its cache is disabled and every write waits for the media. Check "
            "which: a consumer drive should show its cache on.",
            (f"hdparm -W {path}   # SATA: write-caching = 1 (on)?", f"sdparm --get=WCE {path}   # SAS",
             "# enable only on a drive whose cache you trust: hdparm -W1 / sdparm --set=WCE / "
             "nvme set-feature -f 6 -v 1",
             "# never write to queue/write_cache: it only changes the kernel's view and stops flushes"),
            "Enabling a volatile cache without power-loss protection risks the last writes on power loss "
            "(the kernel flushes it on fsync, so acknowledged data stays safe).",
            (f"cat {sysfs(device.kname, 'write_cache')}",))
    elif cache == "write back" and tuning.fua.value is False and ctx.data_dirs_above:
        yield Finding(
            "WCACHE-NO-FUA", Severity.INFO, device.name, f"{device.name} has a volatile cache but no FUA"
            f"{_under_mounts(ctx)}", evidence,
            "Without Force Unit Access, every journal commit and fdatasync is followed by a FLUSH of the "
            "whole drive cache, not just the written blocks: that is the fsync latency the WAL benchmark "
            "measures. libata leaves FUA off by default, virtio reports what the hypervisor offers; nothing "
            "to change, but it explains the cost.",
            (), None, (f"diskdoctor bench wal --dir {shell_quote(ctx.mounted_above[0])}",))


@rule("WCACHE-SYSFS-TOGGLED", scope=Scope.DEVICE, severity=Severity.CRIT,
      checks="queue/write_cache says write through while the drive reports its volatile cache on (ATA "
             "IDENTIFY, SCSI cache_type, hdparm -W, NVMe id-ctrl VWC / feature 6): the kernel sends no "
             "flushes",
      sources=("linux:Documentation/ABI/stable/sysfs-block (write_cache: toggling it 'will also eliminate "
               "cache flushes issued by the kernel')", "ATA8-ACS IDENTIFY word 85 bit 5",
               "NVMe base spec: Volatile Write Cache feature (06h), Identify Controller VWC"))
def write_cache_toggled(ctx: DeviceContext) -> Iterator[Finding]:
    """WCACHE-SYSFS-TOGGLED: someone wrote "write through" to sysfs on a drive whose cache is on."""
    device = ctx.device
    tuning = ctx.advice.facts.queues.get(device.kname)
    reports = ctx.advice.facts.cache_reports.get(device.kname, [])
    decisive = device_says_cache_on(reports)
    if tuning is None or decisive is None:
        return
    path = sysfs(device.kname, "write_cache")
    yield Finding(
        "WCACHE-SYSFS-TOGGLED", Severity.CRIT, device.name,
        f"{device.name}'s cache is on but the kernel was told write through{_under_mounts(ctx)}: no flushes "
        "reach it",
        (Evidence.of(f"write_cache of {device.name} (the kernel's view)", tuning.write_cache),
         *(Evidence.of(f"{report.what} of {device.name}", report.enabled) for report in reports)),
        "Writing 'write through' to queue/write_cache only changes what the kernel believes; the drive keeps "
        "caching writes, and the kernel stops sending the cache flushes that make fsync and journal commits "
        "durable. Benchmarks look fast, and a power loss loses or tears data the database was told was on "
        "disk. Some tuning guides and udev rules do this on purpose; it is only safe on a drive with "
        "power-loss protection, which would report no volatile cache in the first place.",
        (f"echo 'write back' > {path}",
         "grep -rs write_cache /etc/udev/rules.d /usr/lib/udev/rules.d /lib/udev/rules.d /etc/tuned "
         "/etc/rc.local   # find what set it, and remove that"),
        "None for data safety. fsync and commits get slower (their earlier figures were not durable).",
        (f"cat {path}   # write back",
         f"diskdoctor bench wal --dir {shell_quote(ctx.mounted_above[0]) if ctx.mounted_above else 'DIR'}"
         "   # the real fdatasync p99, with flushes"))


@rule("RA-HIGH", scope=Scope.DEVICE, severity=Severity.WARN,
      checks="read_ahead_kb above 128 on an md/dm device under database or search data",
      sources=("Elastic: tune for search speed (avoid page cache thrashing)",
               "linux:block/blk-settings.c (ra = 2 x io_opt)"))
def read_ahead(ctx: DeviceContext) -> Iterator[Finding]:
    """RA-HIGH: huge read-ahead on RAID/LVM/crypt devices thrashes the page cache for random readers."""
    device = ctx.device
    tuning = ctx.advice.facts.queues.get(device.kname)
    data = ctx.data_dirs_above
    if device.kind not in STACKED_KINDS or tuning is None or not data:
        return
    value = tuning.read_ahead_kb.value
    if value is None or value <= READ_AHEAD_MAX_KB:
        return
    path = shell_quote(device.path)
    yield Finding(
        "RA-HIGH", Severity.WARN, device.name, f"{device.name} reads ahead {value} KiB under "
        f"{', '.join(sorted({d.owner for d in data}))} data",
        (Evidence.of(f"read_ahead_kb of {device.name}", tuning.read_ahead_kb),
         *(Evidence(f"{d.owner} data", d.path, d.source) for d in data)),
        "Stacked devices inherit a read-ahead of twice their stripe width, often several MiB. Elastic "
        "recommends 128 KiB: with random reads (search, mmap'd indexes, B-trees) each miss pulls in MiBs "
        "nobody asked for and evicts the page cache.",
        (f"blockdev --setra 256 {path}   # 256 sectors = 128 KiB", _udev_rule(ctx, "read_ahead_kb", "128")),
        "Large sequential scans (backups, compaction reads) may get a little slower.",
        (f"blockdev --getra {path}   # 256",))


@rule("PART-ALIGN", scope=Scope.DEVICE, severity=Severity.WARN,
      checks="a partition starts off a 4 KiB / physical-block / minimum-I/O boundary, or the kernel reports "
             "a non-zero alignment_offset",
      sources=("linux:Documentation/ABI/stable/sysfs-block (alignment_offset)", "RHEL 7 SSD guide (1 MiB)"))
def partition_alignment(ctx: DeviceContext) -> Iterator[Finding]:
    """PART-ALIGN: a misaligned partition turns every write into a read-modify-write of two blocks."""
    device = ctx.device
    placement = ctx.advice.facts.partitions.get(device.kname)
    tuning = ctx.advice.facts.queues.get(device.kname)
    if placement is None or tuning is None or placement.start_bytes.value is None:
        return
    unit = max(ALIGN_FLOOR, tuning.physical_block_size.value or 0, tuning.minimum_io_size.value or 0)
    start, offset = placement.start_bytes.value, placement.alignment_offset.value
    if start % unit == 0 and not offset:
        return
    disk = device.parents[0] if device.parents else "?"
    yield Finding(
        "PART-ALIGN", Severity.WARN, device.name,
        f"{device.name} starts at byte {start:,}, not a multiple of {unit:,}",
        (Evidence.of(f"start of {device.name} (bytes)", placement.start_bytes),
         Evidence.of(f"alignment_offset of {device.name}", placement.alignment_offset),
         Evidence.of(f"physical_block_size of {disk}", tuning.physical_block_size),
         Evidence.of(f"minimum_io_size of {disk}", tuning.minimum_io_size)),
        "Every filesystem block then straddles two physical blocks (or RAID chunks): each write becomes a "
        "read-modify-write and flash wears faster. Partitions should start on a 1 MiB boundary.",
        (f"parted {shell_quote('/dev/' + disk)} align-check optimal {device.partition_number or 1}",
         "# re-partition with parted -a optimal (start at 1MiB): needs a backup and restore of the data"),
        "Re-partitioning destroys the data on the partition; plan a migration.",
        (f"cat {shell_quote(f'/sys/class/block/{device.kname}/start')}   # a multiple of {unit // 512}",))
