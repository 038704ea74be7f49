"""What a drive itself says about its volatile write cache (beside the kernel's queue/write_cache view):
ATA IDENTIFY and the SCSI disk's cache_type in sysfs, `hdparm -W`, NVMe `id-ctrl` VWC and feature 6."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .blockdev import BlockDevice
from .facts import Fact
from .root import Root

ATA_PORT = re.compile(r"/ata(\d+)/")
NVME_NAMESPACE = re.compile(r"(nvme\d+)n\d+")
HDPARM_WCACHE = re.compile(r"write-caching\s*=\s*(\d)")
NVME_FEATURE_VALUE = re.compile(r"Current value:\s*(?:0x)?([0-9a-fA-F]+)")
NVME_VWC = re.compile(r"^vwc\s*:\s*(?:0x)?([0-9a-fA-F]+)", re.MULTILINE)
IDENTIFY_WORDS = 256
HEX_WORD = re.compile(r"[0-9a-fA-F]{4}")
WORD_CMD_SET_ENABLED = 85
"""IDENTIFY DEVICE word 85 (ATA8-ACS): command and feature sets enabled; bit 5 is the write cache."""
WRITE_CACHE_BIT = 1 << 5
WRITE_THROUGH = "write through"


@dataclass(frozen=True, slots=True)
class CacheReport:
    """One source's answer to "is the drive's own write cache on?" (`enabled` None when it could not say)."""

    what: str
    enabled: Fact[bool]


def cache_commands(kname: str, device: BlockDevice) -> dict[str, list[str]]:
    """The read-only commands that ask a whole disk about its cache, by capture key: `hdparm -W` for ATA
    disks, `nvme id-ctrl` and `nvme get-feature -f 6` for NVMe namespaces."""
    if device.kind != "disk":
        return {}
    if ATA_PORT.search("/" + device.sys_dir):
        return {f"hdparm-W-{kname}": ["hdparm", "-W", f"/dev/{kname}"]}
    match = NVME_NAMESPACE.fullmatch(kname)
    if match:
        return {f"nvme-id-ctrl-{match.group(1)}": ["nvme", "id-ctrl", f"/dev/{match.group(1)}"],
                f"nvme-get-feature-6-{kname}": ["nvme", "get-feature", "-f", "6", f"/dev/{kname}"]}
    return {}


def parse_identify_cache(text: str) -> bool | None:
    """Whether IDENTIFY data (sysfs ata_device `id`: 256 words in hex) says the write cache is enabled."""
    words = text.split()
    if len(words) < IDENTIFY_WORDS or not all(HEX_WORD.fullmatch(w) for w in words[:IDENTIFY_WORDS]):
        return None
    return bool(int(words[WORD_CMD_SET_ENABLED], 16) & WRITE_CACHE_BIT)


def parse_hdparm_cache(text: str) -> bool | None:
    """`hdparm -W /dev/sdX`: " write-caching =  1 (on)"."""
    match = HDPARM_WCACHE.search(text)
    return None if match is None else match.group(1) == "1"


def parse_nvme_feature(text: str) -> bool | None:
    """`nvme get-feature -f 6`: "get-feature:0x06 (Volatile Write Cache), Current value:0x00000001"
    (bit 0: enabled)."""
    match = NVME_FEATURE_VALUE.search(text)
    return None if match is None else bool(int(match.group(1), 16) & 1)


def parse_nvme_vwc(text: str) -> bool | None:
    """`nvme id-ctrl`: "vwc : 0x7"; bit 0 says a volatile write cache is present (and on unless switched
    off with feature 6)."""
    match = NVME_VWC.search(text)
    return None if match is None else bool(int(match.group(1), 16) & 1)


def _command(root: Root, key: str, argv: list[str], parse: object) -> Fact[bool]:
    output = root.run(key, argv)
    if output.text is None:
        return Fact(None, output.source, output.why_unknown)
    value = parse(output.text)  # type: ignore[operator]
    return Fact(value, output.source, None if value is not None else "no cache state in its output")


def _sysfs_reports(root: Root, device: BlockDevice) -> list[CacheReport]:
    reports = []
    scsi_disks = root.listdir(f"{device.sys_dir}/device/scsi_disk") or []
    for name in sorted(scsi_disks)[:1]:
        path = f"{device.sys_dir}/device/scsi_disk/{name}/cache_type"
        mode = root.fact_str(path)
        enabled = None if mode.value is None else mode.value.startswith("write back")
        reports.append(CacheReport("SCSI cache_type (the drive's WCE bit)",
                                   Fact(enabled, mode.source, mode.why_unknown)))
    port = ATA_PORT.search("/" + device.sys_dir)
    if port is not None:
        path = f"sys/class/ata_device/dev{port.group(1)}.0/id"
        text, why = root.read_text_resolved(path)
        value = None if text is None else parse_identify_cache(text)
        reports.append(CacheReport("ATA IDENTIFY word 85 (write cache enabled)",
                                   Fact(value, f"/{path}", why or (None if value is not None else
                                                                   "not 256 IDENTIFY words"))))
    return reports


def read_cache_reports(root: Root, device: BlockDevice) -> list[CacheReport]:
    """Every source's answer for one whole disk whose queue says write through (others are not asked)."""
    if device.kind != "disk":
        return []
    mode = root.fact_str(f"{device.queue_dir}/queue/write_cache")
    if mode.value != WRITE_THROUGH:
        return []
    reports = _sysfs_reports(root, device)
    parsers = {"hdparm-W": ("hdparm -W (the drive's write-caching)", parse_hdparm_cache),
               "nvme-id-ctrl": ("NVMe id-ctrl VWC (volatile write cache present)", parse_nvme_vwc),
               "nvme-get-feature-6": ("NVMe feature 6 (volatile write cache enabled)", parse_nvme_feature)}
    for key, argv in cache_commands(device.kname, device).items():
        what, parse = next(v for k, v in parsers.items() if key.startswith(k))
        reports.append(CacheReport(what, _command(root, key, argv, parse)))
    return reports


def device_says_cache_on(reports: list[CacheReport]) -> CacheReport | None:
    """The report that decides: the live drive (hdparm, NVMe feature 6) before what was read at probe time
    (IDENTIFY, cache_type, id-ctrl); the first that could tell, when it says the cache is on."""
    order = ("hdparm", "NVMe feature 6", "ATA IDENTIFY", "SCSI cache_type", "NVMe id-ctrl")
    known = [r for r in reports if r.enabled.value is not None]
    known.sort(key=lambda r: next((i for i, p in enumerate(order) if r.what.startswith(p)), len(order)))
    return known[0] if known and known[0].enabled.value else None
