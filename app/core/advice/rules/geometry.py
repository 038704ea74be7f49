"""RAID geometry rules: md chunk and data disks against XFS sunit/swidth and ext4 stride/stripe_width."""

from __future__ import annotations

from collections.abc import Iterator

from diskdoctor.app.core.findings.finding import Evidence, Finding
from diskdoctor.app.core.findings.registry import Scope, rule
from diskdoctor.app.core.findings.vocabulary import Severity
from diskdoctor.probes.host_text import shell_quote
from diskdoctor.probes.queue_tuning import RAID_STRIPED, MdGeometry

from ..contexts import FsContext, options_evidence

EXT4_DEFAULT_BLOCK = 4096


def striped_md(ctx: FsContext) -> tuple[str, MdGeometry] | None:
    """The first striped md array under the filesystem with a known chunk and data-disk count."""
    for kname in ctx.layers:
        geometry = ctx.advice.facts.md.get(kname)
        if geometry and geometry.level in RAID_STRIPED and geometry.chunk_bytes.value and geometry.data_disks:
            return kname, geometry
    return None


def md_evidence(name: str, geometry: MdGeometry) -> tuple[Evidence, ...]:
    """Level, chunk size and member count of the array."""
    return (Evidence(f"md level of {name}", geometry.level, f"/sys/block/{name}/md/level"),
            Evidence.of(f"chunk_size of {name} (bytes)", geometry.chunk_bytes),
            Evidence.of(f"raid_disks of {name}", geometry.raid_disks),
            Evidence(f"data disks of {name}", str(geometry.data_disks),
                     "derived from level, raid_disks and layout"))


@rule("STRIPE-XFS", scope=Scope.FILESYSTEM, severity=Severity.WARN,
      checks="XFS sunit/swidth (mountinfo, 512-byte sectors) against the md chunk and data disks below",
      sources=("mkfs.xfs(8) (su, sw)", "linux:Documentation/admin-guide/xfs.rst (sunit, swidth)"))
def xfs_stripe(ctx: FsContext) -> Iterator[Finding]:
    """STRIPE-XFS: XFS that does not know the RAID geometry allocates across stripe boundaries."""
    found = striped_md(ctx)
    if ctx.fstype != "xfs" or found is None:
        return
    name, geometry = found
    chunk, disks = geometry.chunk_bytes.value or 0, geometry.data_disks or 1
    want_sunit, want_swidth = chunk // 512, chunk // 512 * disks
    sunit, swidth = ctx.option_value("sunit"), ctx.option_value("swidth")
    if sunit == str(want_sunit) and swidth == str(want_swidth):
        return
    seen = f"sunit={sunit}, swidth={swidth}" if sunit else "no stripe geometry"
    yield Finding(
        "STRIPE-XFS", Severity.WARN, ctx.mountpoint,
        f"{ctx.mountpoint} (xfs) has {seen}; {name} wants sunit={want_sunit}, swidth={want_swidth}",
        (options_evidence(ctx), *md_evidence(name, geometry)),
        f"sunit should be the chunk ({chunk // 1024} KiB = {want_sunit} sectors) and swidth the chunk times "
        f"the {disks} data disks. Without it XFS places files and log writes across stripe boundaries, so "
        "parity RAID does read-modify-write and striped RAID splits I/O unevenly.",
        (f"# at the next mkfs: mkfs.xfs -d su={chunk // 1024}k,sw={disks} {shell_quote('/dev/' + ctx.kname)}",
         f"# or, on an existing filesystem, mount with -o sunit={want_sunit},swidth={want_swidth} "
         "(only compatible changes are accepted; add it to /etc/fstab)"),
        "mkfs destroys the data; the mount options only guide new allocations.",
        (f"xfs_info {ctx.quoted}   # sunit/swidth in filesystem blocks",
         f"findmnt -no OPTIONS {ctx.quoted}   # sunit={want_sunit},swidth={want_swidth}"))


@rule("STRIPE-EXT4", scope=Scope.FILESYSTEM, severity=Severity.INFO,
      checks="ext4 RAID stride/stripe width (tune2fs -l, or stripe= in mountinfo) against the md geometry",
      sources=("mke2fs(8) (stride, stripe_width)",))
def ext4_stripe(ctx: FsContext) -> Iterator[Finding]:
    """STRIPE-EXT4: ext4 without the RAID stride spreads block bitmaps and allocations badly on RAID."""
    found = striped_md(ctx)
    if ctx.fstype != "ext4" or found is None:
        return
    name, geometry = found
    raid = ctx.advice.facts.ext4_raid.get(ctx.kname)
    superblock = raid.value if raid is not None else None
    block = (superblock.block_size if superblock else None) or EXT4_DEFAULT_BLOCK
    chunk, disks = geometry.chunk_bytes.value or 0, geometry.data_disks or 1
    want_stride, want_width = max(1, chunk // block), max(1, chunk // block) * disks
    option = ctx.option_value("stripe")
    if superblock is not None:
        have = (superblock.stride, superblock.stripe_width)
        if have == (want_stride, want_width):
            return
        seen = f"stride={have[0]}, stripe_width={have[1]}" if have != (None, None) else "no RAID stride"
    elif option == str(want_width):
        return
    else:
        seen = f"stripe={option}" if option else "no stripe= option"
    evidence = [options_evidence(ctx), *md_evidence(name, geometry)]
    if raid is not None:
        evidence.append(Evidence("RAID stride / stripe width in the superblock",
                                 f"{superblock.stride} / {superblock.stripe_width}" if superblock else
                                 f"unknown: {raid.why_unknown}", raid.source))
    device = shell_quote(ctx.advice.host.devices[ctx.kname].path)
    yield Finding(
        "STRIPE-EXT4", Severity.INFO, ctx.mountpoint,
        f"{ctx.mountpoint} (ext4) has {seen}; {name} wants stride={want_stride}, stripe_width={want_width}",
        tuple(evidence),
        f"stride is the chunk in filesystem blocks ({chunk // 1024} KiB / {block} B) and stripe_width the "
        f"stride times the {disks} data disks. ext4 uses them to keep allocations and metadata off stripe "
        "boundaries (mke2fs(8)).",
        (f"tune2fs -E stride={want_stride},stripe_width={want_width} {device}",),
        "Only future allocations follow the new hint; existing files stay where they are.",
        (f"tune2fs -l {device} | grep -i raid",))
