"""The TRIM rules: each turns one filesystem's discard path and trim schedule into findings."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass

from diskdoctor.app.base.formatting import human_bytes
from diskdoctor.probes.calendar_spec import ScheduleError, describe_delta, parse_on_calendar
from diskdoctor.probes.device_kinds import split_lvm_dm_name
from diskdoctor.probes.discard_path import DiscardReach
from diskdoctor.probes.host import Host
from diskdoctor.probes.host_text import UNSAFE_ONE_LINE, real_text, shell_quote, shown
from diskdoctor.probes.thin_path import ThinPoolLayer, thin_pools_in_path
from diskdoctor.probes.trim_facts import TrimFacts

from ..findings.finding import Evidence, Finding, by_severity
from ..findings.registry import Scope, rule, run_rules
from ..findings.vocabulary import Severity
from .discard_mode import DiscardMode, kernel_version
from .peak_window import PeakWindow
from .schedule import NOTRIM_OPTION, Schedule, cron_covers, fstab_entry, timer_fires

INFO, WARN, CRIT = Severity.INFO, Severity.WARN, Severity.CRIT

STALE_AFTER = dt.timedelta(days=8)
RAID0_FAST_DISCARD = (4, 12)
OFF_PEAK_CANDIDATES = ("Sun *-*-* 03:00", "Sat *-*-* 03:00", "*-*-* 03:00", "Sun *-*-* 13:00",
                       "*-*-* 23:00")
CRYPT_RISK = ("TRIM through dm-crypt lets anyone who can read the raw disk see which blocks are free "
              "(filesystem type and usage pattern); the data stays encrypted.")
CONTINUOUS_RISK = "Continuous discard adds latency to every delete; a weekly fstrim moves that cost " \
                  "to one quiet hour."
TRIM_NOW_RISK = "The first fstrim after a long time can run for minutes and slow other I/O: run it " \
                "off-peak."


@dataclass(frozen=True)
class TrimContext:
    """Everything the rules need about one mounted filesystem."""

    host: Host
    facts: TrimFacts
    mountpoint: str
    fstype: str
    kname: str
    reach: DiscardReach
    mode: DiscardMode
    schedule: Schedule
    peak: PeakWindow | None

    def name(self, kname: str | None) -> str:
        """The device's user-facing name (dm name for dm devices)."""
        if kname is None:
            return "?"
        device = self.host.devices.get(kname)
        return device.name if device else kname

    def dev_path(self, kname: str) -> str:
        """/dev/mapper/NAME for dm devices, else /dev/KNAME."""
        device = self.host.devices.get(kname)
        if device and device.dm_name:
            return _q(f"/dev/mapper/{device.dm_name}")
        return _q(f"/dev/{kname}")


def _q(path: str) -> str:
    return shell_quote(path)


def _systemd_arg(path: str) -> str:
    """A path as one argument of a unit file's ExecStart (quoted, with % and backslash escaped, and a
    control or invisible character as systemd's \\xHH escape, so the unit names the real path)."""
    real = real_text(path)
    if re.fullmatch(r"[A-Za-z0-9/_.:+-]+", real):
        return real
    quoted = real.replace("\\", "\\\\").replace('"', '\\"').replace("%", "%%")
    return '"' + UNSAFE_ONE_LINE.sub(lambda m: "".join(f"\\x{b:02x}" for b in m[0].encode()), quoted) + '"'


def _unit_suffix(mountpoint: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", mountpoint).strip("-") or "root"


def _layer_evidence(ctx: TrimContext, kname: str) -> Evidence:
    """discard_max_bytes of one layer in lsblk's size format (4G, 0B, as the Stack's DISC-MAX), with the file
    it was read from."""
    device = ctx.host.devices[kname]
    what, fact = f"discard_max_bytes of {device.name}", device.discard_max_bytes
    if fact.value is None:
        return Evidence.of(what, fact)
    return Evidence(what, human_bytes(fact.value), fact.source)


def _below_evidence(ctx: TrimContext, kname: str) -> tuple[Evidence, ...]:
    """The blocking layer's limit and the limit of the layer right under it."""
    order = [layer.kname for layer in ctx.reach.layers]
    below = order[order.index(kname) + 1:] if kname in order else []
    return (_layer_evidence(ctx, kname),) + ((_layer_evidence(ctx, below[0]),) if below else ())


@rule("TRIM-CRYPT-OFF", scope=Scope.TRIM, severity=WARN,
      checks="a dm-crypt layer under the filesystem drops discard (opened without allow_discards)",
      sources=("linux:Documentation/admin-guide/device-mapper/dm-crypt.rst", "cryptsetup-refresh(8)",
               "crypttab(5)"))
def crypt_blocked(ctx: TrimContext) -> Iterator[Finding]:
    """TRIM-CRYPT-OFF: a dm-crypt layer drops discards (no allow_discards)."""
    if ctx.reach.verdict != "blocked" or ctx.reach.blocked_at is None:
        return
    device = ctx.host.devices[ctx.reach.blocked_at]
    if device.kind != "crypt":
        return
    name = device.dm_name or device.name
    luks2 = (device.dm_uuid or "").startswith("CRYPT-LUKS2-")
    evidence = list(_below_evidence(ctx, device.kname))
    notes = [f"{name} has discard_max_bytes 0 while the layer below accepts discard"]
    targets = ctx.facts.dm.tables.get(name, [])
    if targets and targets[0].allows_discards is False:
        notes.append("`dmsetup table` shows no allow_discards")
        evidence.append(Evidence(f"crypt table of {name}", "no allow_discards", ctx.facts.dm.tables_source))
    crypttab = ctx.facts.crypttab.get(name)
    if crypttab is not None and crypttab.allows_discards:
        notes.append(f"{ctx.facts.crypttab_source} asks for discard, but the mapping was opened "
                     "without it (opened before the change, or by something that ignores crypttab)")
        evidence.append(Evidence(f"crypttab options of {name}", "discard", ctx.facts.crypttab_source))
    fix = [f"cryptsetup refresh --allow-discards{' --persistent' if luks2 else ''} {_q(name)}"]
    if not luks2:
        fix.append(f"# LUKS1/plain cannot store the flag: add 'discard' to the options (4th field) of "
                   f"the {name} line in {ctx.facts.crypttab_source}")
    elif crypttab is not None and not crypttab.allows_discards:
        fix.append(f"# optional: also add 'discard' to the {name} line in {ctx.facts.crypttab_source}")
    if ctx.mountpoint == "/":
        fix.append("# root filesystem: also add rd.luks.options=discard (systemd initrd) or "
                   "rd.luks.allow-discards (dracut) to the kernel command line")
    yield Finding("TRIM-CRYPT-OFF", WARN, ctx.mountpoint,
                  f"BLOCKED at {name} (dm-crypt without allow_discards): fstrim and discard on "
                  f"{ctx.mountpoint} never reach the disk", tuple(evidence), "; ".join(notes) + ".",
                  tuple(fix), CRYPT_RISK,
                  (f"lsblk -D {ctx.dev_path(ctx.reach.blocked_at)}   # DISC-MAX is no longer 0",
                   f"dmsetup table {_q(name)} | grep -c allow_discards   # prints 1",
                   f"fstrim -v {_q(ctx.mountpoint)}"))


def _raid0_rhel7(ctx: TrimContext, md_level: str | None) -> bool:
    return md_level == "raid0" and ".el7" in (ctx.facts.kernel or "")


@rule("TRIM-MD-RAID456", "TRIM-MD-RAID0-RHEL7", scope=Scope.TRIM, severity=INFO,
      checks="an md raid4/5/6 array (devices_handle_discard_safely=N) or a RHEL 7 raid0 drops discard",
      sources=("linux:drivers/md/raid5.c", "scylladb/scylladb#2033"))
def md_blocked(ctx: TrimContext) -> Iterator[Finding]:
    """TRIM-MD-RAID456 / TRIM-MD-RAID0-RHEL7: an md array drops discards."""
    if ctx.reach.verdict != "blocked" or ctx.reach.blocked_at is None:
        return
    device = ctx.host.devices[ctx.reach.blocked_at]
    level = device.md_level
    if level in ("raid4", "raid5", "raid6"):
        param = ctx.facts.raid456_discard_safely
        yield Finding(
            "TRIM-MD-RAID456", INFO, ctx.mountpoint, f"BLOCKED at {device.name} ({level})",
            (*_below_evidence(ctx, device.kname),
             Evidence.of("raid456 devices_handle_discard_safely", param)),
            "The raid456 driver passes discard only when "
            f"devices_handle_discard_safely=Y (now {param.value or 'unknown'}).",
            ("# only if EVERY member reliably returns zeroes after discard:",
             "echo Y > /sys/module/raid456/parameters/devices_handle_discard_safely",
             "echo 'options raid456 devices_handle_discard_safely=Y' > /etc/modprobe.d/raid456-discard.conf"),
            "On members that do not return zeroes after discard, a later rebuild computes wrong parity "
            "(data loss). raid5 discard can also be very slow.",
            (f"lsblk -D {_q('/dev/' + device.kname)}   # DISC-MAX is no longer 0 (the array may need "
             "re-assembly)",))
    elif _raid0_rhel7(ctx, level):
        yield Finding(
            "TRIM-MD-RAID0-RHEL7", INFO, ctx.mountpoint, f"BLOCKED at {device.name} (raid0)",
            (*_below_evidence(ctx, device.kname), _kernel_evidence(ctx)),
            "RHEL 7 kernels up to 7.4 disable raid0 discard by default ('discard support disabled due "
            "to performance uncertainty').",
            ("echo 'options raid0 devices_discard_performance=Y' > /etc/modprobe.d/raid0-discard.conf",
             "# then rebuild the initramfs (dracut -f) and reboot; newer kernels do not know this option"),
            "Old raid0 discard splits requests per chunk and can be slow.",
            (f"lsblk -D {_q('/dev/' + device.kname)}",))


def blocking_thin_pools(host: Host, facts: TrimFacts, reach: DiscardReach) -> list[ThinPoolLayer]:
    """Thin pools this filesystem's own stack goes through whose mode keeps discards from the disks."""
    pools = thin_pools_in_path(host, [layer.kname for layer in reach.layers], facts.dm)
    return [pool for pool in pools if pool.mode in ("ignore", "nopassdown")]


def _thin_volumes(ctx: TrimContext, pool: ThinPoolLayer) -> list[str]:
    """'vg/lv' of every thin volume on the pool (all must be inactive to change from ignore); the
    pool's own visible LV, which lvm also maps onto the -tpool layer, is not one of them."""
    names = []
    for kname in ctx.host.children(pool.kname):
        dm_name = ctx.host.devices[kname].dm_name
        if dm_name:
            vg, lv, _layer = split_lvm_dm_name(dm_name)
            if f"{vg}/{lv}" != pool.pool:
                names.append(f"{vg}/{lv}")
    return names


def thin_ignore(ctx: TrimContext, pool: ThinPoolLayer) -> Finding:
    """TRIM-THIN-IGNORE: the pool drops every discard, so nothing is freed and nothing reaches the disks."""
    thins = _thin_volumes(ctx, pool)
    return Finding(
        "TRIM-THIN-IGNORE", WARN, ctx.mountpoint, f"Thin pool {pool.pool} has discards=ignore",
        (Evidence(f"discards mode of thin pool {pool.pool}", "ignore", pool.source),),
        f"It drops every discard, so fstrim on {ctx.mountpoint} frees nothing in the pool (the pool never "
        "shrinks) and nothing reaches the disks.",
        ("# lvm changes a pool from ignore only while the pool is inactive: unmount its thin volumes, then",
         *(f"lvchange -an {_q(thin)}" for thin in thins), f"lvchange -an {_q(pool.pool)}",
         f"lvchange --discards passdown {_q(pool.pool)}",
         *(f"lvchange -ay {_q(thin)}" for thin in thins)),
        f"Downtime: every thin volume of {pool.pool} ({', '.join(thins) or 'none active'}) must be unmounted "
        "and deactivated for the change; afterwards the first fstrim frees everything deleted so far "
        "and can run long.",
        (f"lvs -o lv_name,discards {_q(pool.pool)}   # passdown",
         f"dmsetup table {_q(ctx.name(pool.kname))} | grep -c ignore_discard   # prints 0",
         f"fstrim -v {_q(ctx.mountpoint)}"))


def thin_nopassdown(ctx: TrimContext, pool: ThinPoolLayer) -> Finding:
    """TRIM-THIN-NOPASSDOWN: the pool frees its chunks on discard but does not pass discards to the disks."""
    evidence = [Evidence(f"discards mode of thin pool {pool.pool}", "nopassdown", pool.source)]
    table = ""
    if ctx.facts.dm.tables.get(ctx.name(pool.kname)):
        table = " (the pool's table shows no_discard_passdown)"
        evidence.append(Evidence(f"table of {ctx.name(pool.kname)}", "no_discard_passdown",
                                 ctx.facts.dm.tables_source))
    return Finding(
        "TRIM-THIN-NOPASSDOWN", WARN, ctx.mountpoint, f"Thin pool {pool.pool} has discards=nopassdown",
        tuple(evidence),
        f"fstrim on {ctx.mountpoint} frees space in the pool{table}, but the discards stop "
        "at the pool and never reach the disks, so the flash is not told which blocks are free.",
        (f"lvchange --discards passdown {_q(pool.pool)}",),
        "The change works while the pool is in use; from then on every discard the pool frees also goes "
        "to the disks, so fstrim takes longer and adds I/O (keep it off-peak).",
        (f"lvs -o lv_name,discards {_q(pool.pool)}   # passdown",
         f"dmsetup table {_q(ctx.name(pool.kname))} | grep -c no_discard_passdown   # prints 0",
         f"fstrim -v {_q(ctx.mountpoint)}"))


@rule("TRIM-THIN-IGNORE", "TRIM-THIN-NOPASSDOWN", scope=Scope.TRIM, severity=WARN,
      checks="a thin pool under the filesystem ignores discards or does not pass them down",
      sources=("lvmthin(7)",))
def lvm_blocked(ctx: TrimContext) -> Iterator[Finding]:
    """TRIM-THIN-IGNORE / TRIM-THIN-NOPASSDOWN: a thin pool under this filesystem keeps discards."""
    if ctx.reach.verdict in ("unsupported", "unknown"):
        return
    for pool in blocking_thin_pools(ctx.host, ctx.facts, ctx.reach):
        yield thin_ignore(ctx, pool) if pool.mode == "ignore" else thin_nopassdown(ctx, pool)


@rule("TRIM-LAYER-BLOCKED", scope=Scope.TRIM, severity=WARN,
      checks="a layer of another kind reads discard_max_bytes 0 above one that accepts discard",
      sources=("linux:Documentation/ABI/stable/sysfs-block", "linux:drivers/md/dm-table.c"))
def generic_blocked(ctx: TrimContext) -> Iterator[Finding]:
    """TRIM-LAYER-BLOCKED: a layer of another kind drops discards."""
    if ctx.reach.verdict != "blocked" or ctx.reach.blocked_at is None:
        return
    device = ctx.host.devices[ctx.reach.blocked_at]
    md_rule = device.md_level in ("raid4", "raid5", "raid6") or _raid0_rhel7(ctx, device.md_level)
    pool_layers = {kname for pool in blocking_thin_pools(ctx.host, ctx.facts, ctx.reach)
                   for kname in (pool.kname, *pool.thin_knames)}
    if device.kind == "crypt" or md_rule or device.kname in pool_layers:
        return
    yield Finding("TRIM-LAYER-BLOCKED", WARN, ctx.mountpoint, ctx.reach.summary,
                  _below_evidence(ctx, device.kname),
                  f"{device.name} reports discard_max_bytes 0 while a layer below accepts discard, so trims "
                  "of this filesystem stop there.",
                  (f"dmsetup table {_q(device.dm_name)}   # see which target drops discard"
                   if device.dm_name else f"cat {_q(f'/sys/block/{device.kname}/queue/discard_max_bytes')}",),
                  None, (f"lsblk -D {ctx.dev_path(device.kname)}",))


@rule("TRIM-UNSUPPORTED", scope=Scope.TRIM, severity=INFO,
      checks="the bottom of the stack accepts no discard (HDD, many virtual disks)",
      sources=("linux:Documentation/ABI/stable/sysfs-block",))
def unsupported(ctx: TrimContext) -> Iterator[Finding]:
    """TRIM-UNSUPPORTED: nothing to trim into; call out schedules and options that therefore do nothing."""
    if ctx.reach.verdict != "unsupported":
        return
    leaves = ", ".join(ctx.name(k) for k in ctx.reach.leaves)
    wasted = []
    if ctx.schedule.kind != "none":
        wasted.append(f"{ctx.schedule.kind} is set up to trim it")
    if ctx.mode.mode != "off":
        wasted.append(f"it is mounted with {ctx.mode.option}")
    tail = f"; yet {' and '.join(wasted)}, which does nothing here" if wasted else ""
    yield Finding("TRIM-UNSUPPORTED", INFO, ctx.mountpoint,
                  f"{leaves} does not accept discard (discard_max_bytes 0 at the bottom of the stack)",
                  tuple(_layer_evidence(ctx, k) for k in ctx.reach.leaves),
                  f"TRIM cannot help {ctx.mountpoint}{tail}. Typical for HDDs, many virtual disks "
                  "and RAID controllers that hide TRIM.", (), None,
                  (f"lsblk -D {_q('/dev/' + ctx.reach.leaves[0])}" if ctx.reach.leaves else "lsblk -D",))


def _kernel_evidence(ctx: TrimContext) -> Evidence:
    return Evidence("kernel", ctx.facts.kernel or "unknown", "/proc/sys/kernel/osrelease")


def _mode_evidence(ctx: TrimContext) -> Evidence:
    return Evidence("discard mount option", ctx.mode.option or "none", ctx.mode.source)


@rule("DISCARD-ONLINE-XFS", "DISCARD-ONLINE", "BTRFS-DISCARD-SYNC", "BTRFS-ASYNC-DEFAULT", scope=Scope.TRIM,
      severity=WARN, checks="the filesystem is mounted with continuous (synchronous) discard",
      sources=("linux:Documentation/admin-guide/xfs.rst", "fstrim(8)", "btrfs-progs ch-mount-options"))
def continuous_discard(ctx: TrimContext) -> Iterator[Finding]:
    """DISCARD-ONLINE-XFS (xfs) / DISCARD-ONLINE (ext4 and others) / BTRFS-DISCARD-SYNC /
    BTRFS-ASYNC-DEFAULT: the filesystem's own discard mode."""
    if ctx.reach.verdict != "reaches":
        return
    point = _q(ctx.mountpoint)
    if ctx.mode.mode == "continuous" and ctx.fstype == "btrfs":
        yield Finding("BTRFS-DISCARD-SYNC", WARN, ctx.mountpoint,
                      f"{ctx.mountpoint} (btrfs) discards synchronously on every delete",
                      (_mode_evidence(ctx),),
                      "discard=async batches it in the background.",
                      (f"mount -o remount,discard=async {point}",
                       f"# and replace {ctx.mode.option} with discard=async in /etc/fstab"),
                      CONTINUOUS_RISK, (f"findmnt -no OPTIONS {point}   # shows discard=async",))
    elif ctx.mode.mode == "continuous":
        both = " It is also trimmed periodically by " + ctx.schedule.kind + ", so the continuous " \
               "discard buys nothing." if ctx.schedule.kind != "none" else ""
        xfs_or_ext = ctx.fstype in ("xfs", "ext4", "ext3")
        fix = [f"mount -o remount,nodiscard {point}",
               f"# and remove 'discard' from the fstab line of {ctx.mountpoint}, if it has one"]
        verify = [f"findmnt -no OPTIONS {point}   # no 'discard'"]
        if ctx.schedule.kind == "none":
            schedule_fix, schedule_verify = _schedule_fix(ctx)
            fix += schedule_fix
            verify += schedule_verify
        docs = ("The XFS kernel docs call its impact 'quite severe' and recommend fstrim instead."
                if ctx.fstype == "xfs" else "fstrim(8) and the kernel docs recommend periodic fstrim "
                "instead (ext4's discard is off by default for this reason)." if xfs_or_ext else
                "Periodic fstrim is usually cheaper.")
        yield Finding("DISCARD-ONLINE-XFS" if ctx.fstype == "xfs" else "DISCARD-ONLINE",
                      WARN if xfs_or_ext else INFO, ctx.mountpoint,
                      f"{ctx.mountpoint} ({ctx.fstype}) is mounted with continuous discard",
                      (_mode_evidence(ctx),), f"Every delete waits for a discard. {docs}{both}",
                      tuple(fix), CONTINUOUS_RISK, tuple(verify))
    elif ctx.mode.mode == "async" and ctx.mode.automatic:
        yield Finding("BTRFS-ASYNC-DEFAULT", INFO, ctx.mountpoint,
                      f"{ctx.mountpoint} (btrfs): discard=async was turned on by the kernel",
                      (_mode_evidence(ctx), _kernel_evidence(ctx)),
                      "Kernels >= 6.2 do this on devices that accept discard when fstab does not ask for a "
                      "discard mode; freed space is discarded in the background.",
                      (f"# to opt out: mount -o remount,nodiscard {point} (and nodiscard in /etc/fstab)",),
                      None, (f"findmnt -no OPTIONS {point}",))


@rule("DISCARD-UNQUEUED", scope=Scope.TRIM, severity=WARN,
      checks="a SATA disk under the filesystem only does unqueued TRIM (stalls other I/O)",
      sources=("linux:Documentation/ABI/testing/sysfs-ata", "btrfs-progs Trim.rst"))
def unqueued_trim(ctx: TrimContext) -> Iterator[Finding]:
    """DISCARD-UNQUEUED: a SATA disk under the filesystem only does unqueued TRIM, which stalls its I/O."""
    if ctx.reach.verdict != "reaches":
        return
    for disk in ctx.reach.leaves:
        mode = ctx.facts.ata_trim.get(disk)
        if mode is None or mode.value not in ("unqueued", "forced_unqueued"):
            continue
        point = _q(ctx.mountpoint)
        evidence = Evidence.of(f"TRIM flavour of {disk}", mode)
        if ctx.mode.mode == "continuous":
            yield Finding("DISCARD-UNQUEUED", WARN, ctx.mountpoint,
                          f"{disk} supports only unqueued TRIM ({mode.value}) and {ctx.mountpoint} discards "
                          "continuously", (evidence, _mode_evidence(ctx)),
                          f"With continuous discard on {ctx.mountpoint}, every delete stalls all other "
                          "I/O on the disk.",
                          (f"mount -o remount,nodiscard {point}",
                           "# remove 'discard' from /etc/fstab, and trim weekly off-peak instead:",
                           *_schedule_fix(ctx)[0]),
                          CONTINUOUS_RISK, (f"findmnt -no OPTIONS {point}",))
        elif ctx.schedule.kind != "none":
            yield Finding("DISCARD-UNQUEUED", INFO, ctx.mountpoint,
                          f"{disk} supports only unqueued TRIM ({mode.value})", (evidence,),
                          f"Each {ctx.schedule.kind} run stalls all other I/O on it until it ends. Keep it "
                          "off-peak (declare busy hours with --peak / p).", (), None,
                          ("systemctl list-timers fstrim.timer",))
        return


TIMER_VERIFY = ("systemctl list-timers fstrim.timer   # shows the next run",)


def _schedule_fix(ctx: TrimContext) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Commands that make something trim this host weekly, and how to check they did."""
    timer = ctx.facts.timer
    if timer.state == "masked":
        return ("systemctl unmask fstrim.timer", "systemctl enable --now fstrim.timer"), TIMER_VERIFY
    if timer.installed and timer.systemd_running:
        return ("systemctl enable --now fstrim.timer",), TIMER_VERIFY
    if timer.systemd_running:
        return ("# fstrim.timer ships with util-linux (Debian/Ubuntu: util-linux; RHEL: util-linux)",
                "systemctl enable --now fstrim.timer"), TIMER_VERIFY
    if ctx.facts.cron_daemon:
        return (("printf '#!/bin/sh\\nexec /sbin/fstrim --all --verbose\\n' > /etc/cron.weekly/fstrim",
                 "chmod 755 /etc/cron.weekly/fstrim"),
                ("run-parts --test /etc/cron.weekly   # lists /etc/cron.weekly/fstrim",))
    return (("# neither systemd nor a cron daemon runs here (a container?): trim from the host that "
             "owns the disk, or by hand off-peak:", f"fstrim --verbose {_q(ctx.mountpoint)}"),
            (f"diskdoctor trim   # {ctx.mountpoint}",))


def _timer_evidence(ctx: TrimContext) -> Evidence:
    timer = ctx.facts.timer
    running = "" if timer.systemd_running else " (systemd not running)"
    return Evidence("fstrim.timer", timer.state + running, timer.state_source)


@rule("TRIM-NO-SCHEDULE", "TRIM-FSTAB-ONLY", "TRIM-NOTRIM", scope=Scope.TRIM, severity=WARN,
      checks="discard reaches the disks but no timer, cron job or discard option trims the filesystem",
      sources=("util-linux fstrim.timer / fstrim.service (v2.36+: --listed-in /etc/fstab)", "fstrim(8)"))
def no_schedule(ctx: TrimContext) -> Iterator[Finding]:
    """TRIM-NO-SCHEDULE / TRIM-FSTAB-ONLY / TRIM-NOTRIM: discard works but nothing trims."""
    if ctx.reach.verdict != "reaches" or ctx.mode.mode != "off" or ctx.schedule.kind != "none":
        return
    facts = ctx.facts
    fires, why = timer_fires(facts)
    entry = fstab_entry(facts, ctx.mountpoint)
    if fires and entry is not None and NOTRIM_OPTION in entry.options:
        yield Finding("TRIM-NOTRIM", INFO, ctx.mountpoint, f"{ctx.mountpoint} is marked {NOTRIM_OPTION}",
                      (Evidence(f"fstab options of {ctx.mountpoint}", ",".join(entry.options),
                                facts.fstab_source),),
                      "fstrim.service skips it on purpose.",
                      (f"# remove {NOTRIM_OPTION} from the {ctx.mountpoint} line in {facts.fstab_source}",),
                      None, ("systemctl start fstrim.service && journalctl -u fstrim.service -n 20",))
        return
    if fires:
        suffix = _unit_suffix(ctx.mountpoint)
        dropin = f"/etc/systemd/system/fstrim.service.d/50-trim-{suffix}.conf"
        exec_start = shown("ExecStart=/sbin/fstrim --verbose " + _systemd_arg(ctx.mountpoint))
        yield Finding("TRIM-FSTAB-ONLY", WARN, ctx.mountpoint,
                      f"{ctx.mountpoint} is never trimmed: fstrim.service trims only filesystems listed in "
                      f"{facts.fstab_source}",
                      (_timer_evidence(ctx),
                       Evidence("fstrim.service scope", facts.timer.service_scope,
                                facts.timer.service_source),
                       Evidence(f"{ctx.mountpoint} in fstab", "not listed", facts.fstab_source)),
                      f"fstrim.timer is enabled, but fstrim.service ({facts.timer.service_source}) trims "
                      f"only filesystems listed in {facts.fstab_source}, and {ctx.mountpoint} is not "
                      "listed (mounted by an orchestrator or by hand?).",
                      ("mkdir -p /etc/systemd/system/fstrim.service.d",
                       f"printf '%s\\n' '[Service]' "
                       f"{_q(exec_start)} > {dropin}",
                       "systemctl daemon-reload",
                       "# or: add the mount to /etc/fstab"),
                      "The extra ExecStart fails the service run if the mount is gone at trim time.",
                      ("systemctl cat fstrim.service   # shows the drop-in",
                       "systemctl start fstrim.service && journalctl -u fstrim.service -n 20"))
        return
    cron_note = ""
    if facts.crons:
        skipped = [c for c in facts.crons if not c.runs and cron_covers(c, facts, ctx.mountpoint)]
        if skipped:
            cron_note = f" {skipped[0].source} would trim it but {skipped[0].why_not}."
    cron = "no cron job runs fstrim for it" if facts.cron_daemon else "no cron daemon is installed"
    fix, verify = _schedule_fix(ctx)
    yield Finding("TRIM-NO-SCHEDULE", WARN, ctx.mountpoint,
                  f"Discard reaches the bottom of {ctx.mountpoint}'s stack, but nothing trims it",
                  (_timer_evidence(ctx), _mode_evidence(ctx)),
                  f"Nothing trims it because {why}, {cron}, and it is not mounted with discard.{cron_note} "
                  "Freed "
                  "blocks are never handed back (an SSD slows down as it fills; a thin volume or a loop's "
                  "backing file never shrinks).", fix, TRIM_NOW_RISK, verify)


@rule("TRIM-TIMER-STALE", scope=Scope.TRIM, severity=INFO,
      checks="fstrim.timer covers the filesystem but has not fired for over 8 days",
      sources=("systemd src/core/timer.c (stamp file)",))
def stale_timer(ctx: TrimContext) -> Iterator[Finding]:
    """TRIM-TIMER-STALE: the timer covers this filesystem but has not fired for over a week."""
    schedule = ctx.schedule
    if schedule.kind != "fstrim.timer" or ctx.reach.verdict != "reaches":
        return
    now = ctx.facts.clock.now
    if schedule.last_run is None:
        text = "fstrim.timer has never fired here"
    elif now - schedule.last_run > STALE_AFTER:
        text = f"fstrim.timer last fired {describe_delta(schedule.last_run - now)}"
    else:
        return
    caveat = f" ({schedule.last_run_note})" if schedule.last_run_note and schedule.last_run else ""
    last = schedule.last_run.isoformat(timespec="seconds") if schedule.last_run else "never"
    yield Finding("TRIM-TIMER-STALE", INFO, ctx.mountpoint, f"{text}{caveat}",
                  (Evidence("fstrim.timer last trigger", last, schedule.source),),
                  "If the host was just set up this is expected; otherwise check that "
                  "the timer is active and the service succeeds.", (),
                  None, ("systemctl list-timers fstrim.timer", "journalctl -u fstrim.service -n 20"))


def _off_peak_calendar(ctx: TrimContext, window: dt.timedelta) -> str | None:
    assert ctx.peak is not None
    for candidate in OFF_PEAK_CANDIDATES:
        try:
            moment = parse_on_calendar(candidate).next_after(ctx.facts.clock.now)
        except ScheduleError:
            continue
        if moment is not None and not ctx.peak.overlaps(moment, window):
            return candidate
    return None


@rule("TRIM-PEAK", scope=Scope.TRIM, severity=WARN,
      checks="the next scheduled trim may run inside the declared peak window (--peak)",
      sources=("Elastic: Is your Elasticsearch trimmed?", "redpanda-data/redpanda#3068"))
def peak_overlap(ctx: TrimContext) -> Iterator[Finding]:
    """TRIM-PEAK: the next scheduled trim may run inside the declared busy hours."""
    schedule = ctx.schedule
    if ctx.peak is None or schedule.next_run is None or ctx.reach.verdict != "reaches":
        return
    window = schedule.random_delay + schedule.accuracy
    if not ctx.peak.overlaps(schedule.next_run, window):
        return
    end = schedule.next_run + window
    when = (f"at {schedule.next_run:%a %H:%M}" if end == schedule.next_run else
            f"between {schedule.next_run:%a %H:%M} and {end:%a %H:%M}")
    title = (f"The next trim of {ctx.mountpoint} by {schedule.kind} may run {when}, inside the peak "
             f"window '{ctx.peak.text}'")
    calendar = _off_peak_calendar(ctx, window)
    verify: tuple[str, ...] = ("systemctl list-timers fstrim.timer   # NEXT is outside the peak window",)
    if schedule.kind == "fstrim.timer" and calendar:
        conf = "/etc/systemd/system/fstrim.timer.d/50-off-peak.conf"
        fix: tuple[str, ...] = (
            "mkdir -p /etc/systemd/system/fstrim.timer.d",
            f"printf '[Timer]\\nOnCalendar=\\nOnCalendar={calendar}\\n' > {conf}",
            "systemctl daemon-reload && systemctl restart fstrim.timer")
    elif schedule.kind == "cron" and calendar:
        fix = (f"printf '{_cron_line(calendar)} root /sbin/fstrim --all --verbose\\n' > /etc/cron.d/fstrim",
               f"# then remove the fstrim call from {schedule.source}")
        verify = ("cat /etc/cron.d/fstrim",)
    else:
        fix = (f"# edit {schedule.source} so fstrim runs outside '{ctx.peak.text}'",)
    yield Finding("TRIM-PEAK", WARN, ctx.mountpoint, title,
                  (Evidence("next trim", schedule.next_run.isoformat(timespec="minutes"), schedule.source),
                   Evidence("random delay + accuracy", f"{int(window.total_seconds() // 60)} min",
                            schedule.source),
                   Evidence("peak window", ctx.peak.text, "--peak")),
                  "A long trim can stall I/O while it runs.", fix,
                  "Moving the trim later leaves freed space untrimmed a little longer; harmless.", verify)


def _cron_line(calendar: str) -> str:
    """The crontab time fields for one of OFF_PEAK_CANDIDATES ('Sun *-*-* 03:00' -> '0 3 * * 0')."""
    spec = parse_on_calendar(calendar)
    weekday = "*" if spec.weekdays is None else ",".join(str((d + 1) % 7) for d in sorted(spec.weekdays))
    return f"{spec.minutes[0]} {spec.hours[0]} * * {weekday}"


@rule("TRIM-TWICE", scope=Scope.TRIM, severity=INFO,
      checks="both fstrim.timer and a cron job trim the filesystem", sources=("fstrim(8)",))
def trimmed_twice(ctx: TrimContext) -> Iterator[Finding]:
    """TRIM-TWICE: both the timer and a cron job trim this filesystem."""
    if ctx.schedule.kind != "fstrim.timer":
        return
    crons = [c for c in ctx.facts.crons if c.runs and cron_covers(c, ctx.facts, ctx.mountpoint)]
    if crons:
        yield Finding("TRIM-TWICE", INFO, ctx.mountpoint,
                      f"{ctx.mountpoint} is trimmed by fstrim.timer and by cron ({crons[0].source})",
                      (_timer_evidence(ctx), Evidence("cron job", crons[0].command, crons[0].source)),
                      "The second run costs I/O and gains nothing.",
                      (f"# remove the fstrim line from {crons[0].source}, or: systemctl disable --now "
                       "fstrim.timer",), None, ())


@rule("TRIM-MD-RAID0-SLOW", scope=Scope.TRIM, severity=INFO,
      checks="an md raid0 under the filesystem on a kernel before 4.12 (per-chunk discards)",
      sources=("linux commit 29efc390b946", "scylladb/scylladb#2649"))
def old_raid0(ctx: TrimContext) -> Iterator[Finding]:
    """TRIM-MD-RAID0-SLOW: kernels before 4.12 split raid0 discards per chunk."""
    version = kernel_version(ctx.facts.kernel)
    if version is None or version >= RAID0_FAST_DISCARD or ctx.reach.verdict != "reaches":
        return
    for layer in ctx.reach.layers:
        if ctx.host.devices[layer.kname].md_level == "raid0":
            yield Finding("TRIM-MD-RAID0-SLOW", INFO, ctx.mountpoint,
                          f"{layer.name} is raid0 on kernel {ctx.facts.kernel}",
                          (_kernel_evidence(ctx), Evidence(f"md level of {layer.name}", "raid0",
                                                           f"/sys/block/{layer.kname}/md/level")),
                          "Before 4.12 raid0 splits each discard into chunk-sized pieces, so fstrim is slow "
                          "and CPU-heavy.",
                          ("# schedule fstrim off-peak (see --peak), or upgrade the kernel",), None, ())
            return


@rule("TRIM-LVM-MYTH", scope=Scope.TRIM, severity=INFO,
      checks="lvm.conf issue_discards=0 under an LV (explained: it never stops fstrim)",
      sources=("lvm2 lib/config/config_settings.h", "lvm2 lib/metadata/lv_manip.c"))
def lvm_myth(ctx: TrimContext) -> Iterator[Finding]:
    """TRIM-LVM-MYTH: explain issue_discards=0 so nobody blames it for fstrim doing nothing."""
    if not any(ctx.host.devices[layer.kname].kind == "lvm" for layer in ctx.reach.layers):
        return
    value = ctx.facts.issue_discards.value
    if value not in (None, "0"):
        return
    shown = f"issue_discards = {value}" if value is not None else "issue_discards unset (default 0)"
    yield Finding("TRIM-LVM-MYTH", INFO, ctx.mountpoint, f"lvm.conf has {shown}",
                  (Evidence("devices/issue_discards", value if value is not None else "unset (default 0)",
                            ctx.facts.issue_discards.source),),
                  "That is fine: it only makes LVM discard extents freed by lvremove, lvreduce and pvmove. "
                  "fstrim and the discard mount option pass through LVs regardless.", (), None, ())


def trim_findings(ctx: TrimContext) -> list[Finding]:
    """Every TRIM finding for one filesystem, most severe first (stable within a severity)."""
    return by_severity(run_rules(Scope.TRIM, ctx))
