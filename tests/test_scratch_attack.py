"""A local user racing the stale-scratch sweep: root deletes nothing outside its own scratch, and never
another user's directory.

The attacker runs as `nobody` in a world-writable directory (sticky like /tmp, or not). It plants
directories named like scratch of a dead diskdoctor run, each holding the same file names as a
root-owned victim directory, and swaps each with a symlink to the victim (renameat2 RENAME_EXCHANGE)
in a loop while root runs `devices --sysroot X.tar.gz` (sweeps $TMPDIR) and `bench wal --dir`
(sweeps the target directory). A sweep walking by path follows the link and deletes victim files."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from support.cli_runner import Result, assert_one_line_error, run_cli
from support.dead_owner import dead_tag
from support.hostile_roots import copy_fixture, tar_gz
from support.wal_support import tmpfs_dir

__all__ = ["tmpfs_dir"]
pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the attacker drops from root to nobody")

NOBODY = pwd.getpwnam("nobody").pw_uid
PAIRS = 8
FILES = 40
SYSROOT_PREFIX = "diskdoctor-sysroot-"
BENCH_PREFIX = ".diskdoctor-bench-"

ATTACKER = r"""
import ctypes, os, sys
folder, victim, nobody, files, plain, *stale = sys.argv[1:]
nobody, files = int(nobody), int(files)
libc = ctypes.CDLL(None, use_errno=True)
os.setgroups([])
os.setgid(nobody)
os.setuid(nobody)
assert os.getuid() == os.geteuid() == nobody
os.chdir(folder)
for name in [plain, *stale]:
    os.makedirs(name + "/sub")
    for i in range(files):
        for where in (name, name + "/sub"):
            with open(f"{where}/f{i:03d}", "w") as out:
                out.write("attacker\n")
for name in stale:
    os.symlink(victim, name + ".link")
print("ready", flush=True)
pairs = [(name.encode(), (name + ".link").encode()) for name in stale]
exchange = libc.renameat2
AT_FDCWD, RENAME_EXCHANGE = -100, 2
while True:
    for a, b in pairs:
        exchange(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE)  # fails only once root removed one of them
"""
"""Runs as root only to load the interpreter (it may live where nobody can read), then drops to nobody
for good before it touches anything."""


def victim_dir(parent: Path) -> Path:
    """A root-owned directory full of files, with the names the attacker's directories hold."""
    victim = parent / "victim"
    (victim / "sub").mkdir(parents=True)
    for i in range(FILES):
        (victim / f"f{i:03d}").write_text("root's\n")
        (victim / "sub" / f"f{i:03d}").write_text("root's\n")
    return victim


def victim_files(victim: Path) -> int:
    return sum(len(files) for _, _, files in os.walk(victim))


@contextmanager
def attacker(folder: Path, victim: Path, prefix: str) -> Iterator[tuple[str, list[str]]]:
    """The swapping attacker running as nobody in `folder`; yields (plain stale dir, swapped ones)."""
    tag = dead_tag()
    plain = f"{prefix}{tag}plain"
    stale = [f"{prefix}{tag}swap{n}" for n in range(PAIRS)]
    process = subprocess.Popen([sys.executable, "-I", "-c", ATTACKER, str(folder), str(victim), str(NOBODY),
                                str(FILES), plain, *stale], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "ready", process.stderr.read() if process.stderr else ""
        yield plain, stale
    finally:
        process.kill()
        process.wait()


def assert_attackers_dirs_intact(folder: Path, plain: str, stale: list[str]) -> None:
    """Every directory nobody made is still there with all its files (whichever name it has now)."""
    def intact(path: Path) -> bool:
        return path.is_dir() and not path.is_symlink() and path.lstat().st_uid == NOBODY and \
            victim_files(path) == 2 * FILES

    assert intact(folder / plain), "root removed another user's directory"
    for name in stale:
        here, there = folder / name, folder / (name + ".link")
        assert intact(here) or intact(there), f"root removed another user's directory {name}"


def world_writable(base: str, sticky: bool) -> Path:
    """A directory anyone may write to (mode 1777 like /tmp, or 0777)."""
    os.chmod(base, 0o711)  # others may pass through the private test folder, not list it
    folder = Path(base) / "shared"
    folder.mkdir()
    os.chmod(folder, 0o1777 if sticky else 0o777)
    return folder


@pytest.mark.parametrize("sticky", [True, False], ids=["sticky", "not-sticky"])
def test_sysroot_sweep_in_tmpdir_deletes_nothing_outside(tmp_path: Path, tmpfs_dir: str,
                                                         sticky: bool) -> None:
    victim = victim_dir(tmp_path)
    bundle = tar_gz(copy_fixture("etcd-raid0-lvm-luks", tmp_path), tmp_path / "b.tar.gz")
    tmp = world_writable(tmpfs_dir, sticky)
    with attacker(tmp, victim, SYSROOT_PREFIX) as (plain, stale):
        result = run_cli_env({"TMPDIR": str(tmp)}, "devices", "--sysroot", str(bundle))
    assert result.code == 0, result.err
    assert victim_files(victim) == 2 * FILES, "root deleted files outside its scratch"
    assert_attackers_dirs_intact(tmp, plain, stale)
    assert not [n for n in os.listdir(tmp) if n.startswith(SYSROOT_PREFIX) and
                os.lstat(tmp / n).st_uid != NOBODY]  # its own extraction is gone


@pytest.mark.parametrize("sticky", [True, False], ids=["sticky", "not-sticky"])
def test_bench_sweep_in_a_shared_target_deletes_nothing_outside(tmp_path: Path, tmpfs_dir: str,
                                                                sticky: bool) -> None:
    victim = victim_dir(tmp_path)
    target = world_writable(tmpfs_dir, sticky)
    with attacker(target, victim, BENCH_PREFIX) as (plain, stale):
        result = run_cli("bench", "wal", "--dir", str(target), "--size", "128k", "--bs", "4k", "--no-save")
    assert result.code in (0, 3), result.err  # 32 writes: INCONCLUSIVE (exit 3) is a finished run too
    assert victim_files(victim) == 2 * FILES, "root deleted files outside its scratch"
    assert_attackers_dirs_intact(target, plain, stale)
    assert all(os.lstat(target / n).st_uid == NOBODY for n in os.listdir(target))  # its own scratch is gone


RENAMER = r"""
import os, sys
folder, victim, nobody, prefix = sys.argv[1:]
os.setgroups([])
os.setgid(int(nobody))
os.setuid(int(nobody))
os.chdir(folder)
print("ready", flush=True)
moved = 0
while True:
    for name in os.listdir("."):
        if name.startswith(prefix) and not os.path.islink(name):
            try:
                os.rename(name, f".moved-{moved}")
                moved += 1
                os.symlink(victim, name)
            except OSError:
                pass
"""
"""As nobody: each scratch directory root makes in the shared folder is renamed away at once and a link
to the victim put in its place (no sticky bit: anyone may rename anything there)."""


def test_a_live_scratch_swapped_for_a_link_sends_nothing_elsewhere(tmp_path: Path, tmpfs_dir: str) -> None:
    """The engine and fio (under its guard) work in their scratch by descriptor, and remove it so."""
    victim = victim_dir(tmp_path)
    (victim / "wal.0").write_text("root's\n")  # the name the WAL run gives its file
    target = world_writable(tmpfs_dir, sticky=False)
    process = subprocess.Popen([sys.executable, "-I", "-c", RENAMER, str(target), str(victim), str(NOBODY),
                                BENCH_PREFIX], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None and process.stdout.readline().strip() == "ready"
        result = run_cli("bench", "wal", "--dir", str(target), "--bs", "4k", "--duration", "0.5",
                         *(["--fio"] if shutil.which("fio") else []), "--no-save")
    finally:
        process.kill()
        process.wait()
    assert "Traceback" not in result.err
    assert victim_files(victim) == 2 * FILES + 1, "root deleted or wrote files outside its scratch"
    assert (victim / "wal.0").read_text() == "root's\n"
    for name in os.listdir(target):  # what root made and the attacker moved away is left empty
        path = target / name
        assert path.is_symlink() or (path.is_dir() and os.listdir(path) == []), name


def test_a_private_folder_planted_by_another_user_is_refused(tmp_path: Path, tmpfs_dir: str) -> None:
    """$TMPDIR/diskdoctor-UID made by someone else (here a link to a root folder) is never used."""
    bundle = tar_gz(copy_fixture("etcd-raid0-lvm-luks", tmp_path), tmp_path / "b.tar.gz")
    tmp = world_writable(tmpfs_dir, True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    planted = tmp / f"diskdoctor-{os.geteuid()}"
    planted.symlink_to(elsewhere)
    os.lchown(planted, NOBODY, NOBODY)
    assert_one_line_error(run_cli_env({"TMPDIR": str(tmp)}, "devices", "--sysroot", str(bundle)),
                          f"{planted} is not a private folder of this user")
    assert os.listdir(elsewhere) == []
    planted.unlink()
    planted.mkdir(mode=0o700)
    os.chown(planted, NOBODY, NOBODY)
    assert_one_line_error(run_cli_env({"TMPDIR": str(tmp)}, "devices", "--sysroot", str(bundle)),
                          f"{planted} is not a private folder of this user")
    assert os.listdir(planted) == []


def run_cli_env(env: dict[str, str], *args: str) -> Result:
    """`run_cli` with extra environment variables for the CLI child."""
    old = {key: os.environ.get(key) for key in env}
    os.environ.update(env)
    try:
        return run_cli(*args)
    finally:
        for key, value in old.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
