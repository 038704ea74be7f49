"""A big host read in several processes: the same devices as the serial read, and no reader left behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from conftest import FIXTURES
from diskdoctor.app.core.stack.devices_json import devices_document
from diskdoctor.probes import blockdev, split_read
from diskdoctor.probes.host import read_host
from diskdoctor.probes.root import Root
from support.sysfs_builder import SysrootBuilder

GIB = 1 << 30
SYSROOTS = sorted(path.parent for path in FIXTURES.glob("**/sys") if (path.parent / "sys/block").is_dir()
                  or (path.parent / "sys/class/block").is_dir())


def devices_json(root: Path, *, processes: int, include_empty: bool = False,
                 monkeypatch: pytest.MonkeyPatch) -> str:
    """`devices --json`'s document (and the host's warnings) read in `processes` processes (1: serially)."""
    monkeypatch.setattr(blockdev, "SPLIT_FROM_DEVICES", 1 if processes > 1 else 10**9)
    monkeypatch.setattr(split_read, "usable_cpus", lambda: processes)
    host = read_host(Root(str(root), live=False), include_empty=include_empty)
    return json.dumps([devices_document(host), host.warnings], indent=1)


def children_sent(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """For each child collected from now on: whether it read and sent its part (not read again here)."""
    real_collect = split_read._collect
    sent: list[bool] = []

    def collect(pid: int, fd: int, deadline: float) -> object:
        result = real_collect(pid, fd, deadline)
        sent.append(result is not None)
        return result

    monkeypatch.setattr(split_read, "_collect", collect)
    return sent


def no_children_left() -> bool:
    """This process has no child (a reader not reaped would be one)."""
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def generated_root(path: Path, groups: int = 12) -> Path:
    """Loops (attached and not), SATA disks with two partitions, LVM on each partition, an md array."""
    builder = SysrootBuilder(path, hostname="split")
    for index in range(groups):
        builder.loop(f"loop{index}", f"7:{index}", GIB if index % 3 else 0,
                     f"/images/{index}.img" if index % 3 else None)
    for index in range(groups):
        disk = f"sd{chr(ord('a') + index)}"
        builder.sata(disk, f"8:{index * 16}", 100 * GIB, port=index + 1, model="split disk")
        for number in (1, 2):
            part = builder.partition(disk, number, f"8:{index * 16 + number}", 2048 * number, 40 * GIB)
            builder.dm(f"dm-{index * 2 + number - 1}", f"253:{index * 2 + number - 1}", 40 * GIB,
                       name=f"vg{index}-lv{number}", uuid=f"LVM-{index:032d}{number:032d}", lowers=[part])
    builder.md("md0", "9:0", 10 * GIB, level="raid1", members=["sda2", "sdb2"])
    builder.mount("253:0", "/srv/0", "xfs", "/dev/mapper/vg0-lv1")
    return builder.finish()


@pytest.mark.parametrize("root", SYSROOTS, ids=lambda path: str(path.relative_to(FIXTURES)))
def test_every_fixture_reads_the_same_in_several_processes(root: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    serial = devices_json(root, processes=1, monkeypatch=monkeypatch)
    for processes in (2, 3):
        assert devices_json(root, processes=processes, monkeypatch=monkeypatch) == serial
    assert devices_json(root, processes=2, include_empty=True, monkeypatch=monkeypatch) == \
        devices_json(root, processes=1, include_empty=True, monkeypatch=monkeypatch)
    assert no_children_left()


def test_a_generated_host_reads_the_same_in_several_processes(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    root = generated_root(tmp_path / "root")
    serial = devices_json(root, processes=1, monkeypatch=monkeypatch)
    assert '"vg11-lv2"' in serial and '"md0"' in serial and '"loop1"' in serial
    assert '"loop3"' not in serial  # unattached: hidden as lsblk hides it, in every part
    sent = children_sent(monkeypatch)
    for processes in (2, 3, 4):
        assert devices_json(root, processes=processes, monkeypatch=monkeypatch) == serial
    assert sent == [True] * (1 + 2 + 3)
    assert no_children_left()


def test_a_read_on_a_worker_thread_splits_alike(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The TUI reads on a worker thread: a child forked from it reads (and sets its signals) as well."""
    root = generated_root(tmp_path / "root")
    serial = devices_json(root, processes=1, monkeypatch=monkeypatch)
    sent = children_sent(monkeypatch)
    got: list[str] = []

    def read() -> None:
        got.append(devices_json(root, processes=2, monkeypatch=monkeypatch))

    worker = threading.Thread(target=read)
    worker.start()
    worker.join(60)
    assert got == [serial]
    assert sent == [True]
    assert no_children_left()


def test_a_failing_reader_is_read_again_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A child that fails (here: any exception in it) is not trusted; its part is read in this process."""
    root = generated_root(tmp_path / "root")
    serial = devices_json(root, processes=1, monkeypatch=monkeypatch)
    here = os.getpid()
    real_part = blockdev._DeviceReader._part

    def failing_in_child(self: blockdev._DeviceReader, disks: list[str]) -> object:
        if os.getpid() != here:
            raise RuntimeError("reader bug")
        return real_part(self, disks)

    monkeypatch.setattr(blockdev._DeviceReader, "_part", failing_in_child)
    assert devices_json(root, processes=2, monkeypatch=monkeypatch) == serial
    assert no_children_left()


def test_a_stuck_reader_is_killed_and_its_part_read_here(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A child that never answers (say, stuck on a lock another thread held when it was forked) does not hang
    the read: past its grace it is killed and reaped, and its part is read in this process."""
    root = generated_root(tmp_path / "root")
    serial = devices_json(root, processes=1, monkeypatch=monkeypatch)
    here = os.getpid()
    real_part = blockdev._DeviceReader._part

    def stuck_in_child(self: blockdev._DeviceReader, disks: list[str]) -> object:
        if os.getpid() != here:
            time.sleep(600)
        return real_part(self, disks)

    monkeypatch.setattr(blockdev._DeviceReader, "_part", stuck_in_child)
    monkeypatch.setattr(split_read, "CHILD_GRACE_S", 0.5)
    assert devices_json(root, processes=2, monkeypatch=monkeypatch) == serial
    assert no_children_left()


def test_an_error_here_leaves_no_reader(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An exception (Ctrl-C's KeyboardInterrupt too) while this process reads its own part kills and reaps
    the children before it propagates."""
    root = generated_root(tmp_path / "root")
    here = os.getpid()
    real_part = blockdev._DeviceReader._part

    def interrupted_here(self: blockdev._DeviceReader, disks: list[str]) -> object:
        if os.getpid() == here:
            raise KeyboardInterrupt
        return real_part(self, disks)

    monkeypatch.setattr(blockdev._DeviceReader, "_part", interrupted_here)
    with pytest.raises(KeyboardInterrupt):
        devices_json(root, processes=3, monkeypatch=monkeypatch)
    assert no_children_left()


STOPPED = textwrap.dedent("""
    import os, signal, sys, time
    from diskdoctor.app.cli.main import _prepare_process
    from diskdoctor.probes import split_read

    pidfile, how = sys.argv[1], sys.argv[2]
    _prepare_process()  # the CLI's own handlers: SIGTERM and SIGHUP end it through SystemExit

    def read(part):
        if part == ["child"]:
            with open(pidfile + ".tmp", "w") as out:
                out.write(str(os.getpid()))
            os.rename(pidfile + ".tmp", pidfile)
            time.sleep(60)
        while not os.path.exists(pidfile):
            time.sleep(0.01)
        if how == "error":
            raise RuntimeError("probe bug")
        os.kill(os.getpid(), getattr(signal, how))
        time.sleep(60)

    split_read.read_split(read, ["here", "child"], 2, lambda got: got, lambda got: got)
""")


def gone(pid: int) -> bool:
    """The process has ended (reaped, or a zombie waiting for its new parent)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT", "SIGHUP", "SIGKILL", "error"])
def test_a_stopped_command_leaves_no_reader(tmp_path: Path, how: str) -> None:
    """The command stopped by a signal (SIGKILL too: the kernel's parent-death signal) or failing while a
    child reads: the child ends with it."""
    pidfile = tmp_path / "child.pid"
    done = subprocess.run([sys.executable, "-c", STOPPED, str(pidfile), how], capture_output=True, text=True,
                          timeout=30, check=False)
    assert done.returncode != 0, done
    pid = int(pidfile.read_text())
    deadline = time.monotonic() + 10
    while not gone(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert gone(pid), f"reader {pid} still running after {how}"
    if how == "SIGKILL":
        assert done.returncode == -signal.SIGKILL


def test_parts_share_out_every_item_once() -> None:
    items = [f"d{index}" for index in range(10)]
    for count in (1, 2, 3, 4):
        cut = split_read.parts(items, count)
        assert sorted(item for part in cut for item in part) == sorted(items)
        assert max(map(len, cut)) - min(map(len, cut)) <= 1


@pytest.mark.parametrize("processes", [2, 3])
def test_every_part_read_in_children_reads_the_same(tmp_path: Path, processes: int,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """`read_here=False` (the TUI's early read of a big host): every part read by a child, none here, with the
    serial read's result; a child that fails has its part read here."""
    root = generated_root(tmp_path / "root")
    serial = devices_json(root, processes=1, monkeypatch=monkeypatch)
    sent = children_sent(monkeypatch)
    monkeypatch.setattr(blockdev, "SPLIT_FROM_DEVICES", 1)
    monkeypatch.setattr(split_read, "usable_cpus", lambda: processes)
    here = os.getpid()
    read_here: list[list[str]] = []
    real_part = blockdev._DeviceReader._part

    def noted(self: blockdev._DeviceReader, disks: list[str]) -> object:
        if os.getpid() == here:
            read_here.append(list(disks))
        return real_part(self, disks)

    monkeypatch.setattr(blockdev._DeviceReader, "_part", noted)
    host = read_host(Root(str(root), live=False), read_here=False)
    assert json.dumps([devices_document(host), host.warnings], indent=1) == serial
    assert sent == [True] * processes and read_here == []
    assert no_children_left()

    def failing_in_child(self: blockdev._DeviceReader, disks: list[str]) -> object:
        if os.getpid() != here:
            raise RuntimeError("reader bug")
        return real_part(self, disks)

    monkeypatch.setattr(blockdev._DeviceReader, "_part", failing_in_child)
    host = read_host(Root(str(root), live=False), read_here=False)
    assert json.dumps([devices_document(host), host.warnings], indent=1) == serial
    assert no_children_left()
