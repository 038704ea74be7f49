"""Mount-option rules: barriers, data=journal, commit intervals, atime, btrfs autodefrag and compression."""

from __future__ import annotations

from collections.abc import Iterator

from diskdoctor.app.core.findings.finding import Evidence, Finding
from diskdoctor.app.core.findings.registry import Scope, rule
from diskdoctor.app.core.findings.vocabulary import Severity

from ..contexts import FsContext, data_evidence, options_evidence

EXT = ("ext3", "ext4")
COMMIT_DEFAULT_S = {"ext3": 5, "ext4": 5, "btrfs": 30}
COMPRESS_WASTED_PERCENT = 90
COMPRESS_SAVING_PERCENT = 50


def fstab_note(ctx: FsContext, change: str) -> str:
    """The '# ...' line that makes a remount survive a reboot."""
    return f"# and {change} in the {ctx.mountpoint} line of /etc/fstab, so it survives a reboot"


def findmnt(ctx: FsContext, expect: str) -> str:
    """A verify line showing the live options."""
    return f"findmnt -no OPTIONS {ctx.quoted}   # {expect}"


@rule("NOBARRIER", scope=Scope.FILESYSTEM, severity=Severity.CRIT,
      checks="mount options contain nobarrier or barrier=0 (cache flushes off)",
      sources=("linux:Documentation/admin-guide/ext4.rst (barrier)",
               "linux:Documentation/admin-guide/xfs.rst"))
def no_barrier(ctx: FsContext) -> Iterator[Finding]:
    """NOBARRIER: write barriers (cache flushes) are off, so a power loss can corrupt the filesystem."""
    if not {"nobarrier", "barrier=0"} & set(ctx.options):
        return
    yield Finding(
        "NOBARRIER", Severity.CRIT, ctx.mountpoint, f"{ctx.mountpoint} is mounted without write barriers",
        (options_evidence(ctx),),
        "Barriers make the disk's volatile write cache safe: without them an fsync returns before the data "
        "is on stable media, and a power loss can lose acknowledged writes or corrupt the journal "
        "(ext4.rst). Only safe when every disk underneath has power-loss protection or a battery-backed "
        "cache. XFS removed the option in Linux 4.19.",
        (f"mount -o remount,barrier {ctx.quoted}", fstab_note(ctx, "remove nobarrier / barrier=0")),
        "fsync and fdatasync get slower (they now wait for the cache flush they always promised).",
        (findmnt(ctx, "no nobarrier"), f"diskdoctor bench wal --dir {ctx.quoted}   # the honest fsync cost"))


@rule("DATA-JOURNAL", scope=Scope.FILESYSTEM, severity=Severity.WARN,
      checks="ext3/ext4 mounted with data=journal (every block written twice, no O_DIRECT)",
      sources=("linux:Documentation/admin-guide/ext4.rst (data=journal)",))
def data_journal(ctx: FsContext) -> Iterator[Finding]:
    """DATA-JOURNAL: ext4 journals all data, writing it twice and disabling delalloc and O_DIRECT."""
    if ctx.fstype not in EXT or ctx.option_value("data") != "journal":
        return
    yield Finding(
        "DATA-JOURNAL", Severity.WARN, ctx.mountpoint, f"{ctx.mountpoint} ({ctx.fstype}) journals all data",
        (options_evidence(ctx),),
        "With data=journal every data block goes to the journal first and then to its place, so writes "
        "cost double, and the mode 'will disable delayed allocation and O_DIRECT support' (ext4.rst). "
        "Databases that use O_DIRECT fall back or fail.",
        ("# the kernel refuses to change the data mode on remount: edit /etc/fstab to data=ordered, then",
         f"umount {ctx.quoted} && mount {ctx.quoted}"),
        "Needs the filesystem unmounted (stop what uses it); data=ordered is the default and keeps "
        "metadata consistent.",
        (findmnt(ctx, "data=ordered"),))


@rule("COMMIT-LONG", scope=Scope.FILESYSTEM, severity=Severity.INFO,
      checks="ext4 commit= above 5 s or btrfs commit= above 30 s (a wider loss window)",
      sources=("linux:Documentation/admin-guide/ext4.rst (commit)", "btrfs-progs ch-mount-options (commit)"))
def long_commit(ctx: FsContext) -> Iterator[Finding]:
    """COMMIT-LONG: a commit interval above the default widens what a power loss takes with it."""
    default = COMMIT_DEFAULT_S.get(ctx.fstype)
    value = ctx.option_value("commit")
    if default is None or value is None or not value.isdigit() or int(value) <= default:
        return
    yield Finding(
        "COMMIT-LONG", Severity.INFO, ctx.mountpoint,
        f"{ctx.mountpoint} commits every {value} s (default {default} s)", (options_evidence(ctx),),
        f"After a power loss up to the last {value} s of writes that were not fsynced are gone "
        f"(ext4.rst: 'you will lose as much as the latest {default} seconds of work' at the default). "
        "Applications that fsync are not affected; everything else is.",
        (f"mount -o remount,commit={default} {ctx.quoted}", fstab_note(ctx, "remove commit=")),
        "Slightly more frequent journal commits.", (findmnt(ctx, f"commit={default} or no commit="),))


@rule("ATIME", scope=Scope.FILESYSTEM, severity=Severity.INFO,
      checks="a filesystem holding database or search data is mounted without noatime or lazytime",
      sources=("mount(8) (relatime, noatime, lazytime)", "btrfs-progs ch-mount-options (noatime)"))
def atime(ctx: FsContext) -> Iterator[Finding]:
    """ATIME: reads of database files still write inode timestamps (relatime, once a day per file)."""
    if not ctx.data_dirs or {"noatime", "lazytime"} & set(ctx.options):
        return
    yield Finding(
        "ATIME", Severity.INFO, ctx.mountpoint, f"{ctx.mountpoint} updates access times on reads",
        (options_evidence(ctx), *data_evidence(ctx)),
        "relatime (the default) still writes an inode when a file is read and its atime is over a day old; "
        "noatime stops that, lazytime keeps timestamps in memory. Databases and search engines never use "
        "atime. On btrfs with snapshots every atime update also un-shares metadata.",
        (f"mount -o remount,noatime {ctx.quoted}", fstab_note(ctx, "add noatime")),
        "Tools that rely on atime (mail readers' 'new mail', some cleanup scripts) stop seeing reads.",
        (findmnt(ctx, "shows noatime"),))


@rule("BTRFS-AUTODEFRAG-DB", scope=Scope.FILESYSTEM, severity=Severity.WARN,
      checks="btrfs mounted with autodefrag under database or search data",
      sources=("btrfs-progs ch-mount-options (autodefrag)",))
def autodefrag_db(ctx: FsContext) -> Iterator[Finding]:
    """BTRFS-AUTODEFRAG-DB: autodefrag rewrites randomly-written database files in the background."""
    if ctx.fstype != "btrfs" or "autodefrag" not in ctx.options or not ctx.data_dirs:
        return
    yield Finding(
        "BTRFS-AUTODEFRAG-DB", Severity.WARN, ctx.mountpoint,
        f"{ctx.mountpoint} (btrfs) is mounted with autodefrag under database data",
        (options_evidence(ctx), *data_evidence(ctx)),
        "autodefrag queues every file that gets small random writes for a background rewrite; the btrfs "
        "docs say it 'may not be well suited for large database workloads', and read latency can rise. "
        "Defragmenting also breaks reflinks and snapshot sharing.",
        (f"mount -o remount,noautodefrag {ctx.quoted}", fstab_note(ctx, "remove autodefrag")),
        "Files fragmented by random writes stay fragmented (defragment single files by hand if needed).",
        (findmnt(ctx, "no autodefrag"),))


def _compress_option(ctx: FsContext) -> str | None:
    return next((o for o in reversed(ctx.options) if o.startswith("compress")), None)


@rule("BTRFS-COMPRESS-RATIO", scope=Scope.FILESYSTEM, severity=Severity.INFO,
      checks="btrfs compression against the ratio compsize measures (compress-force on data that does "
             "not compress; savings du does not show)",
      sources=("btrfs-progs ch-compression", "kilobyte/compsize README"))
def compress_ratio(ctx: FsContext) -> Iterator[Finding]:
    """BTRFS-COMPRESS-RATIO: what compression really saves here, from compsize."""
    option = _compress_option(ctx)
    measured = ctx.advice.facts.compression.get(ctx.mountpoint)
    if ctx.fstype != "btrfs" or option is None or measured is None or measured.value is None:
        return
    ratio = measured.value
    shown = f"{ratio.percent}% ({ratio.disk_usage} of {ratio.uncompressed})"
    evidence = (options_evidence(ctx),
                Evidence("on-disk size / uncompressed (compsize TOTAL)", shown, measured.source))
    forced = option.startswith("compress-force")
    if forced and ratio.percent > COMPRESS_WASTED_PERCENT:
        kind = option.split("=", 1)[1] if "=" in option else "zlib"
        yield Finding(
            "BTRFS-COMPRESS-RATIO", Severity.INFO, ctx.mountpoint,
            f"{ctx.mountpoint} forces compression but the data stays at {ratio.percent}% of its size",
            evidence,
            "compress-force compresses every 128 KiB chunk even when it does not shrink, spending CPU on "
            "each write (and read) for almost no space. Plain compress gives up on files whose first "
            "blocks do not compress.",
            (f"mount -o remount,compress={kind} {ctx.quoted}", fstab_note(ctx, f"use compress={kind}")),
            "Files whose beginning does not compress are then never compressed.",
            (f"compsize -x {ctx.quoted}",))
    elif ratio.percent < COMPRESS_SAVING_PERCENT:
        yield Finding(
            "BTRFS-COMPRESS-RATIO", Severity.INFO, ctx.mountpoint,
            f"{ctx.mountpoint} stores its data in {ratio.percent}% of the space ({option})", evidence,
            "du and `btrfs filesystem du` report the uncompressed size, so disk usage looks "
            f"{100 // max(ratio.percent, 1)}x higher than it is; `compsize` and `btrfs filesystem usage` "
            "show the real allocation. Nothing to fix: size capacity plans on compsize's figure.",
            (), None, (f"compsize -x {ctx.quoted}", f"btrfs filesystem usage {ctx.quoted}"))
