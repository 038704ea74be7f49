"""The TRIM doctor: one verdict per mounted filesystem, with the pieces behind it and the fixes."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from diskdoctor.probes.discard_path import DiscardReach, why_layer_blocks
from diskdoctor.probes.host import Host
from diskdoctor.probes.mountinfo import MOUNTINFO
from diskdoctor.probes.thin_path import ThinPoolLayer
from diskdoctor.probes.trim_facts import TrimFacts

from ..findings.finding import Finding
from ..findings.vocabulary import TrimOutcome
from .discard_mode import DiscardMode, discard_mode
from .peak_window import PeakWindow
from .rules import TrimContext, blocking_thin_pools, trim_findings
from .schedule import Schedule, describe_schedule, fstab_entry, schedule_for
from .summary import mount_trims

VERDICTS = tuple(TrimOutcome)


@dataclass(frozen=True)
class TrimVerdict:
    """The TRIM verdict for one mounted filesystem and everything it rests on."""

    mountpoint: str
    source: str
    fstype: str
    kname: str
    verdict: TrimOutcome
    blocked_at: str | None
    reach: DiscardReach
    mode: DiscardMode
    schedule: Schedule
    findings: list[Finding]
    summary: str
    blocked_kname: str | None = None
    """The kernel name of the layer that stops discard (a thin pool's -tpool layer for a pool)."""


def _verdict(reach: DiscardReach, mode: DiscardMode, schedule: Schedule) -> TrimOutcome:
    if reach.verdict == "blocked":
        return TrimOutcome.BLOCKED
    if reach.verdict in ("unsupported", "unknown"):
        return TrimOutcome(reach.verdict)
    return TrimOutcome.OK if mode.mode != "off" or schedule.kind != "none" else TrimOutcome.UNSCHEDULED


POOL_EFFECT = {
    "ignore": "the pool drops every discard: fstrim frees nothing in the pool, which never shrinks, and "
              "nothing reaches the disks",
    "nopassdown": "fstrim frees space in the pool, but the discards stop there and do not reach the disks",
}


def _summary(verdict: str, reach: DiscardReach, mode: DiscardMode, schedule: Schedule,
             now: dt.datetime, blocked_name: str | None, host: Host,
             pool: ThinPoolLayer | None = None) -> str:
    if verdict == "blocked" and pool is not None:
        return f"BLOCKED at thin pool {pool.pool} (discards={pool.mode}): {POOL_EFFECT[pool.mode or '']}"
    if verdict == "blocked":
        device = host.devices[reach.blocked_at] if reach.blocked_at else None
        reason = why_layer_blocks(device.kind, device.md_level) if device else "drops discard"
        return f"BLOCKED at {blocked_name} ({reason}): fstrim does nothing for this filesystem"
    if verdict == "unsupported":
        return f"UNSUPPORTED: {reach.summary.split(': ', 1)[-1]}; trimming cannot help here"
    if verdict == "unknown":
        return f"UNKNOWN: {reach.summary.split(': ', 1)[-1]}"
    how = []
    if mode.mode != "off":
        how.append(f"trimmed on delete by mount option {mode.option} ({mode.mode})")
    if schedule.kind != "none":
        how.append(describe_schedule(schedule, now))
    if verdict == "unscheduled":
        return f"UNSCHEDULED: {reach.summary}; nothing trims it (no timer, no cron job, no discard " \
               "mount option)"
    return f"OK: {reach.summary}; " + "; ".join(how)


def blocking_pool(reach: DiscardReach, pools: list[ThinPoolLayer]) -> ThinPoolLayer | None:
    """The thin pool that stops discard first, unless a layer above it (dm-crypt...) already does."""
    if not pools or reach.verdict in ("unsupported", "unknown"):
        return None
    pool = pools[0]
    if reach.verdict == "blocked" and reach.blocked_at not in (pool.kname, *pool.thin_knames):
        order = [layer.kname for layer in reach.layers]
        if order.index(reach.blocked_at or "") < order.index(pool.kname):
            return None
    return pool


def diagnose(host: Host, facts: TrimFacts, peak: PeakWindow | None = None) -> list[TrimVerdict]:
    """A verdict for every mounted filesystem on a block device."""
    mounts = {mounted.mount.mountpoint: mounted.mount for mounted in host.block_mounts()}
    verdicts = []
    for trim in mount_trims(host):
        mount = mounts[trim.mountpoint]
        mode = discard_mode(mount.fstype, mount.options, fstab_entry(facts, trim.mountpoint),
                            facts.kernel, f"/{MOUNTINFO} ({trim.mountpoint})")
        schedule = schedule_for(facts, trim.mountpoint)
        verdict = _verdict(trim.reach, mode, schedule)
        blocked_at = trim.reach.blocked_at if verdict == "blocked" else None
        blocked_name = host.devices[blocked_at].name if blocked_at else None
        pool = blocking_pool(trim.reach, blocking_thin_pools(host, facts, trim.reach))
        if pool is not None:
            verdict, blocked_name, blocked_at = TrimOutcome.BLOCKED, pool.pool, pool.kname
        context = TrimContext(host, facts, trim.mountpoint, mount.fstype, trim.kname, trim.reach, mode,
                              schedule, peak)
        verdicts.append(TrimVerdict(
            trim.mountpoint, mount.source, mount.fstype, trim.kname, verdict, blocked_name, trim.reach,
            mode, schedule, trim_findings(context),
            _summary(verdict, trim.reach, mode, schedule, facts.clock.now, blocked_name, host, pool),
            blocked_at or trim.reach.blocked_at))
    return verdicts


def layer_marker(verdict: TrimVerdict, kname: str) -> str | None:
    """'blocks discard' on the first blocking layer, 'no discard support' at an unsupported bottom."""
    if kname != verdict.blocked_kname:
        return None
    return "blocks discard" if verdict.verdict == "blocked" else "no discard support"


def _iso(moment: dt.datetime | None) -> str | None:
    return moment.isoformat(timespec="seconds") if moment else None


def verdict_json(verdict: TrimVerdict) -> dict[str, object]:
    """One filesystem in the stable `diskdoctor trim --json` shape (docs/schemas/trim.schema.json)."""
    schedule = verdict.schedule
    return {
        "mountpoint": verdict.mountpoint, "source": verdict.source, "fstype": verdict.fstype,
        "verdict": verdict.verdict.value, "blocked_at": verdict.blocked_at, "summary": verdict.summary,
        "layers": [{"kname": layer.kname, "name": layer.name, "type": layer.kind,
                    "discard_max_bytes": layer.discard_max_bytes,
                    "discard_granularity": layer.discard_granularity, "source": layer.source}
                   for layer in verdict.reach.layers],
        "discard_mode": verdict.mode.mode, "discard_option": verdict.mode.option,
        "discard_mode_automatic": verdict.mode.automatic,
        "schedule": {"kind": schedule.kind, "enabled": schedule.enabled, "calendar": schedule.calendar,
                     "randomized_delay_s": schedule.random_delay.total_seconds(),
                     "last_run": _iso(schedule.last_run), "last_run_note": schedule.last_run_note,
                     "next_run": _iso(schedule.next_run), "source": schedule.source,
                     "why": schedule.covers_reason},
        "problems": [{**finding.to_json(), "text": finding.text} for finding in verdict.findings],
    }


def trim_document(verdicts: list[TrimVerdict], facts: TrimFacts,
                  peak: PeakWindow | None) -> dict[str, object]:
    """The whole `diskdoctor trim --json` document."""
    timer = facts.timer
    return {
        "now": _iso(facts.clock.now), "time_zone": facts.clock.zone_name,
        "peak_window": peak.text if peak else None,
        "timer": {"state": timer.state, "source": timer.state_source, "read_via": timer.read_via,
                  "systemd_running": timer.systemd_running, "calendar": list(timer.calendars),
                  "randomized_delay_s": timer.randomized_delay_s, "persistent": timer.persistent,
                  "dropins": list(timer.dropins), "service_scope": timer.service_scope,
                  "service_commands": list(timer.service_commands)},
        "cron": [{"source": c.source, "command": c.command, "calendar": c.calendar, "runs": c.runs,
                  "why_not": c.why_not} for c in facts.crons],
        "filesystems": [verdict_json(v) for v in verdicts],
    }
