"""Old customer kernels: a 2.6.18 (RHEL 5 era) sysfs tree and a 2.6.32 one read like lsblk reads them.

The trees in tests/fixtures/old-kernels/ follow those kernels' sources (README.md there). Each device
lsblk --sysroot lists must be ours too, with the same name, type, size, parents and the values both
tools read from sysfs; the figures printed say how much of lsblk's output we reproduce."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from build_old_fixtures import OLD_KERNEL_FIXTURES
from diskdoctor.probes.host import read_host
from diskdoctor.probes.layer_details import read_layer_details
from diskdoctor.probes.root import Root
from support.cli_runner import run_cli
from support.lsblk_compare import compare, lsblk_records, lsblk_version, our_records, with_dev_block_index

OLD_KERNELS = Path(__file__).parent / "fixtures" / "old-kernels"
RHEL5 = OLD_KERNELS / "rhel5-2.6.18"
LINUX_2632 = OLD_KERNELS / "linux-2.6.32"
RHEL5_DEVICES = {"sda", "sda1", "sda2", "sdb", "sdb1", "sdb2", "md0", "md1", "dm-0", "dm-1", "sr0"}
UNNAMED_DM = ["dm-0", "dm-1"]
"""2.6.18 has no dm/name: lsblk drops such devices (initialize_device), we show them by kernel name."""


def lsblk_view(fixture: Path, tmp_path: Path) -> Path:
    """The tree lsblk is run on: 2.6.18 has no /sys/dev/block, without which lsblk --sysroot lists
    nothing, so it gets a copy with that index added (the tree we read stays as the kernel made it)."""
    if (fixture / "sys/dev/block").is_dir():
        return fixture
    return with_dev_block_index(fixture, tmp_path / "with-sys-dev-block")


def forest(root: Path, *args: str) -> list[dict]:  # type: ignore[type-arg]
    result = run_cli("devices", "--json", "--sysroot", str(root), *args)
    assert result.code == 0, result.err
    return json.loads(result.out)["devices"]  # type: ignore[no-any-return]


def shape(nodes: list[dict]) -> list[tuple]:  # type: ignore[type-arg]
    return [(n["name"], n["type"], n["size_bytes"], shape(n["children"])) for n in nodes]


@pytest.mark.parametrize("all_devices", [False, True], ids=["default", "all"])
@pytest.mark.parametrize("fixture", [RHEL5, LINUX_2632], ids=lambda p: p.name)
def test_every_device_lsblk_lists_is_listed_with_lsblks_values(tmp_path: Path, fixture: Path,
                                                                all_devices: bool) -> None:
    result = compare(lsblk_view(fixture, tmp_path), fixture, all_devices=all_devices)
    print(f"{lsblk_version()}, {fixture.name}{' -a' if all_devices else ''}: {result.summary()}")
    assert result.lsblk_only == []
    assert result.mismatches == []
    assert result.shared_values > 50 and result.shared_fraction == 1.0
    assert result.all_fraction >= 0.5, "columns devices --json has no field for are the rest"
    assert result.ours_only == (UNNAMED_DM if fixture == RHEL5 else [])


def test_a_2618_tree_keeps_partitions_and_the_md_and_lvm_stacked_on_them() -> None:
    assert not (RHEL5 / "sys/class/block").exists() and not (RHEL5 / "sys/dev").exists()
    assert not list(RHEL5.glob("sys/block/*/*/partition"))
    tree = forest(RHEL5)
    md1 = ("md1", "raid1", 159934840832, [("dm-0", "dm", 146 << 30, []), ("dm-1", "dm", 2 << 30, [])])
    sda = ("sda", "disk", 160041885696, [("sda1", "part", 106896384, [("md0", "raid1", 106823680, [])]),
                                         ("sda2", "part", 159934957056, [md1])])
    assert shape(tree)[0] == sda
    assert {n["name"] for n in tree} == {"sda", "sdb", "sr0"}
    assert our_records(RHEL5).keys() == RHEL5_DEVICES


def test_the_tree_reads_the_same_with_or_without_sys_dev_block(tmp_path: Path) -> None:
    assert forest(RHEL5) == forest(with_dev_block_index(RHEL5, tmp_path / "indexed"))


def test_partitions_found_through_any_one_index_are_partitions(tmp_path: Path) -> None:
    expected = shape(forest(LINUX_2632))
    for keep in ("sys/block", "sys/class/block", "sys/dev/block"):
        root = tmp_path / keep.replace("/", "-")
        shutil.copytree(LINUX_2632, root, symlinks=True)
        for index in {"sys/block", "sys/class/block", "sys/dev/block"} - {keep}:
            shutil.rmtree(root / index)
        assert shape(forest(root)) == expected, keep


def test_device_mapper_names_unknown_on_old_kernels_say_why() -> None:
    result = run_cli("devices", "--sysroot", str(RHEL5))
    assert result.code == 0 and "Traceback" not in result.err
    assert "device-mapper names unknown for dm-0, dm-1" in result.err
    assert "kernels before 2.6.29" in result.err and "dmsetup ls" in result.err
    dm = read_host(Root(str(RHEL5), live=False)).devices["dm-0"]
    assert (dm.name, dm.dm_name, dm.kind) == ("dm-0", None, "dm")


def detail(root: Path, kname: str, label: str):  # type: ignore[no-untyped-def]
    """One row of a device's details panel, as the TUI shows it."""
    rooted = Root(str(root), live=False)
    sections = read_layer_details(rooted, read_host(rooted, include_empty=True), kname)
    return next(row for section in sections for row in section.details if row.label == label)


def test_missing_queue_files_are_unknown_with_the_kernel_that_added_them() -> None:
    discard = detail(LINUX_2632, "sda", "discard_max_bytes").fact
    assert discard.value is None and "appeared in Linux 2.6.33" in (discard.why_unknown or "")
    hw = detail(LINUX_2632, "sda", "discard_max_hw_bytes").fact
    assert hw.value is None and "appeared in Linux 4.3" in (hw.why_unknown or "")
    rotational = detail(RHEL5, "sda1", "rotational").fact
    assert rotational.value is None and "appeared in Linux 2.6.29" in (rotational.why_unknown or "")
    md_queue = detail(RHEL5, "md1", "discard_max_bytes").fact
    assert md_queue.value is None and "no queue/ directory" in (md_queue.why_unknown or "")


def test_empty_devices_are_listed_as_lsblk_lists_them(tmp_path: Path) -> None:
    default = our_records(LINUX_2632)
    assert "sr0" in default and default["sr0"].fields["size_bytes"] == 0
    assert not any(k.startswith(("loop", "ram")) for k in default)
    every = our_records(LINUX_2632, all_devices=True)
    assert {f"loop{i}" for i in range(8)} | {f"ram{i}" for i in range(16)} <= every.keys()
    root = tmp_path / "attached"
    shutil.copytree(LINUX_2632, root, symlinks=True)
    (root / "sys/block/loop3/loop").mkdir()
    (root / "sys/block/loop3/loop/backing_file").write_text("/srv/empty.img\n")
    assert "loop3" in our_records(root) and "loop2" not in our_records(root)


def test_hidden_devices_are_left_out_like_lsblk(tmp_path: Path) -> None:
    root = tmp_path / "hidden"
    shutil.copytree(LINUX_2632, root, symlinks=True)
    (root / "sys/block/sr0/hidden").write_text("1\n")
    assert "sr0" not in lsblk_records(root)
    assert "sr0" not in our_records(root, all_devices=True)


def test_partitions_are_told_by_util_linuxs_name_rule() -> None:
    from diskdoctor.probes.block_names import partition_suffix

    assert partition_suffix("sda", "sda12") == "12"
    assert partition_suffix("nvme0n1", "nvme0n1p2") == "2"
    assert partition_suffix("md0", "md0p1") == "1"
    assert partition_suffix("sda", "sdab") is None
    assert partition_suffix("sda", "sda") is None
    assert partition_suffix("loop0", "loop0p") is None
    assert partition_suffix("md0", "md") is None


@pytest.mark.parametrize(("fixture", "shown"), [(RHEL5, len(RHEL5_DEVICES)), (LINUX_2632, 14)],
                         ids=["rhel5-2.6.18", "linux-2.6.32"])
def test_the_tui_trim_and_advise_do_not_crash_on_old_trees(fixture: Path, shown: int) -> None:
    smoke = run_cli("--smoke", "--sysroot", str(fixture), timeout=180)
    assert smoke.code == 0, smoke.err
    assert f"for {shown} devices" in smoke.out + smoke.err
    for command in ("trim", "advise"):
        result = run_cli(command, "--sysroot", str(fixture))
        assert result.code in (0, 1, 2) and "Traceback" not in result.err, result.err
        assert len(result.err.strip().splitlines()) <= 1, result.err


def listing(base: Path) -> dict[str, str]:
    """Links by target and files by content; empty directories left out (git cannot keep them)."""
    found = {}
    for folder, dirs, files in os.walk(base):
        for name in dirs + files:
            path = Path(folder) / name
            rel = str(path.relative_to(base))
            if path.is_symlink():
                found[rel] = "-> " + os.readlink(path)
            elif path.is_file():
                found[rel] = path.read_text()
            elif any(path.iterdir()):
                found[rel] = "<dir>"
    return found


def test_committed_old_kernel_trees_match_their_builder(tmp_path: Path) -> None:
    for name, build in OLD_KERNEL_FIXTURES.items():
        build(tmp_path / name)
        assert listing(tmp_path / name) == listing(OLD_KERNELS / name), \
            f"{name} is stale: run python tests/build_old_fixtures.py"


def test_a_kernel_without_mountinfo_gets_its_mounts_from_proc_mounts() -> None:
    """2.6.18 has no /proc/self/mountinfo: /boot on md0 is still found (by its source path), and says how."""
    host = read_host(Root(str(OLD_KERNELS / "rhel5-2.6.18")))
    boot = [mounted for mounted in host.mounts if mounted.mount.mountpoint == "/boot"]
    assert [(mounted.kname, mounted.mount.fstype) for mounted in boot] == [("md0", "ext3")]
    assert host.mounts_unknown is None
    assert any("/proc/mounts" in line and "2.6.26" in line for line in host.warnings)
    assert host.devices["md0"].fstype.source == "/proc/mounts"
