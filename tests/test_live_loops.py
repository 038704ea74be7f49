"""Real loop devices and filesystems: what diskdoctor reports must match the kernel and lsblk."""

from __future__ import annotations

import json
import subprocess
import tarfile
from pathlib import Path

import pytest
from diskdoctor.probes.discard_path import discard_reach
from diskdoctor.probes.host import read_host
from diskdoctor.probes.layer_details import read_layer_details
from diskdoctor.probes.root import live_root
from support.cli_runner import assert_one_line_error, run_cli
from support.loop_stack import LoopStack

pytestmark = pytest.mark.live


def nodes_by_kname(document: dict) -> dict[str, dict]:
    found: dict[str, dict] = {}
    stack = list(document["devices"])
    while stack:
        node = stack.pop()
        found.setdefault(node["kname"], node)
        stack += node["children"]
    return found


def test_devices_json_agrees_with_lsblk(loop_stack: LoopStack) -> None:
    ours = nodes_by_kname(json.loads(run_cli("devices", "--json").out))
    lsblk = json.loads(subprocess.run(["lsblk", "-J", "-O", "-b"], capture_output=True,
                                      text=True, check=True).stdout)
    theirs: dict[str, dict] = {}
    stack = list(lsblk["blockdevices"])
    while stack:
        node = stack.pop()
        theirs[node["kname"]] = node
        stack += node.get("children", [])
    for role in loop_stack.devices:
        kname = loop_stack.kname(role)
        mine, ref = ours[kname], theirs[kname]
        assert mine["type"] == ref["type"] == "loop"
        assert mine["size_bytes"] == ref["size"]
        assert mine["discard"]["max_bytes"] == ref["disc-max"]
        assert mine["discard"]["granularity_bytes"] == ref["disc-gran"]
        assert mine["rotational"] == ref["rota"]
        assert mine["maj_min"] == ref["maj:min"]
    gpt = loop_stack.kname("gpt")
    assert [c["kname"] for c in ours[gpt]["children"]] == [f"{gpt}p1", f"{gpt}p2"]
    assert ours[f"{gpt}p1"]["type"] == "part" and ours[f"{gpt}p1"]["fstype"] == "ext4"


def test_filesystems_mountpoints_and_options(loop_stack: LoopStack) -> None:
    ours = nodes_by_kname(json.loads(run_cli("devices", "--json").out))
    for role, fstype in (("ext4-discard", "ext4"), ("xfs", "xfs"), ("btrfs", "btrfs")):
        node = ours[loop_stack.kname(role)]
        assert node["fstype"] == fstype
        assert node["mountpoints"] == [str(loop_stack.mountpoints[role])]
    root = live_root()
    host = read_host(root)
    facts = {f"{s.title}/{d.label}": d.fact for s in read_layer_details(
        root, host, loop_stack.kname("btrfs")) for d in s.details}
    mountpoint = loop_stack.mountpoints["btrfs"]
    options = facts[f"filesystem on {mountpoint}/super options"].value
    assert "compress-force=zstd" in options and "discard=async" in options
    assert facts["loop/backing file"].value == str(loop_stack.workdir / "btrfs.img")
    assert facts[f"filesystem on {mountpoint}/size (bytes)"].value > 100 << 20
    ext4 = {f"{s.title}/{d.label}": d.fact for s in read_layer_details(
        root, host, loop_stack.kname("ext4-discard")) for d in s.details}
    assert "discard" in ext4[f"filesystem on {loop_stack.mountpoints['ext4-discard']}"
                             "/super options"].value


def test_no_discard_loop_is_unsupported_and_fstrim_agrees(loop_stack: LoopStack) -> None:
    host = read_host(live_root())
    reach = discard_reach(host, loop_stack.kname("no-discard"))
    assert reach.verdict == "unsupported"
    assert "does not accept discard" in reach.summary
    fstrim = subprocess.run(["fstrim", "-v", str(loop_stack.mountpoints["no-discard"])],
                            capture_output=True, text=True, check=False)
    assert fstrim.returncode != 0 and "not supported" in fstrim.stderr
    assert discard_reach(host, loop_stack.kname("xfs")).verdict == "reaches"
    text = run_cli("devices").out
    assert f"{loop_stack.mountpoints['no-discard']} (ext4 on {loop_stack.kname('no-discard')}): " \
           f"UNSUPPORTED: {loop_stack.kname('no-discard')} does not accept discard" in text  # trim's words


def test_capture_replays_identical_json(loop_stack: LoopStack, tmp_path: Path) -> None:
    bundle = tmp_path / "host.tar.gz"
    made = run_cli("capture", "-o", str(bundle))
    assert made.code == 0, made.err
    live = run_cli("devices", "--json")
    extracted = tmp_path / "extracted"
    extracted.mkdir()
    with tarfile.open(bundle) as tar:
        tar.extractall(extracted, filter="fully_trusted")
    replay = run_cli("devices", "--json", "--sysroot", str(extracted))
    assert replay.code == 0, replay.err
    assert json.loads(replay.out) == json.loads(live.out)
    assert json.loads(run_cli("devices", "--json", "--sysroot", str(bundle)).out) == \
        json.loads(live.out)
    tree = extracted / "diskdoctor-capture"
    manifest = json.loads((tree / "manifest.json").read_text())
    assert manifest["format"] == "diskdoctor-capture" and manifest["redacted"] is False
    assert (tree / "commands/lsblk.txt").exists() and (tree / "commands/uname.txt").exists()
    assert (tree / "sys/class/block" / loop_stack.kname("xfs")).is_symlink()
    assert (tree / "proc/self/mountinfo").is_file() and (tree / "proc/diskstats").is_file()


def test_redacted_capture_hides_uuids_serials_and_hostname(loop_stack: LoopStack,
                                                           tmp_path: Path) -> None:
    bundle = tmp_path / "redacted.tar.gz"
    assert run_cli("capture", "--redact", "-o", str(bundle)).code == 0
    device = loop_stack.devices["xfs"]
    fs_uuid = subprocess.run(["blkid", "-s", "UUID", "-o", "value", device], capture_output=True,
                             text=True, check=True).stdout.strip()
    hostname = Path("/proc/sys/kernel/hostname").read_text().strip()
    secrets = [fs_uuid, hostname] + [p.read_text().strip() for p in
                                     Path("/sys/block").glob("*/serial") if p.read_text().strip()]
    with tarfile.open(bundle) as tar:
        blob = b"".join(tar.extractfile(m).read() for m in tar.getmembers() if m.isfile())
    for secret in secrets:
        if len(secret) >= 4:
            assert secret.encode() not in blob, f"{secret!r} leaked"
    with tarfile.open(bundle) as tar:
        stored = tar.extractfile("diskdoctor-capture/proc/sys/kernel/hostname").read().decode()
        manifest = json.load(tar.extractfile("diskdoctor-capture/manifest.json"))
    assert stored.strip() == manifest["hostname"] != hostname
    assert manifest["hostname"].startswith("host-") and manifest["redacted"] is True
    document = json.loads(run_cli("devices", "--json", "--sysroot", str(bundle)).out)
    assert nodes_by_kname(document)[loop_stack.kname("xfs")]["fstype"] == "xfs"


def test_capture_to_full_or_read_only_filesystem_fails_cleanly(loop_stack: LoopStack,
                                                                tmp_path: Path) -> None:
    tiny = tmp_path / "tiny"
    tiny.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8k", "tmpfs", str(tiny)], check=True)
    try:
        result = run_cli("capture", "-o", str(tiny / "host.tar.gz"))
        assert_one_line_error(result, "No space left on device")
        assert list(tiny.iterdir()) == []
        subprocess.run(["mount", "-o", "remount,ro", str(tiny)], check=True)
        assert_one_line_error(run_cli("capture", "-o", str(tiny / "host.tar.gz")),
                              "read-only filesystem")
    finally:
        subprocess.run(["umount", str(tiny)], check=False)


def test_capture_refuses_to_overwrite(loop_stack: LoopStack, tmp_path: Path) -> None:
    existing = tmp_path / "old.tar.gz"
    existing.write_bytes(b"keep me")
    assert_one_line_error(run_cli("capture", "-o", str(existing)), "already exists")
    assert existing.read_bytes() == b"keep me"
    assert_one_line_error(run_cli("capture", "-o", str(tmp_path / "x.zip")), "must end in")
    assert_one_line_error(run_cli("capture", "-o", str(tmp_path / "no/dir/x.tar.gz")),
                          "does not exist")
