"""Classify block devices the way lsblk does and decode what device-mapper UUIDs mean."""

from __future__ import annotations

from dataclasses import dataclass

SCSI_TYPE_ROM = "5"


@dataclass(frozen=True, slots=True)
class DmMeaning:
    """What a device-mapper name/uuid pair says about its owner (LVM, cryptsetup, multipath...)."""

    owner: str
    summary: str
    vg_name: str | None = None
    lv_name: str | None = None
    lv_layer: str | None = None
    crypt_type: str | None = None


def lsblk_type_from_dm_uuid(dm_uuid: str | None) -> str:
    """lsblk's TYPE for a dm device: the UUID prefix lowercased ("part" for kpartx), else "dm"."""
    if not dm_uuid:
        return "dm"
    prefix = dm_uuid.split("-", 1)[0]
    if not prefix:
        return "dm"
    if prefix.startswith("part"):
        return "part"
    return prefix.lower()


def split_lvm_dm_name(dm_name: str) -> tuple[str, str, str | None]:
    """Split an LVM dm name "vg-lv[-layer]" where a literal "-" inside a name is doubled."""
    parts: list[str] = []
    current: list[str] = []
    i = 0
    while i < len(dm_name):
        char = dm_name[i]
        if char == "-" and dm_name[i + 1 : i + 2] == "-":
            current.append("-")
            i += 2
            continue
        if char == "-" and len(parts) < 2:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
        i += 1
    parts.append("".join(current))
    vg = parts[0]
    lv = parts[1] if len(parts) > 1 else ""
    layer = parts[2] if len(parts) > 2 else None
    return vg, lv, layer


def describe_dm(dm_name: str, dm_uuid: str | None) -> DmMeaning:
    """Decode a dm device's owner from its UUID prefix (lvm2, cryptsetup, multipath-tools)."""
    uuid = dm_uuid or ""
    if uuid.startswith("LVM-"):
        vg, lv, layer = split_lvm_dm_name(dm_name)
        suffix = f" ({layer} sub-volume)" if layer else ""
        return DmMeaning("lvm2", f"LVM logical volume {lv} in volume group {vg}{suffix}",
                         vg_name=vg, lv_name=lv, lv_layer=layer)
    if uuid.startswith("CRYPT-"):
        crypt_type = uuid.split("-")[1] if uuid.count("-") >= 1 else "unknown"
        label = {"LUKS1": "LUKS1", "LUKS2": "LUKS2", "PLAIN": "plain dm-crypt"}.get(
            crypt_type, crypt_type)
        return DmMeaning("cryptsetup", f"dm-crypt mapping ({label})", crypt_type=crypt_type)
    if uuid.startswith("mpath-"):
        return DmMeaning("multipath-tools", f"multipath device, WWID {uuid[len('mpath-'):]}")
    if uuid.startswith("part"):
        number = uuid.split("-", 1)[0][len("part"):]
        return DmMeaning("kpartx", f"partition {number} mapped by kpartx")
    if not uuid:
        return DmMeaning("unknown", "device-mapper device without a UUID (made by dmsetup?)")
    return DmMeaning(uuid.split("-", 1)[0].lower(), f"device-mapper device owned by "
                     f"{uuid.split('-', 1)[0]}")


def transport_from_sysfs_path(kname: str, real_dir: str) -> tuple[str | None, str | None]:
    """The bus a whole disk hangs off, from its sysfs path: (transport, why_unknown)."""
    if kname.startswith("nvme"):
        return "nvme", None
    if kname.startswith("loop"):
        return "loop", None
    checks = (("/usb", "usb"), ("/virtio", "virtio"), ("/end_device-", "sas"), ("/sas_", "sas"),
              ("/ata", "sata"), ("/mmc", "mmc"), ("/rport-", "fc"), ("/session", "iscsi"))
    for marker, transport in checks:
        if marker in real_dir:
            return transport, None
    if "/virtual/" in real_dir:
        return None, "virtual device: no transport"
    return None, "bus not recognised from the sysfs path"


def scsi_host_of(device_link: str | None) -> int | None:
    """The SCSI host number from a disk's `device` link, which ends in host:channel:target:lun
    (lsblk's sysfs_blkdev_scsi_get_hctl); None for a device that is not SCSI."""
    if not device_link:
        return None
    parts = device_link.rstrip("/").rsplit("/", 1)[-1].split(":")
    if len(parts) != 4 or not all(part.isascii() and part.isdigit() for part in parts):
        return None
    return int(parts[0])


def transport_from_scsi_host(host_classes: dict[str, bool], proc_name: str | None) -> str | None:
    """lsblk's TRAN for a SCSI disk from its host adapter: a transport class entry
    (sys/class/{spi,fc,sas,iscsi}_host/hostN), else the driver's proc_name (ahci/sata* -> sata,
    any other *ata* driver such as ata_piix -> ata)."""
    for kind in ("spi", "fc", "sas", "iscsi"):
        if host_classes.get(kind):
            return kind
    if proc_name is None:
        return None
    if proc_name.startswith(("ahci", "sata")):
        return "sata"
    return "ata" if "ata" in proc_name else None
