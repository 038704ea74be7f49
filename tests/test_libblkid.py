"""libblkid in this process must answer what `blkid -c /dev/null -o export` answers, on real loop devices."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import live_prerequisites
from diskdoctor.probes import libblkid
from diskdoctor.probes.blkid import parse_blkid_export, read_blkid
from diskdoctor.probes.root import live_root
from support.loop_stack import MIB, LoopStack, forget_stale_partitions, sh

pytestmark = pytest.mark.live
LABELS = {"ext4": "dd-ext4", "xfs": "dd-xfs", "swap": "dd-swap"}


@pytest.fixture(scope="module")
def signed_loops(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoopStack]:
    """ext4, xfs and swap with labels, a GPT disk whose first partition holds ext4, and a GPT disk whose
    partitions the kernel was not told of (blkid then reports the table itself)."""
    why = live_prerequisites()
    if why:
        pytest.skip(why)
    stack = LoopStack(tmp_path_factory.mktemp("blkid"))
    try:
        for role, size in (("ext4", 64), ("xfs", 320), ("swap", 16), ("gpt", 64), ("table", 64)):
            image = stack.workdir / f"{role}.img"
            with open(image, "wb") as handle:
                handle.truncate(size * MIB)
            stack.devices[role] = sh("losetup", "--find", "--show", str(image))
        sh("mkfs.ext4", "-q", "-F", "-L", LABELS["ext4"], stack.devices["ext4"])
        sh("mkfs.xfs", "-q", "-f", "-L", LABELS["xfs"], stack.devices["xfs"])
        sh("mkswap", "-L", LABELS["swap"], stack.devices["swap"])
        disk = stack.devices["gpt"]
        forget_stale_partitions(disk)
        sh("sfdisk", "-q", disk, stdin="label: gpt\n,20M\n,20M\n")
        sh("partx", "-a", disk)
        stack.partitioned.append(disk)
        sh("mkfs.ext4", "-q", "-F", f"{disk}p1")
        forget_stale_partitions(stack.devices["table"])
        sh("sfdisk", "-q", "--no-reread", stack.devices["table"], stdin="label: gpt\n,20M\n")
        forget_stale_partitions(stack.devices["table"])
        yield stack
    finally:
        stack.teardown()


def _ours(found: dict[str, dict[str, str]], stack: LoopStack) -> dict[str, dict[str, str]]:
    """Only this test's devices (other tests attach and detach loops meanwhile)."""
    names = {Path(device).name for device in stack.devices.values()}
    names |= {f"{Path(stack.devices['gpt']).name}p{number}" for number in (1, 2)}
    return {name: props for name, props in found.items() if name in names}


def test_libblkid_answers_what_the_blkid_command_prints(signed_loops: LoopStack) -> None:
    lib = libblkid.load()
    assert lib is not None, "libblkid.so.1 is installed with util-linux on every host these tests run on"
    found = libblkid.probe_all(lib)
    assert found is not None
    ours = _ours({Path(devname).name: dict(tags) | {"DEVNAME": devname} for devname, tags in found},
                 signed_loops)
    command = subprocess.run(["blkid", "-c", "/dev/null", "-o", "export"], capture_output=True, text=True,
                             check=False).stdout
    assert ours == _ours(parse_blkid_export(command), signed_loops)
    kname = signed_loops.kname
    assert {ours[kname(role)]["TYPE"] for role in LABELS} == set(LABELS)
    assert all(ours[kname(role)]["LABEL"] == label for role, label in LABELS.items())
    assert ours[f"{kname('gpt')}p1"]["TYPE"] == "ext4" and ours[f"{kname('gpt')}p1"]["PARTUUID"]
    assert kname("gpt") not in ours  # a disk with partitions is left to them, by the command too
    assert ours[kname("table")]["PTTYPE"] == "gpt"
    for props in ours.values():
        for key in ("TYPE", "UUID", "LABEL", "PTTYPE", "PTUUID", "PARTUUID"):  # each as blkid prints it
            if key in props:
                single = subprocess.run(["blkid", "-c", "/dev/null", "-s", key, "-o", "value",
                                         props["DEVNAME"]], capture_output=True, text=True, check=False)
                assert single.stdout.strip() == props[key]


def test_read_blkid_gives_the_devices_the_same_filesystem_types(signed_loops: LoopStack) -> None:
    """What `devices` shows: each device's TYPE, whichever way it was read."""
    via_library, output = read_blkid(live_root())
    assert output.why_unknown is None and output.source.startswith("libblkid")
    text = subprocess.run(["blkid", "-c", "/dev/null", "-o", "export"], capture_output=True, text=True,
                          check=False).stdout
    assert _ours(via_library, signed_loops) == _ours(parse_blkid_export(text), signed_loops)


def test_without_the_library_the_command_is_run(signed_loops: LoopStack,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """An old distribution or a static build without libblkid.so.1 still gets blkid's answer."""
    monkeypatch.setattr(libblkid, "LIBRARY", "libblkid-that-is-not-there.so.9")
    monkeypatch.setattr(libblkid, "_loaded", [])
    found, output = read_blkid(live_root())
    assert output.source == "command: blkid -c /dev/null -o export" and output.why_unknown is None
    assert _ours(found, signed_loops)[signed_loops.kname("xfs")]["TYPE"] == "xfs"
