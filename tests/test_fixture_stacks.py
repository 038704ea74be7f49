"""Probes on fixture sysroots: the stacks this kernel cannot build, read exactly as lsblk would."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import FIXTURES, fixture_host, fixture_root
from diskdoctor.probes.discard_path import discard_reach
from diskdoctor.probes.host import read_host
from diskdoctor.probes.layer_details import read_layer_details
from diskdoctor.probes.root import Root
from support.fixture_scenarios import SCENARIOS
from support.sysfs_builder import SysrootBuilder
from support.trim_scenarios import TRIM_FIXTURES

GIB = 1 << 30


def details(root: Root, name: str) -> dict[str, object]:
    host = read_host(root)
    kname = next(k for k, d in host.devices.items() if d.name == name)
    return {f"{s.title}/{d.label}": d.fact for s in read_layer_details(root, host, kname)
            for d in s.details}


def test_etcd_stack_shape_and_types() -> None:
    host = fixture_host("etcd-raid0-lvm-luks")
    assert host.roots() == ["nvme0n1", "nvme1n1"]
    assert host.parents("md0") == ["nvme0n1p1", "nvme1n1p1"]
    kinds = {d.name: d.kind for d in host.devices.values()}
    assert kinds["md0"] == "raid0" and kinds["vg0-etcd"] == "lvm" and kinds["luks-etcd"] == "crypt"
    assert host.devices["dm-1"].path == "/dev/mapper/luks-etcd"
    assert host.mountpoints("dm-1") == ["/var/lib/etcd"]
    assert host.devices["dm-1"].fstype.value == "xfs"
    assert host.mount_for_path("/var/lib/etcd/member/wal").kname == "dm-1"


def test_crypt_layer_blocks_discard_on_etcd_mount() -> None:
    host = fixture_host("etcd-raid0-lvm-luks")
    reach = discard_reach(host, "dm-1")
    assert reach.verdict == "blocked" and reach.blocked_at == "dm-1"
    assert "dm-crypt without allow_discards" in reach.summary
    assert [layer.name for layer in reach.layers] == [
        "luks-etcd", "vg0-etcd", "md0", "nvme0n1p1", "nvme1n1p1", "nvme0n1", "nvme1n1"]
    root_reach = discard_reach(host, "nvme0n1p2")
    assert root_reach.verdict == "reaches" and root_reach.leaves == ("nvme0n1",)


def test_md_and_dm_details_say_what_they_mean() -> None:
    facts = details(fixture_root("etcd-raid0-lvm-luks"), "md0")
    assert facts["md RAID/level"].value == "raid0"
    assert facts["md RAID/chunk size (bytes)"].value == 524288
    assert facts["md RAID/chunk size (bytes)"].source == "/sys/block/md0/md/chunk_size"
    assert facts["md RAID/array state"].value == "clean"
    lvm = details(fixture_root("etcd-raid0-lvm-luks"), "vg0-etcd")
    assert lvm["device-mapper/volume group"].value == "vg0"
    assert lvm["device-mapper/logical volume"].value == "etcd"
    crypt = details(fixture_root("etcd-raid0-lvm-luks"), "luks-etcd")
    assert crypt["device-mapper/crypt type"].value == "LUKS2"
    fs = crypt["filesystem on /var/lib/etcd/super options"].value
    assert "sunit=1024" in fs


def test_nvme_identity_from_controller() -> None:
    facts = details(fixture_root("etcd-raid0-lvm-luks"), "nvme0n1")
    assert facts["Identity/model"].value == "SAMSUNG MZQL21T9HCJR-00A07"
    assert facts["Identity/transport"].value == "nvme"
    part = details(fixture_root("etcd-raid0-lvm-luks"), "nvme0n1p1")
    assert part["partition/start (bytes)"].value == 2048 * 512
    assert part["Queue (of parent disk)/discard_max_bytes"].source == \
        "/sys/block/nvme0n1/queue/discard_max_bytes"


def test_lvm_over_several_pvs_and_dashed_names() -> None:
    host = fixture_host("lvm-multi-pv")
    assert host.parents("dm-0") == ["sdb", "sdc", "sdd"]
    assert host.children("sdb") == ["dm-0", "dm-1"]
    facts = details(fixture_root("lvm-multi-pv"), "my--vg-wal--lv")
    assert facts["device-mapper/volume group"].value == "my-vg"
    assert facts["device-mapper/logical volume"].value == "wal-lv"
    assert host.mount_for_path("/var/lib/postgresql/wal/x").kname == "dm-1"


def test_multipath_and_kpartx_partition() -> None:
    host = fixture_host("multipath")
    assert host.devices["dm-0"].kind == "mpath"
    assert host.devices["dm-1"].kind == "part"
    assert host.parents("dm-0") == ["sde", "sdf"]
    assert discard_reach(host, "dm-1").leaves == ("sde", "sdf")


def test_sata_disk_partitions_swap_rom_and_udev() -> None:
    host = fixture_host("sata-ext4")
    assert host.children("sda") == ["sda1", "sda2", "sda3"]
    assert host.devices["sr0"].kind == "rom"
    assert host.mountpoints("sda3") == ["[SWAP]"]
    assert host.devices["sda1"].fstype.source == "/run/udev/data/b8:1 (ID_FS_TYPE)"
    assert host.devices["sda"].serial.value == "S3Z9NB0K123456A"
    assert host.devices["sda"].transport.value == "sata"
    assert host.devices["sda"].scheduler.value == "mq-deadline"


def test_loop_backing_file_zram_and_lsblk_filter() -> None:
    root = fixture_root("loop-image")
    host = read_host(root)
    assert "loop1" not in host.devices
    assert "loop1" in read_host(root, include_empty=True).devices
    facts = details(root, "loop0")
    assert facts["loop/backing file"].value == "/var/lib/images/disk.img"
    assert facts["Identity/rotational"].value is True
    assert "do not infer an HDD" in (next(
        d.note for s in read_layer_details(root, host, "loop0") for d in s.details
        if d.label == "rotational") or "")
    zram = host.devices["zram0"]
    assert zram.scheduler.value is None and "bio-based" in (zram.scheduler.why_unknown or "")
    assert host.mountpoints("zram0") == ["[SWAP]"]


@pytest.mark.parametrize("level", ["raid0", "raid1", "raid5", "raid6", "raid10", "linear"])
def test_every_md_level_is_its_lsblk_type(tmp_path: Path, level: str) -> None:
    builder = SysrootBuilder(tmp_path)
    for index, name in enumerate(["sda", "sdb", "sdc", "sdd"]):
        builder.sata(name, f"8:{16 * index}", 100 * GIB, port=index + 1, model="disk")
    builder.md("md127", "9:127", 200 * GIB, level=level, members=["sda", "sdb", "sdc", "sdd"])
    host = read_host(Root(str(builder.finish()), live=False))
    assert host.devices["md127"].kind == level
    assert host.children("sdc") == ["md127"]


def test_unknown_values_say_why(tmp_path: Path) -> None:
    builder = SysrootBuilder(tmp_path)
    builder.sata("sda", "8:0", 10 * GIB, port=1, model="x")
    (tmp_path / "sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda"
                "/queue/rotational").unlink()
    host = read_host(Root(str(builder.finish()), live=False))
    rotational = host.devices["sda"].rotational
    assert rotational.value is None and "file missing" in (rotational.why_unknown or "")
    assert host.devices["sda"].serial.why_unknown.startswith("not exposed in sysfs")


def tree_listing(base: Path) -> dict[str, str]:
    """Every entry under `base` without following links: links by target, files by content.

    Empty directories (holders/, slaves/) are left out: git cannot store them, and the probes
    read a missing holders/ exactly like an empty one."""
    listing = {}
    for folder, dirs, files in os.walk(base):
        for name in dirs + files:
            path = Path(folder) / name
            rel = str(path.relative_to(base))
            if path.is_symlink():
                listing[rel] = "-> " + os.readlink(path)
            elif path.is_file():
                listing[rel] = path.read_text()
            elif any(path.iterdir()):
                listing[rel] = "<dir>"
    return listing


def test_committed_fixtures_match_their_builders(tmp_path: Path) -> None:
    for name, build in {**SCENARIOS, **TRIM_FIXTURES}.items():
        build(tmp_path / name)
        assert tree_listing(tmp_path / name) == tree_listing(FIXTURES / name), \
            f"{name} is stale: run python tests/build_fixtures.py"


def test_real_capture_of_loop_stack_replays() -> None:
    """tests/fixtures/captured-loops is our own redacted capture of the live test stack."""
    root = fixture_root("captured-loops")
    roles = json.loads((FIXTURES / "captured-loops/roles.json").read_text())
    host = read_host(root)
    assert discard_reach(host, roles["no-discard"]).verdict == "unsupported"
    assert discard_reach(host, roles["xfs"]).verdict == "reaches"
    assert host.children(roles["gpt"]) == [f"{roles['gpt']}p1", f"{roles['gpt']}p2"]
    btrfs = next(m.mount for m in host.mounts if m.kname == roles["btrfs"])
    assert "compress-force=zstd:3" in btrfs.super_options and "discard=async" in btrfs.super_options
    ext4 = next(m.mount for m in host.mounts if m.kname == roles["ext4-discard"])
    assert "discard" in ext4.super_options
    facts = details(root, roles["xfs"])
    usage = next(v for k, v in facts.items() if k.endswith("/size (bytes)") and "filesystem" in k)
    assert usage.value > 200 << 20 and "fs-usage.json" in usage.source
    assert host.hostname.startswith("host-")
    manifest = json.loads((FIXTURES / "captured-loops/manifest.json").read_text())
    assert manifest["redacted"] is True and manifest["format"] == "diskdoctor-capture"
