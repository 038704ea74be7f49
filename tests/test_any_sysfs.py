"""Any sysfs a user hands us, like `lsblk --sysroot`: a root with only sys/, without sys/class/block, or in
an old kernel's layout (sys/block/X directories with partitions as subdirectories)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from support.cli_runner import assert_one_line_error, run_cli

FIXTURES = Path(__file__).parent / "fixtures"
SYSFS_FIXTURES = ("etcd-raid0-lvm-luks", "lvm-multi-pv", "multipath", "sata-ext4", "loop-image")
"""Fixtures with sys/dev/block: lsblk --sysroot finds nothing without it (captured-loops has none)."""
LSBLK_COLUMNS = "NAME,KNAME,TYPE,SIZE,MAJ:MIN,ROTA,DISC-MAX"
DEVICE_FILES = ("dev", "size", "ro", "removable", "partition", "start", "discard_alignment",
                "alignment_offset", "stat")
DEVICE_DIRS = ("queue", "dm", "md", "loop", "device")


def fixture_devices(root: Path) -> set[str]:
    """Every device name the root holds (sys/block, sys/class/block, partitions under sys/block/X)."""
    names: set[str] = set()
    for folder in (root / "sys/block", root / "sys/class/block"):
        for entry in folder.iterdir() if folder.is_dir() else ():
            names.add(entry.name)
            names.update(child.name for child in entry.iterdir() if (child / "partition").is_file())
    return names


def attached_loops() -> set[str]:
    """Loop devices attached on this host now: lsblk --sysroot asks the live kernel about a loop device of
    that name (and leaves the root's out), so both trees are compared without them."""
    return {backing.parent.parent.name for backing in Path("/sys/block").glob("loop*/loop/backing_file")}


def lsblk_tree(root: Path) -> list[dict]:  # type: ignore[type-arg]
    """lsblk's own forest for `root`, reduced to the columns both tools share. lsblk asks the live kernel
    about loop devices as well, so a loop device attached on this host at that moment is left out."""
    known = fixture_devices(root) - attached_loops()
    done = subprocess.run(["lsblk", "--sysroot", str(root), "-J", "-b", "-o", LSBLK_COLUMNS],
                          capture_output=True, text=True, check=True)

    def shape(node: dict) -> dict:  # type: ignore[type-arg]
        return {"name": node["name"], "kname": node["kname"], "type": node["type"], "size": node["size"],
                "maj_min": node["maj:min"], "rota": node["rota"], "disc_max": node["disc-max"],
                "children": [shape(child) for child in node.get("children", []) if child["kname"] in known]}

    return [shape(node) for node in json.loads(done.stdout)["blockdevices"] if node["kname"] in known]


def our_tree(root: Path) -> list[dict]:  # type: ignore[type-arg]
    """diskdoctor's devices --json forest for `root`, reduced to the same columns."""
    result = run_cli("devices", "--json", "--sysroot", str(root))
    assert result.code == 0, result.err

    def shape(node: dict) -> dict:  # type: ignore[type-arg]
        return {"name": node["name"], "kname": node["kname"], "type": node["type"],
                "size": node["size_bytes"], "maj_min": node["maj_min"], "rota": node["rotational"],
                "disc_max": node["discard"]["max_bytes"],
                "children": [shape(child) for child in node["children"]]}

    attached = attached_loops()
    return [shape(node) for node in json.loads(result.out)["devices"] if node["kname"] not in attached]


def sys_only(fixture: str, dest: Path) -> Path:
    """A copy of a fixture's sys/ and nothing else (no proc/, no etc/, no udev database)."""
    shutil.copytree(FIXTURES / fixture / "sys", dest / "sys", symlinks=True)
    return dest


def old_layout(fixture: str, dest: Path) -> Path:
    """The fixture's devices as an old kernel showed them: sys/block/X real directories holding their
    attributes, partitions as subdirectories, slaves/holders and sys/dev/block linking into sys/block;
    no sys/class/block and no sys/devices."""
    source = FIXTURES / fixture / "sys" / "block"
    where: dict[str, str] = {}
    for disk in sorted(os.listdir(source)):
        where[disk] = disk
        for entry in os.listdir(source / disk):
            if (source / disk / entry / "partition").is_file():
                where[entry] = f"{disk}/{entry}"

    def copy_device(real: Path, target: Path) -> None:
        target.mkdir(parents=True)
        for name in DEVICE_FILES:
            if (real / name).is_file():
                shutil.copy(real / name, target / name)
        for name in DEVICE_DIRS:
            if (real / name).is_dir() and not (real / name).is_symlink():
                shutil.copytree(real / name, target / name, symlinks=False,
                                ignore=shutil.ignore_patterns("subsystem", "driver", "block", "bsg",
                                                              "scsi_*", "generic", "power", "rd*"))
        for links in ("slaves", "holders"):
            (target / links).mkdir()
            for name in os.listdir(real / links) if (real / links).is_dir() else ():
                if name in where:
                    depth = "../" * (str(target.relative_to(dest / "sys/block")).count("/") + 2)
                    os.symlink(f"{depth}{where[name]}", target / links / name)

    for rel in where.values():
        disk, _, part = rel.partition("/")
        real = (source / disk).resolve() / part if part else (source / disk).resolve()
        copy_device(real, dest / "sys/block" / rel)
        number = (dest / "sys/block" / rel / "dev").read_text().strip()
        (dest / "sys/dev/block").mkdir(parents=True, exist_ok=True)
        os.symlink(f"../../block/{rel}", dest / "sys/dev/block" / number)
    return dest


@pytest.mark.parametrize("fixture", SYSFS_FIXTURES)
def test_a_root_with_only_sys_gives_lsblks_tree(tmp_path: Path, fixture: str) -> None:
    root = sys_only(fixture, tmp_path)
    assert our_tree(root) == lsblk_tree(root)


@pytest.mark.parametrize("fixture", SYSFS_FIXTURES)
def test_without_sys_class_block_the_tree_is_the_same(tmp_path: Path, fixture: str) -> None:
    root = sys_only(fixture, tmp_path)
    shutil.rmtree(root / "sys/class")
    assert our_tree(root) == lsblk_tree(root)


@pytest.mark.parametrize("fixture", ["etcd-raid0-lvm-luks", "sata-ext4", "lvm-multi-pv"])
def test_an_old_kernel_layout_gives_lsblks_tree(tmp_path: Path, fixture: str) -> None:
    root = old_layout(fixture, tmp_path)
    assert not (root / "sys/class").exists() and not (root / "sys/devices").exists()
    tree = our_tree(root)
    assert tree == lsblk_tree(root)
    assert tree and (fixture == "lvm-multi-pv" or
                     any(child["type"] == "part" for disk in tree for child in disk["children"]))


def test_missing_mountinfo_is_unknown_with_the_reason(tmp_path: Path) -> None:
    root = sys_only("etcd-raid0-lvm-luks", tmp_path)
    result = run_cli("devices", "--sysroot", str(root))
    assert result.code == 0
    assert "mountpoints unknown: no mountinfo in this root" in result.err
    assert "luks-etcd" in result.out


def test_only_a_root_without_block_devices_is_refused(tmp_path: Path) -> None:
    (tmp_path / "sys/block").mkdir(parents=True)
    (tmp_path / "sys/class/block").mkdir(parents=True)
    assert_one_line_error(run_cli("devices", "--sysroot", str(tmp_path)), "it has no block devices")
