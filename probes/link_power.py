"""SATA link speeds (negotiated vs what the port allows), SATA link power management (ALPM) and the NVMe
APST latency limit."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .blockdev import BlockDevice
from .facts import Fact
from .root import Root

ATA_PORT = re.compile(r"/ata(\d+)/")
SCSI_HOST = re.compile(r"/host(\d+)/")
ALPM_POLICY = "sys/class/scsi_host/host{}/link_power_management_policy"
ATA_LINKS = "sys/class/ata_link"
ATA_DEVICES = "sys/class/ata_device"
APST_PARAM = "sys/module/nvme_core/parameters/default_ps_max_latency_us"
SPEED = re.compile(r"(\d+(?:\.\d+)?)\s*Gbps")


@dataclass(frozen=True, slots=True)
class SataLink:
    """One disk's SATA link: the negotiated speed, the port/drive limit, and libata's speed-downs."""

    link: str
    speed: Fact[str]
    hw_limit: Fact[str]
    speed_downs: Fact[int]


def gbps(text: str | None) -> float | None:
    """'6.0 Gbps' -> 6.0; '<unknown>' (link down) -> None."""
    match = SPEED.search(text or "")
    return float(match.group(1)) if match else None


def read_sata_link(root: Root, device: BlockDevice) -> SataLink | None:
    """The libata link a whole disk hangs off (port N -> linkN, devN.0), or None when not on ATA."""
    match = ATA_PORT.search("/" + device.sys_dir)
    if match is None or device.kind != "disk":
        return None
    port = match.group(1)
    link = f"link{port}"
    devices = [name for name in (root.listdir(ATA_DEVICES) or []) if name.startswith(f"dev{port}.")]
    downs = root.fact_int(f"{ATA_DEVICES}/{devices[0]}/spdn_cnt") if devices else \
        Fact(None, f"/{ATA_DEVICES}/dev{port}.0/spdn_cnt", "no ata_device entry for this port")
    return SataLink(link, root.fact_str(f"{ATA_LINKS}/{link}/sata_spd"),
                    root.fact_str(f"{ATA_LINKS}/{link}/hw_sata_spd_limit"), downs)


@dataclass(frozen=True, slots=True)
class LinkPower:
    """The ALPM policy of the SCSI host (AHCI port) a SATA disk hangs off."""

    host: str
    policy: Fact[str]


def read_link_power(root: Root, device: BlockDevice) -> LinkPower | None:
    """`link_power_management_policy` of a whole ATA disk's scsi_host, or None when not on ATA."""
    path = "/" + device.sys_dir
    host = SCSI_HOST.search(path)
    if device.kind != "disk" or ATA_PORT.search(path) is None or host is None:
        return None
    return LinkPower(f"host{host.group(1)}", root.fact_str(ALPM_POLICY.format(host.group(1))))


def read_apst_limit(root: Root) -> Fact[int]:
    """nvme_core's default_ps_max_latency_us: 0 disables APST, >0 lets drives enter deep power states."""
    return root.fact_int(APST_PARAM)
