"""The storage lab: real md, LVM, thin pools, dm-crypt, dm-delay and SCSI disks in a qemu guest, where
diskdoctor's answers must match the kernel's own (lsblk, dmsetup table, fstrim, discard counters)."""

from __future__ import annotations

import json
import os
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from lab.vm import GROUPS, prepare, run_group
from support.cli_runner import run_cli
from support.lab_results import LabGroup

pytestmark = pytest.mark.lab
REACHES = ("ok", "unscheduled")
THIN_FINDINGS = {"TRIM-THIN-IGNORE", "TRIM-THIN-NOPASSDOWN"}


def lab_prerequisites() -> str | None:
    """Why the lab cannot run here, or None when it can."""
    if os.geteuid() != 0:
        return "the lab needs root (apt-get for qemu and the kernel, 9p export of /)"
    if os.uname().machine != "x86_64":
        return "the lab boots Debian's amd64 kernel and shares this machine's x86_64 root"
    return None


class Lab:
    """Boots each group's guest once per session, on first use; DISKDOCTOR_LAB_RESULTS reuses a folder
    written earlier by `python3 tests/lab/vm.py --out DIR`."""

    def __init__(self, out: Path) -> None:
        """Keep outputs under `out`."""
        self.out = out
        self.groups: dict[str, LabGroup] = {}
        self.failures: dict[str, str] = {}
        self.cache: Path | None = None

    def group(self, name: str) -> LabGroup:
        """The outputs of one group, booted on first use (run_group boots a hung guest once more)."""
        if name in self.failures:
            pytest.fail(self.failures[name])
        if name not in self.groups:
            reuse = os.environ.get("DISKDOCTOR_LAB_RESULTS")
            try:
                if reuse and (Path(reuse) / name / "done").exists():
                    self.groups[name] = LabGroup(Path(reuse) / name)
                else:
                    self.cache = self.cache or prepare()
                    self.groups[name] = LabGroup(run_group(name, self.out, self.cache))
            except RuntimeError as exc:
                self.failures[name] = str(exc)
                raise
        return self.groups[name]


@pytest.fixture(scope="session")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """The lab (outputs in DISKDOCTOR_LAB_OUT when set), or a skip saying why it cannot run (a failure
    under CI=true)."""
    why = lab_prerequisites()
    if why:
        pytest.skip(why)
    chosen = os.environ.get("DISKDOCTOR_LAB_OUT")
    yield Lab(Path(chosen) if chosen else tmp_path_factory.mktemp("lab"))


def reach_matches_kernel(group: LabGroup, name: str) -> None:
    """diskdoctor says discard reaches the disks exactly when the disks counted discards during fstrim."""
    verdict = group.verdicts[f"/lab/{name}"]
    run = group.fstrim(name)
    assert (verdict["verdict"] in REACHES) == run.reached_disks, (name, verdict["summary"], run)
    if verdict["verdict"] in REACHES:
        assert verdict["blocked_at"] is None and run.rc == 0


@pytest.mark.parametrize("group_name", GROUPS)
def test_every_mount_verdict_agrees_with_fstrim_and_the_discard_counters(lab: Lab, group_name: str) -> None:
    group = lab.group(group_name)
    assert not (group.folder / "errors").exists(), (group.folder / "errors").read_text()
    assert set(group.verdicts) == {f"/lab/{name}" for name in group.mounts()}
    for name in group.mounts():
        reach_matches_kernel(group, name)


@pytest.mark.parametrize("group_name", GROUPS)
def test_devices_json_matches_lsblk(lab: Lab, group_name: str) -> None:
    group = lab.group(group_name)
    ours, kernel = group.devices, group.lsblk
    assert set(ours) == set(kernel)
    for kname, truth in kernel.items():
        mine = ours[kname]
        assert mine["name"] == truth["name"] and mine["type"] == truth["type"], kname
        assert mine["maj_min"] == truth["maj:min"] and mine["size_bytes"] == truth["size"], kname
        assert mine["rotational"] == truth["rota"], kname
        assert mine["discard"]["max_bytes"] == truth["disc-max"], kname
        assert mine["discard"]["granularity_bytes"] == truth["disc-gran"], kname
        assert mine["fstype"] == truth["fstype"], kname
        assert mine["mountpoints"] == [m for m in truth["mountpoints"] if m], kname
        assert mine["parents"] == truth["parents"], kname


def test_md_raid0_and_raid1_over_partitions_pass_discard(lab: Lab) -> None:
    group = lab.group("ssd")
    for name, level in (("raid0", "raid0"), ("raid1", "raid1")):
        verdict, run = group.verdicts[f"/lab/{name}"], group.fstrim(name)
        assert run.rc == 0 and run.trimmed_bytes > 0
        assert all(run.disk_discard_sectors[disk] > 0 for disk in ("sda", "sdb")), run
        assert verdict["verdict"] in REACHES and verdict["layers"][0]["type"] == level
        assert {layer["kname"] for layer in verdict["layers"]} >= {"sda", "sdb"}


def test_lvm_linear_over_two_pvs_reaches_both_disks(lab: Lab) -> None:
    group = lab.group("ssd")
    verdict, run = group.verdicts["/lab/span"], group.fstrim("span")
    assert all(run.disk_discard_sectors[disk] > 0 for disk in ("sda", "sdb")), run
    assert verdict["verdict"] in REACHES
    assert verdict["summary"].split(":")[1].startswith(" discard passes down to sda, sdb through vg0-span")


def test_thin_pool_passdown_reaches_the_disks(lab: Lab) -> None:
    group = lab.group("ssd")
    verdict, run = group.verdicts["/lab/thin_passdown"], group.fstrim("thin_passdown")
    assert run.rc == 0 and run.reached_disks
    assert verdict["verdict"] in REACHES and verdict["blocked_at"] is None
    assert not THIN_FINDINGS & {p["id"] for p in verdict["problems"]}


def test_thin_pool_nopassdown_frees_the_pool_but_not_the_disks(lab: Lab) -> None:
    group = lab.group("ssd")
    verdict, run = group.verdicts["/lab/thin_nopassdown"], group.fstrim("thin_nopassdown")
    assert "no_discard_passdown" in group.dm_table("vg0-pool_nopassdown-tpool")
    assert run.rc == 0 and run.trimmed_bytes > 0 and not run.reached_disks, run
    assert verdict["verdict"] == "blocked" and verdict["blocked_at"] == "vg0/pool_nopassdown"
    assert "fstrim frees space in the pool" in verdict["summary"] and "do not reach the disks" in \
        verdict["summary"]
    problem = next(p for p in verdict["problems"] if p["id"] == "TRIM-THIN-NOPASSDOWN")
    assert problem["fix"] == ["lvchange --discards passdown vg0/pool_nopassdown"]
    assert "ignore" not in problem["risk"] and "TRIM-THIN-IGNORE" not in str(verdict["problems"])


def test_thin_pool_ignore_frees_nothing(lab: Lab) -> None:
    group = lab.group("ssd")
    verdict, run = group.verdicts["/lab/thin_ignore"], group.fstrim("thin_ignore")
    assert "ignore_discard" in group.dm_table("vg0-pool_ignore-tpool")
    assert (run.rc != 0 or run.trimmed_bytes == 0) and not run.reached_disks, run
    assert verdict["verdict"] == "blocked" and verdict["blocked_at"] == "vg0/pool_ignore"
    assert "never shrinks" in verdict["summary"]
    problem = next(p for p in verdict["problems"] if p["id"] == "TRIM-THIN-IGNORE")
    assert "lvchange --discards passdown vg0/pool_ignore" in problem["fix"]
    assert "lvchange -an vg0/pool_ignore" in problem["fix"]


def test_plain_lvs_beside_thin_pools_are_never_blamed_on_a_pool(lab: Lab) -> None:
    group = lab.group("ssd")
    for name in ("data", "span", "luks2on", "luks2off", "luks1", "plain", "slow"):
        verdict = group.verdicts[f"/lab/{name}"]
        assert "thin pool" not in verdict["summary"], verdict["summary"]
        assert not THIN_FINDINGS & {p["id"] for p in verdict["problems"]}, name
        assert not any("lvchange" in line for p in verdict["problems"] for line in p["fix"]), name


def test_dm_crypt_with_and_without_allow_discards(lab: Lab) -> None:
    group = lab.group("ssd")
    for name in ("luks2on", "plain"):
        assert "allow_discards" in group.dm_table(name)
        assert group.verdicts[f"/lab/{name}"]["verdict"] in REACHES and group.fstrim(name).reached_disks
    for name, persistent in (("luks2off", " --persistent"), ("luks1", "")):
        verdict, run = group.verdicts[f"/lab/{name}"], group.fstrim(name)
        assert "allow_discards" not in group.dm_table(name)
        assert run.rc != 0 and "not supported" in run.output and not run.reached_disks
        assert verdict["verdict"] == "blocked" and verdict["blocked_at"] == name
        problem = next(p for p in verdict["problems"] if p["id"] == "TRIM-CRYPT-OFF")
        assert problem["fix"][0] == f"cryptsetup refresh --allow-discards{persistent} {name}"


def test_the_printed_fixes_make_discard_reach_the_disks(lab: Lab) -> None:
    group = lab.group("ssd")
    blocked = sorted(m for m, v in group.verdicts.items() if v["verdict"] == "blocked")
    assert blocked == ["/lab/luks1", "/lab/luks2off", "/lab/thin_ignore", "/lab/thin_nopassdown"]
    log = (group.folder / "fixed" / "commands").read_text()
    assert "FAILED" not in log, log
    assert "lvchange --discards passdown vg0/pool_ignore" in log
    for mountpoint in blocked:
        run = group.fstrim(mountpoint.removeprefix("/lab/"), fixed=True)
        assert run.rc == 0 and run.reached_disks, (mountpoint, run)
    assert "ignore_discard" not in group.dm_table("vg0-pool_ignore-tpool", fixed=True)
    assert "no_discard_passdown" not in group.dm_table("vg0-pool_nopassdown-tpool", fixed=True)
    for name in ("luks1", "luks2off"):
        assert "allow_discards" in group.dm_table(name, fixed=True)


def test_dm_delay_shows_its_delay_at_its_layer_in_the_wal_benchmark(lab: Lab) -> None:
    group = lab.group("ssd")
    slow_kname = next(k for k, d in group.lsblk.items() if d["name"] == "slow")
    lv_kname = next(k for k, d in group.lsblk.items() if d["name"] == "vg0-slow")
    layers = {layer["kname"]: layer for layer in group.json("bench-slow.json")["layers"]}
    assert [layer["kname"] for layer in group.json("bench-slow.json")["layers"]][:2] == [slow_kname, lv_kname]
    added = layers[slow_kname]["write_await_ms"] - layers[lv_kname]["write_await_ms"]
    assert added >= 20, layers


def test_scsi_disk_without_discard_is_unsupported(lab: Lab) -> None:
    group = lab.group("disks")
    verdict, run = group.verdicts["/lab/nodiscard"], group.fstrim("nodiscard")
    assert group.lsblk[verdict["layers"][0]["kname"]]["disc-max"] == 0
    assert run.rc != 0 and not run.reached_disks
    assert verdict["verdict"] == "unsupported" and verdict["blocked_at"] is None


def test_rotational_disk_is_reported_rotational(lab: Lab) -> None:
    group = lab.group("disks")
    kname = group.verdicts["/lab/rotational"]["layers"][0]["kname"]
    assert group.lsblk[kname]["rota"] is True and group.devices[kname]["rotational"] is True


def test_4kn_disk_sizes_and_discard(lab: Lab) -> None:
    group = lab.group("4kn")
    disk = group.disks()[0]
    assert group.lsblk[disk]["log-sec"] == 4096
    assert group.devices[disk]["size_bytes"] == group.lsblk[disk]["size"]
    assert group.verdicts["/lab/fourk"]["verdict"] in REACHES and group.fstrim("fourk").reached_disks


@pytest.mark.parametrize("group_name", GROUPS)
def test_the_redacted_capture_replays_the_same_verdicts(lab: Lab, group_name: str, tmp_path: Path) -> None:
    group = lab.group(group_name)
    with tarfile.open(group.folder / "capture.tar.gz") as archive:
        assert archive.getmembers()
    done = run_cli("--sysroot", str(group.folder / "capture.tar.gz"), "trim", "--json")
    assert done.code in (0, 1), done.err
    replayed = json.loads(done.out)["filesystems"]  # mountpoints are redacted: match by top layer

    def by_layer(filesystems: Iterator[dict]) -> list[tuple[str, str, str | None]]:  # type: ignore[type-arg]
        return sorted((fs["layers"][0]["kname"] if fs["layers"] else "", fs["verdict"], fs["blocked_at"])
                      for fs in filesystems)
    assert by_layer(iter(replayed)) == by_layer(iter(group.verdicts.values()))
