"""Fixtures for WAL benchmark tests: a tmpfs directory and small real loop-device filesystems."""

from __future__ import annotations

import contextlib
import os
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import live_prerequisites

from support.loop_stack import sh

MIB = 1 << 20
LOSETUP_TRIES = 8


def tmpfs_parent() -> str | None:
    """/dev/shm when it is a tmpfs (almost every Linux), else None."""
    with open("/proc/self/mountinfo", encoding="utf-8") as handle:
        for line in handle:
            fields = line.split()
            if fields[4] == "/dev/shm" and fields[fields.index("-") + 1] == "tmpfs":
                return "/dev/shm"
    return None


@pytest.fixture
def tmpfs_dir() -> Iterator[str]:
    """A fresh directory on tmpfs, removed afterwards."""
    parent = tmpfs_parent()
    if parent is None:
        pytest.skip("no tmpfs at /dev/shm")
    path = tempfile.mkdtemp(prefix="wal-test-", dir=parent)
    try:
        yield path
    finally:
        subprocess.run(["rm", "-rf", path], check=False)


def _attach(image: Path) -> str:
    """losetup --find --show, retried: another test run may grab the same free loop at once."""
    error: Exception | None = None
    for _ in range(LOSETUP_TRIES):
        try:
            return sh("losetup", "--find", "--show", str(image))
        except RuntimeError as err:
            error = err
    raise RuntimeError(f"no free loop device: {error}")


def loop_ext4(workdir: Path, name: str, size_mib: int) -> Iterator[str]:
    """An ext4 filesystem on a real loop device, mounted under `workdir`; yields the mountpoint."""
    why = live_prerequisites()
    if why:
        pytest.skip(why)
    image, mountpoint = workdir / f"{name}.img", workdir / f"mnt-{name}"
    with open(image, "wb") as handle:
        handle.truncate(size_mib * MIB)
    device = _attach(image)
    try:
        sh("mkfs.ext4", "-q", "-F", "-m", "0", device)
        mountpoint.mkdir()
        sh("mount", device, str(mountpoint))
        yield str(mountpoint)
    finally:
        subprocess.run(["umount", str(mountpoint)], capture_output=True, check=False)
        subprocess.run(["losetup", "-d", device], capture_output=True, check=False)
        image.unlink(missing_ok=True)


def fill(directory: str) -> None:
    """Take every free block of the filesystem with one file."""
    fd = os.open(os.path.join(directory, "filler"), os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        offset, chunk = 0, 256 << 10
        while True:
            try:
                os.posix_fallocate(fd, offset, chunk)
            except OSError:
                if chunk <= 4096:
                    break
                chunk //= 2
                continue
            offset += chunk
    finally:
        os.close(fd)


@contextlib.contextmanager
def read_only_tmpfs(where: Path) -> Iterator[Path]:
    """A small read-only tmpfs mounted at `where` (created); unmounted afterwards. Needs root."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    where.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64m", "tmpfs", str(where)], check=True)
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=False)


@contextlib.contextmanager
def small_tmpfs(where: Path, size: str = "150m") -> Iterator[Path]:
    """A small writable tmpfs mounted at `where` (created): a filesystem too small for the default
    compaction and randwrite runs; unmounted afterwards. Needs root."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    where.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], check=True)
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=False)
