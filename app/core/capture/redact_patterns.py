"""The patterns and small transforms capture --redact applies: where IDs, labels, user names and
addresses stand in a capture's files, which cron lines and kernel parameters are kept."""

from __future__ import annotations

import re

DOMAIN_STAND_IN = "domain.invalid"
MIN_LITERAL = 4
MIN_USERNAME = 3

CANONICAL_UUID = re.compile(
    r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")
MD_UUID = re.compile(r"\b[0-9a-fA-F]{8}:[0-9a-fA-F]{8}:[0-9a-fA-F]{8}:[0-9a-fA-F]{8}\b")
LVM_DM_UUID = re.compile(r"(LVM-)([A-Za-z0-9]{32})([A-Za-z0-9]{32})?")
CRYPT_DM_UUID = re.compile(r"(CRYPT-[A-Z0-9]+-)([0-9a-fA-F]{32})")
MPATH_DM_UUID = re.compile(r"(mpath-)([0-9A-Za-z_.:]+)")
KEY_VALUE_ID = re.compile(r"(\b(?:UUID|PARTUUID|PTUUID|UUID_SUB|LABEL_FATBOOT)=\"?)([^\s\",]+)")
JSON_ID = re.compile(
    r'("(?:uuid|ptuuid|partuuid|wwn|serial|uuid_sub|lv_uuid|vg_uuid|pv_uuid)":\s*")([^"]+)"')
UDEV_ID = re.compile(
    r"^(E:(?:ID_[A-Z_]*(?:UUID|SERIAL|WWN)[A-Z_]*|MD_UUID)=)(.*)$", re.MULTILINE)
"""DM_UUID is left to the dm patterns above: hashed whole, it lost its LVM-/CRYPT- prefix everywhere."""
LABELS = (re.compile(r"(\b(?:LABEL|PARTLABEL)=\"?)([^\s\",]+)"),
          re.compile(r'("(?:label|partlabel)":\s*")([^"]+)"'),
          re.compile(r"^(E:ID_(?:FS_LABEL|FS_LABEL_ENC|PART_ENTRY_NAME)=)(.*)$", re.MULTILINE),
          re.compile(r"^(S:disk/by-(?:part)?label/)(.*)$", re.MULTILINE))
"""Where labels are found; they are then replaced wherever they stand as a word of their own."""
HOME_USER = re.compile(r"(/(?:home|Users)/)([^/\s\"',:;]+)")
CRONTAB_USER = re.compile(r"^var/spool/cron/(?:crontabs/|tabs/)?([^/]+)$")
IPV4 = re.compile(r"(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\w.])")
IPV6_CANDIDATE = re.compile(r"(?<![\w:.])(?=[0-9A-Fa-f:]*::|(?:[0-9A-Fa-f]{1,4}:){7})[0-9A-Fa-f:]{2,39}"
                            r"(?:%[\w.-]+)?(?![\w:])")
KEPT_ADDRESSES = {"0.0.0.0", "127.0.0.1", "::", "::1", "255.255.255.255"}
CRON_FILES = re.compile(r"(^|/)(etc/crontab|etc/anacrontab|etc/cron\.[a-z]+/[^/]+|var/spool/cron/.+)$")
CRON_KEEP = re.compile(r"\bfstrim\b|\brun-parts\b|^#!")
CRON_DROPPED = "# [other lines removed by diskdoctor capture --redact]"
SERIAL_FILES = ("serial", "wwid", "vpd_pg80")
ATA_IDENTIFY = re.compile(r"(^|/)ata_device/[^/]+/id$")
IDENTIFY_WORDS = 256
IDENTIFY_SERIAL_WORDS = (*range(10, 20), *range(108, 112))
"""IDENTIFY DEVICE words 10-19 (serial number) and 108-111 (world wide name)."""
CMDLINE_FILE = "proc/cmdline"
CMDLINE_KEPT = frozenset("""
root resume BOOT_IMAGE ro rw quiet splash rootwait rootfstype rootflags elevator scsi_mod.use_blk_mq
dm_mod.use_blk_mq nvme_core.default_ps_max_latency_us nvme_core.io_timeout nvme_core.multipath
nvme.poll_queues libata.force libata.noacpi rd.luks.options luks.options rd.luks.allow-discards rd.luks
rd.lvm rd.md rd.dm transparent_hugepage mitigations numa iommu intel_iommu amd_iommu console
systemd.unified_cgroup_hierarchy
""".split())  # noqa: SIM905
"""Kernel parameters whose values are storage settings, kept (the other rules still replace a UUID or a
customer path in them); every other value that is not a plain number is replaced."""
PARAMETER_NAME = re.compile(r"[A-Za-z0-9_.-]+")
COMMON_ACCOUNTS = frozenset("""
ubuntu debian admin user centos fedora ec2-user vagrant core cloud-user azureuser opc rocky almalinux
alarm root nobody
""".split())  # noqa: SIM905
"""Default account names that say nothing about a customer; replaced in /home paths, not as words."""
SYSTEM_TREES = ("sys/", "proc/", "dev/")
GENERIC_WORDS = frozenset("""
root boot home data swap efi esp var tmp usr opt srv log logs backup system recovery rootfs
cloudimg-rootfs uefi bios disk part loop crypt lvm dm md raid linear mpath rom none yes no on off
true false
""".split())  # noqa: SIM905
"""Labels and user names that are common words: kept (replacing them as words would rewrite the
stack's own vocabulary, and they name no customer)."""


def id_rule(key: str) -> str:
    """Which rule an ID found after `key` (UUID=, "serial": , E:ID_SERIAL=) belongs to."""
    return "serial" if any(word in key.lower() for word in ("serial", "wwn")) else "uuid"


def keep_fstrim_lines(text: str) -> str:
    """A crontab or cron script reduced to its fstrim and run-parts lines (a crontab can hold secrets)."""
    kept = [line for line in text.splitlines() if CRON_KEEP.search(line)]
    dropped = len(text.splitlines()) - len(kept)
    return "\n".join(kept + ([CRON_DROPPED] if dropped else [])) + "\n"


def blank_identify_serials(text: str) -> str:
    """ATA IDENTIFY data (sysfs ata_device `id`, 256 hex words) with the serial number and WWN words
    zeroed: they are stored byte-swapped there, where no literal replacement would find them."""
    words = text.split()
    if len(words) < IDENTIFY_WORDS:
        return text
    for index in IDENTIFY_SERIAL_WORDS:
        words[index] = "0000"
    return "".join(" ".join(words[i:i + 8]) + "\n" for i in range(0, len(words), 8))


def passwd_users(text: str) -> list[str]:
    """People's account names in passwd text (uid 1000 and up, not nobody)."""
    names = []
    for line in text.splitlines():
        fields = line.split(":")
        if len(fields) >= 3 and fields[2].isdigit() and 1000 <= int(fields[2]) < 65534:
            names.append(fields[0])
    return names
