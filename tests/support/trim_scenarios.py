"""Hosts for the TRIM doctor: the etcd stack and simple SSD hosts with every trim-scheduling variant."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from support.fixture_scenarios import GIB, LUKS_UUID, LVM_VG_UUID
from support.sysfs_builder import SysrootBuilder

CAPTURED_AT = "2026-11-19T15:00:00+00:00"
"""A Thursday: the weekly timer's next run is Mon 2026-11-23 00:00 + up to 100 min."""
ETCD_FSTAB = ("UUID=7e6d5c4b-3a29-4817-8695-a4b3c2d1e0f9 / ext4 errors=remount-ro 0 1\n"
              "/dev/mapper/luks-etcd /var/lib/etcd xfs noatime 0 2\n")


EXEC_START = ("{ path=/sbin/fstrim ; argv[]=/sbin/fstrim --listed-in /etc/fstab:/proc/self/mountinfo "
              "--verbose --quiet-unsupported ; ignore_errors=no ; start_time=[Mon 2026-11-16 00:41:07 UTC] ; "
              "stop_time=[Mon 2026-11-16 00:41:09 UTC] ; pid=123456 ; code=exited ; status=0 }")


def systemctl_show(*, unit_file_state: str = "enabled", load_state: str = "loaded",
                   last: str = "Mon 2026-11-16 00:41:07 UTC",
                   next_elapse: str = "Mon 2026-11-23 01:12:44 UTC",
                   calendar: str = "weekly", delay: str = "1h 40min", dropins: str = "") -> str:
    """`systemctl show fstrim.timer fstrim.service` as systemd 252 prints it (what we read, and more)."""
    return f"""Unit=fstrim.service
TimersCalendar={{ OnCalendar={calendar} ; next_elapse={next_elapse} }}
OnClockChange=no
OnTimezoneChange=no
NextElapseUSecRealtime={next_elapse}
NextElapseUSecMonotonic=0
LastTriggerUSec={last}
LastTriggerUSecMonotonic=0
Result=success
AccuracyUSec=1h
RandomizedDelayUSec={delay}
FixedRandomDelay=no
Persistent=yes
WakeSystem=no
RemainAfterElapse=yes
Id=fstrim.timer
Names=fstrim.timer
Description=Discard unused blocks once a week
LoadState={load_state}
ActiveState=active
SubState=waiting
FragmentPath=/lib/systemd/system/fstrim.timer
DropInPaths={dropins}
UnitFileState={unit_file_state}
UnitFilePreset=enabled

Type=oneshot
ExecStart={EXEC_START}
Id=fstrim.service
LoadState=loaded
ActiveState=inactive
Result=success
"""


def etcd_stack(b: SysrootBuilder, *, crypt_discard: bool) -> None:
    """NVMe partitions -> md raid0 -> LVM -> LUKS2 -> xfs on /var/lib/etcd (as the committed fixture)."""
    for index in (0, 1):
        b.nvme(f"nvme{index}n1", f"259:{index * 3}", 1920 * GIB, pci=f"0000:0{index + 4}:00.0",
               ctrl=f"nvme{index}", model="SAMSUNG MZQL21T9HCJR-00A07", serial=f"S64GNE0R90051{index}")
        b.partition(f"nvme{index}n1", 1, f"259:{index * 3 + 1}", 2048, 1900 * GIB)
    b.partition("nvme0n1", 2, "259:2", 3984588800, 16 * GIB)
    b.md("md0", "9:0", 3800 * GIB, level="raid0", members=["nvme0n1p1", "nvme1n1p1"])
    b.dm("dm-0", "253:0", 200 * GIB, name="vg0-etcd",
         uuid=f"LVM-{LVM_VG_UUID}Zq1Wx2Ec3Rv4Tb5Yn6Um7Ik8Ol9Pa0Sd1", lowers=["md0"])
    b.dm("dm-1", "253:1", 199 * GIB, name="luks-etcd", uuid=f"CRYPT-LUKS2-{LUKS_UUID}-luks-etcd",
         lowers=["dm-0"], discard=crypt_discard)
    b.mount("253:1", "/var/lib/etcd", "xfs", "/dev/mapper/luks-etcd", "rw,noatime", "rw,attr2,inode64")
    b.mount("259:2", "/", "ext4", "/dev/nvme0n1p2", "rw,relatime", "rw")
    b.etc("fstab", ETCD_FSTAB)
    options = "luks,discard" if crypt_discard else "luks"
    b.etc("crypttab", f"luks-etcd UUID=3f9c2a41-7b8e-4d06-a5c1-e2f3d4b5a697 none {options}\n")
    flags = " 1 allow_discards" if crypt_discard else ""
    b.command_output("dmsetup-table", "vg0-etcd: 0 419430400 linear 9:0 2048\n"
                     f"luks-etcd: 0 417298432 crypt aes-xts-plain64 :64:logon:cryptsetup:{LUKS_UUID}"
                     f"-d0 0 253:0 32768{flags}\n")
    b.etc("lvm/lvm.conf", "devices {\n\t# issue_discards = 0\n\tissue_discards = 0\n}\n")


def systemd_host(b: SysrootBuilder, **show: str) -> None:
    """A systemd host captured with Debian 12's units and its `systemctl show` answer."""
    b.fstrim_units(enabled=show.get("unit_file_state", "enabled") == "enabled")
    b.systemd_booted()
    b.command_output("systemctl-show-fstrim", systemctl_show(**show))
    b.manifest(CAPTURED_AT)


def etcd_blocked(root: Path) -> Path:
    """The etcd stack with LUKS2 opened without allow_discards; the timer is enabled and ran 3 days ago."""
    b = SysrootBuilder(root, hostname="etcd-2")
    etcd_stack(b, crypt_discard=False)
    systemd_host(b)
    return b.finish()


def etcd_allowed(root: Path) -> Path:
    """The same stack with allow_discards: discard reaches both NVMe drives."""
    b = SysrootBuilder(root, hostname="etcd-3")
    etcd_stack(b, crypt_discard=True)
    systemd_host(b)
    return b.finish()


def ssd_host(root: Path, fstab: str | None = None, hostname: str = "ssd-1",
             ata_trim: str = "queued") -> SysrootBuilder:
    """One SATA SSD with / (ext4) and /data (xfs); the caller adds the trim setup."""
    b = SysrootBuilder(root, hostname=hostname)
    b.sata("sda", "8:0", 480 * GIB, port=1, model="Samsung SSD 860 EVO 500GB", ata_trim=ata_trim)
    b.partition("sda", 1, "8:1", 2048, 100 * GIB)
    b.partition("sda", 2, "8:2", 209717248, 300 * GIB)
    b.mount("8:1", "/", "ext4", "/dev/sda1", "rw,relatime", "rw")
    b.mount("8:2", "/data", "xfs", "/dev/sda2", "rw,noatime", "rw,attr2,inode64")
    b.etc("fstab", fstab if fstab is not None else "/dev/sda1 / ext4 defaults 0 1\n"
                                                   "/dev/sda2 /data xfs noatime 0 2\n")
    return b


def unqueued_continuous(root: Path) -> Path:
    """An SSD that only does unqueued TRIM, with /data mounted -o discard and the timer enabled."""
    b = ssd_host(root, ata_trim="forced_unqueued")
    b.mountinfo[-1] = b.mountinfo[-1].replace("rw,noatime", "rw,noatime").replace(
        "rw,attr2,inode64", "rw,attr2,discard,inode64")
    systemd_host(b)
    return b.finish()


def timer_disabled(root: Path) -> Path:
    """Units installed (RHEL 7 style) but never enabled."""
    b = ssd_host(root)
    systemd_host(b, unit_file_state="disabled", last="n/a", next_elapse="n/a")
    return b.finish()


def timer_masked(root: Path) -> Path:
    """fstrim.timer masked: a link to /dev/null in /etc/systemd/system."""
    b = ssd_host(root)
    b.fstrim_units(enabled=False)
    b.absolute_link("etc/systemd/system/fstrim.timer", "/dev/null")
    b.systemd_booted()
    b.command_output("systemctl-show-fstrim", systemctl_show(unit_file_state="masked", load_state="masked",
                                                             last="n/a", next_elapse="n/a"))
    b.manifest(CAPTURED_AT)
    return b.finish()


def timer_dropin(root: Path) -> Path:
    """An override moves the timer to weekdays 10:00, read from files (systemctl not captured)."""
    b = ssd_host(root)
    b.fstrim_units()
    b.systemd_booted()
    b._write("etc/systemd/system/fstrim.timer.d/override.conf",
             "[Timer]\nOnCalendar=\nOnCalendar=Mon..Fri 10:00\nRandomizedDelaySec=0\n")
    b.manifest(CAPTURED_AT)
    return b.finish()


def data_not_in_fstab(root: Path) -> Path:
    """/data is mounted by an orchestrator, not fstab: util-linux >= 2.36's service skips it."""
    b = ssd_host(root, fstab="/dev/sda1 / ext4 defaults 0 1\n")
    systemd_host(b)
    return b.finish()


def cron_weekly(root: Path, script_name: str = "fstrim") -> Path:
    """Ubuntu 14.10-16.04: no timer, /etc/cron.weekly/fstrim run by run-parts from /etc/crontab."""
    b = ssd_host(root, hostname="ubuntu-1604")
    b.etc("crontab", "SHELL=/bin/sh\n"
                     "17 *\t* * *\troot    cd / && run-parts --report /etc/cron.hourly\n"
                     "47 6\t* * 7\troot\ttest -x /usr/sbin/anacron || ( cd / && run-parts --report "
                     "/etc/cron.weekly )\n")
    b._write("usr/sbin/cron", "")
    os.chmod(root / "usr/sbin/cron", 0o755)
    b.etc(f"cron.weekly/{script_name}", "#!/bin/sh\n# trim all mounted file systems which support it\n"
                                        "/sbin/fstrim --all || true\n", mode=0o755)
    b.manifest(CAPTURED_AT)
    return b.finish()


def container(root: Path) -> Path:
    """A container image: the timer link exists (from the package) but systemd is not PID 1."""
    b = ssd_host(root)
    b.fstrim_units()
    b.manifest(CAPTURED_AT)
    return b.finish()


def stamp_only(root: Path, days_ago: float = 3.0) -> Path:
    """systemd host without the systemctl answer: last run comes from the timer stamp's mtime."""
    b = ssd_host(root)
    b.fstrim_units()
    b.systemd_booted()
    b.manifest(CAPTURED_AT)
    b._write("var/lib/systemd/timers/stamp-fstrim.timer", "")
    stamp = dt.datetime.fromisoformat(CAPTURED_AT) - dt.timedelta(days=days_ago)
    os.utime(root / "var/lib/systemd/timers/stamp-fstrim.timer", (stamp.timestamp(), stamp.timestamp()))
    return b.finish()


def thin_pool(root: Path, discards: str = "ignore") -> Path:
    """One VG on sdb: a thin pool (vg1/pool, `discards`) with thin LV vg1-thin1 (ext4 on /srv) beside
    plain linear LVs: vg1-data (ext4 on /data) and vg1-secret under LUKS2 without allow_discards
    (xfs on /secret), as issue 10 saw on a real kernel."""
    b = SysrootBuilder(root, hostname="thin-1")
    b.sata("sdb", "8:16", 960 * GIB, port=2, model="INTEL SSDSC2KB960G8")
    vg = "Tp0Lx9Ab8Cd7Ef6Gh5Ij4Kl3Mn2Op1Qr"
    b.dm("dm-0", "253:0", 1 * GIB, name="vg1-pool_tmeta",
         uuid=f"LVM-{vg}Me7aMe7aMe7aMe7aMe7aMe7aMe7aMe7a-tmeta", lowers=["sdb"])
    b.dm("dm-1", "253:1", 600 * GIB, name="vg1-pool_tdata",
         uuid=f"LVM-{vg}Da7aDa7aDa7aDa7aDa7aDa7aDa7aDa7a-tdata", lowers=["sdb"])
    passes = discards != "ignore"
    b.dm("dm-2", "253:2", 600 * GIB, name="vg1-pool-tpool",
         uuid=f"LVM-{vg}Po0lPo0lPo0lPo0lPo0lPo0lPo0lPo0l-tpool", lowers=["dm-0", "dm-1"], discard=passes)
    b.dm("dm-3", "253:3", 500 * GIB, name="vg1-thin1", uuid=f"LVM-{vg}Th1nTh1nTh1nTh1nTh1nTh1nTh1nTh1n",
         lowers=["dm-2"], discard=passes)
    b.dm("dm-4", "253:4", 100 * GIB, name="vg1-data", uuid=f"LVM-{vg}Da7aLvDa7aLvDa7aLvDa7aLvDa7aLvDa",
         lowers=["sdb"])
    b.dm("dm-5", "253:5", 100 * GIB, name="vg1-secret", uuid=f"LVM-{vg}Sec7Sec7Sec7Sec7Sec7Sec7Sec7Sec7",
         lowers=["sdb"])
    b.dm("dm-6", "253:6", 100 * GIB, name="luks-secret",
         uuid="CRYPT-LUKS2-5e3c7e1a0b2c4d5e8f9a0b1c2d3e4f5a-luks-secret", lowers=["dm-5"], discard=False)
    b.mount("253:3", "/srv", "ext4", "/dev/mapper/vg1-thin1", "rw,relatime", "rw")
    b.mount("253:4", "/data", "ext4", "/dev/mapper/vg1-data", "rw,relatime", "rw")
    b.mount("253:6", "/secret", "xfs", "/dev/mapper/luks-secret", "rw,relatime", "rw")
    b.etc("fstab", "/dev/mapper/vg1-thin1 /srv ext4 defaults 0 2\n"
          "/dev/mapper/vg1-data /data ext4 defaults 0 2\n/dev/mapper/luks-secret /secret xfs defaults 0 2\n")
    feature = {"ignore": " 1 ignore_discard", "nopassdown": " 1 no_discard_passdown"}.get(discards, " 0")
    b.command_output("dmsetup-table", f"luks-secret: 0 209715200 crypt aes-xts-plain64 "
                     ":64:logon:cryptsetup:5e3c7e1a-d0 0 253:5 32768\n"
                     "vg1-data: 0 209715200 linear 8:16 1258293248\n"
                     "vg1-pool_tdata: 0 1258291200 linear 8:16 2099200\n"
                     "vg1-pool_tmeta: 0 2097152 linear 8:16 2048\n"
                     f"vg1-pool-tpool: 0 1258291200 thin-pool 253:0 253:1 128 0{feature}\n"
                     "vg1-secret: 0 209715200 linear 8:16 1468008448\n"
                     "vg1-thin1: 0 1048576000 thin 253:2 1\n")
    b.command_output("lvs", '{"report": [{"lv": [{"lv_name": "data", "vg_name": "vg1", "lv_attr": '
                     '"-wi-ao----", "discards": ""}, {"lv_name": "pool", "vg_name": "vg1", "lv_attr": '
                     f'"twi-aotz--", "discards": "{discards}"}}, {{"lv_name": "secret", "vg_name": "vg1", '
                     '"lv_attr": "-wi-ao----", "discards": ""}, {"lv_name": "thin1", "vg_name": "vg1", '
                     '"lv_attr": "Vwi-aotz--", "discards": ""}]}]}\n')
    systemd_host(b)
    return b.finish()


TRIM_FIXTURES = {"etcd-trim-blocked": etcd_blocked, "ubuntu-cron-weekly": cron_weekly}
"""Trim scenarios committed under tests/fixtures for demos and replay (`--sysroot`)."""
