"""Everything besides the device stack that decides whether a filesystem gets trimmed, read once."""

from __future__ import annotations

from dataclasses import dataclass

from .ata_trim import read_ata_trim
from .cron_trims import CronTrim, cron_daemon, read_cron_trims
from .crypttab import CrypttabEntry, read_crypttab
from .dm_tables import DmFacts, read_dm_facts
from .facts import Fact
from .fstab import FstabEntry, read_fstab
from .fstrim_timer import TimerState, read_timer_state
from .host import Host
from .host_clock import HostClock, read_host_clock
from .lvm_conf import read_lvm_setting
from .root import Root

RAID456_PARAM = "sys/module/raid456/parameters/devices_handle_discard_safely"


@dataclass(frozen=True)
class TrimFacts:
    """Schedules, config files and tool output behind the TRIM verdicts, each with its source."""

    clock: HostClock
    timer: TimerState
    crons: list[CronTrim]
    fstab: list[FstabEntry] | None
    fstab_source: str
    crypttab: dict[str, CrypttabEntry]
    crypttab_source: str
    issue_discards: Fact[str]
    dm: DmFacts
    raid456_discard_safely: Fact[str]
    kernel: str | None
    ata_trim: dict[str, Fact[str]]
    cron_daemon: str | None
    """Path of the installed cron/anacron binary; None means cron jobs never run here."""


def read_trim_facts(root: Root, host: Host) -> TrimFacts:
    """Read the timer, cron, fstab, crypttab, lvm.conf, dmsetup/lvs and module parameters."""
    clock = read_host_clock(root)
    fstab, fstab_source = read_fstab(root)
    crypttab, crypttab_source = read_crypttab(root)
    has_dm = any(device.dm_uuid is not None for device in host.devices.values())
    return TrimFacts(
        clock=clock, timer=read_timer_state(root, clock), crons=read_cron_trims(root),
        fstab=fstab, fstab_source=fstab_source, crypttab=crypttab, crypttab_source=crypttab_source,
        issue_discards=read_lvm_setting(root, "devices/issue_discards"),
        dm=read_dm_facts(root, has_dm=has_dm),
        raid456_discard_safely=root.fact_str(RAID456_PARAM), kernel=host.kernel,
        ata_trim=read_ata_trim(root, host), cron_daemon=cron_daemon(root),
    )
