"""Redaction keeps what device-mapper UUIDs mean (LVM-, CRYPT-LUKS2-) while hiding the IDs in them."""

from __future__ import annotations

from pathlib import Path

from diskdoctor.app.core.capture.redact import redact_tree
from diskdoctor.probes.device_kinds import lsblk_type_from_dm_uuid

VG, LV = "Ab3dEf6hIj9kLm2oPq5sTu8wXy1zAb4d", "Cd5fGh8jKl1mNo4qRs7uVw0yZa3bCd6f"
LUKS = "d425bb7609074e6fb058b36c46ab3e59"


def test_dm_uuids_keep_their_owner_prefix_and_stay_consistent(tmp_path: Path) -> None:
    lvm, crypt = f"LVM-{VG}{LV}", f"CRYPT-LUKS2-{LUKS}-luks2on"
    files = {"sys/devices/virtual/block/dm-0/dm/uuid": lvm + "\n",
             "sys/devices/virtual/block/dm-1/dm/uuid": crypt + "\n",
             "run/udev/data/b253:0": f"E:DM_UUID={lvm}\nE:ID_FS_UUID=0b4c-77aa\n",
             "run/udev/data/b253:1": f"E:DM_UUID={crypt}\n"}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    redact_tree(str(tmp_path), None)
    lvm_after = (tmp_path / "sys/devices/virtual/block/dm-0/dm/uuid").read_text().strip()
    crypt_after = (tmp_path / "sys/devices/virtual/block/dm-1/dm/uuid").read_text().strip()
    assert lvm_after.startswith("LVM-") and VG not in lvm_after and LV not in lvm_after
    assert crypt_after.startswith("CRYPT-LUKS2-") and crypt_after.endswith("-luks2on")
    assert LUKS not in crypt_after
    assert lsblk_type_from_dm_uuid(lvm_after) == "lvm" and lsblk_type_from_dm_uuid(crypt_after) == "crypt"
    assert f"E:DM_UUID={lvm_after}\n" in (tmp_path / "run/udev/data/b253:0").read_text()
    assert f"E:DM_UUID={crypt_after}\n" in (tmp_path / "run/udev/data/b253:1").read_text()
