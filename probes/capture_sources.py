"""What a capture bundle must hold: every path the probes read plus the TRIM, LVM and cron files."""

from __future__ import annotations

import glob
import os

from .advice_facts import read_advice_facts, tool_commands
from .commands import READ_ONLY_COMMANDS
from .discard_path import discard_reach
from .fs_usage import usage_figures
from .host import Host, read_host
from .kernel_log import KEY as DMESG_KEY
from .kernel_log import nvme_lines
from .layer_details import read_layer_details
from .root import Root
from .trim_facts import read_trim_facts

FIXED_FILES = (
    "proc/self/mountinfo", "proc/mounts", "proc/swaps", "proc/mdstat", "proc/diskstats", "proc/cmdline",
    "proc/version", "proc/sys/kernel/hostname", "proc/sys/kernel/osrelease",
    "etc/fstab", "etc/crypttab", "etc/lvm/lvm.conf", "etc/os-release", "etc/redhat-release",
    "etc/crontab", "var/lib/systemd/timers/stamp-fstrim.timer",
    "sys/module/raid456/parameters/devices_handle_discard_safely",
    "sys/module/raid0/parameters/devices_discard_performance",
    "sys/module/nvme_core/parameters/default_ps_max_latency_us",
)
UNIT_DIRS = ("lib/systemd/system", "usr/lib/systemd/system", "etc/systemd/system",
             "run/systemd/system")
UNIT_NAMES = ("fstrim.timer", "fstrim.service")
UNIT_LINKS = ("etc/systemd/system/timers.target.wants/fstrim.timer",)
CRON_GLOBS = ("etc/cron.daily/*", "etc/cron.weekly/*", "etc/cron.monthly/*", "etc/cron.d/*",
              "var/spool/cron/crontabs/*", "var/spool/cron/*")
SYS_GLOBS = ("sys/class/block/*/stat", "sys/class/ata_device/*/trim", "sys/class/ata_device/*/spdn_cnt",
             "sys/class/ata_device/*/id", "sys/class/ata_link/*/sata_spd",
             "sys/class/ata_link/*/hw_sata_spd_limit", "sys/class/scsi_host/*/link_power_management_policy")


def record_probe_reads(root: Root) -> Host:
    """Run every passive probe once on a recording root so its reads can be copied."""
    host = read_host(root)
    for kname in host.devices:
        read_layer_details(root, host, kname)
        discard_reach(host, kname)
    read_trim_facts(root, host)
    read_advice_facts(root, host)
    return host


def captured_commands(host: Host) -> dict[str, list[str]]:
    """Every read-only command a capture runs: the fixed ones and the advisor's per-device ones."""
    return {**READ_ONLY_COMMANDS, **tool_commands(host)}


def captured_text(key: str, text: str) -> str:
    """What a capture keeps of a command's output: all of it, except the kernel log (its NVMe lines only)."""
    return nvme_lines(text) if key == DMESG_KEY else text


def _mentions_fstrim(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            return b"fstrim" in handle.read(1 << 20)
    except OSError:
        return False


def extra_paths(root: Root) -> list[str]:
    """Fixed files, fstrim units and drop-ins, and cron files that call fstrim (relative paths)."""
    paths = list(FIXED_FILES) + list(UNIT_LINKS)
    for unit_dir in UNIT_DIRS:
        for name in UNIT_NAMES:
            paths.append(f"{unit_dir}/{name}")
            dropins = glob.glob(root.full(f"{unit_dir}/{name}.d/*.conf"))
            paths += [os.path.relpath(p, root.path) for p in dropins]
    for pattern in CRON_GLOBS:
        for path in glob.glob(root.full(pattern)):
            if os.path.isfile(path) and _mentions_fstrim(path):
                paths.append(os.path.relpath(path, root.path))
    for pattern in SYS_GLOBS:
        paths += [os.path.relpath(p, root.path) for p in glob.glob(root.full(pattern))]
    return sorted(set(paths))


def usage_of_block_mounts(host: Host) -> dict[str, dict[str, int]]:
    """statvfs figures for every filesystem on a block device, for replay from the capture."""
    figures = {}
    for mounted in host.block_mounts():
        result = usage_figures(mounted.mount.mountpoint)
        if isinstance(result, dict):
            figures[mounted.mount.mountpoint] = result
    return figures
