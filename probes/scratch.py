"""Scratch directories tagged with their owner (pid and start time), so a later run can remove those of
processes that died without cleaning up (SIGKILL, power loss); and removal that a local user cannot
turn against anything else: only this user's directories, by descriptor, never following a link."""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import re
import secrets
import stat
import tempfile
from collections.abc import Iterator

from .root import parse_int

OWNER_TAG = re.compile(r"(\d+)-(\d+)-")
OPEN_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
"""A directory itself: a symlink in its place fails (ELOOP) instead of being followed."""
PRIVATE_MODE = 0o700
PRIVATE_PREFIX = "diskdoctor-"
"""$TMPDIR/diskdoctor-UID holds this user's extraction and capture scratch (removed when empty)."""
PRIVATE_TRIES = 3
NAME_TRIES = 100
HOISTED = ".diskdoctor-rm-"
"""Names for deep directories moved up during a removal (inside the tree being removed)."""
TAKEN = (errno.EEXIST, errno.ENOTEMPTY, errno.ENOTDIR, errno.EISDIR)


class NotPrivate(Exception):
    """The private temp folder's name holds something this user did not make (a link, a file, another
    user's folder): scratch is never put there."""


def proc_stat(pid: int) -> tuple[int, int] | None:
    """(parent pid, start time in clock ticks since boot) from /proc/PID/stat, or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().decode("ascii", "replace").rsplit(")", 1)[-1].split()
    except OSError:
        return None
    parent, started = (parse_int(fields[1]), parse_int(fields[19])) if len(fields) > 19 else (None, None)
    return None if parent is None or started is None else (parent, started)


def _start_time(pid: int) -> int | None:
    stat_fields = proc_stat(pid)
    return stat_fields[1] if stat_fields else None


def owner_tag(pid: int | None = None) -> str:
    """"PID-STARTTIME-" for this process (or `pid`): unique even when pids are reused."""
    pid = os.getpid() if pid is None else pid
    return f"{pid}-{_start_time(pid) or 0}-"


def owner_alive(name: str, prefix: str) -> bool:
    """Whether the process that made scratch dir `name` (prefix + owner tag + random) still runs."""
    match = OWNER_TAG.match(name[len(prefix):])
    if match is None:
        return True
    pid, started = int(match[1]), int(match[2])
    return _start_time(pid) == started if started else os.path.exists(f"/proc/{pid}")


def private_temp_dir() -> str:
    """$TMPDIR/diskdoctor-UID, this user's mode-0700 folder for scratch, made when missing (see
    `_open_private_temp_dir`)."""
    path, fd = _open_private_temp_dir()
    os.close(fd)
    return path


def _open_private_temp_dir() -> tuple[str, int]:
    """$TMPDIR/diskdoctor-UID and a descriptor of it, made when missing.

    In a shared $TMPDIR (/tmp) another user may create the name first: a link, a file or a folder
    someone else owns raises NotPrivate; this user's own folder with a looser mode is tightened."""
    path = os.path.join(tempfile.gettempdir(), f"{PRIVATE_PREFIX}{os.geteuid()}")
    with contextlib.suppress(FileExistsError):
        os.mkdir(path, PRIVATE_MODE)
    try:
        fd = os.open(path, OPEN_DIR)
    except OSError as err:
        if err.errno in (errno.ELOOP, errno.ENOTDIR):
            raise NotPrivate(f"{path} is not a private folder of this user (something else has its "
                             "name); remove it, or set TMPDIR to a private folder") from err
        raise
    try:
        info = os.fstat(fd)
        if info.st_uid != os.geteuid():
            raise NotPrivate(f"{path} is not a private folder of this user (owned by uid {info.st_uid}); "
                             "remove it, or set TMPDIR to a private folder")
        if stat.S_IMODE(info.st_mode) != PRIVATE_MODE:
            os.fchmod(fd, PRIVATE_MODE)
    except BaseException:
        os.close(fd)
        raise
    return path, fd


def make_owned_dir(prefix: str, parent: str | None = None) -> str:
    """A new mode-0700 directory named `prefix`, the owner tag and random characters, in `parent` or
    else this user's private temp folder; stale siblings of dead owners are removed first. It is made
    through a descriptor of the folder checked just before, so the name cannot be redirected meanwhile."""
    if parent is not None:
        fd = os.open(parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            _sweep(fd, parent, prefix)
            return os.path.join(parent, _make_at(fd, prefix + owner_tag()))
        finally:
            os.close(fd)
    remove_stale(tempfile.gettempdir(), prefix)  # where earlier versions put them
    for attempt in range(PRIVATE_TRIES):
        path, fd = _open_private_temp_dir()
        try:
            _sweep(fd, path, prefix)
            return os.path.join(path, _make_at(fd, prefix + owner_tag()))
        except FileNotFoundError:  # another run removed the empty private folder just now
            if attempt == PRIVATE_TRIES - 1:
                raise
        finally:
            os.close(fd)
    raise AssertionError("unreachable")


def _make_at(parent: int, stem: str) -> str:
    """mkdir `stem` + random characters (mode 0700) in the directory open as `parent`; its name."""
    for _ in range(NAME_TRIES):
        name = stem + secrets.token_hex(4)
        try:
            os.mkdir(name, PRIVATE_MODE, dir_fd=parent)
        except FileExistsError:
            continue
        return name
    raise FileExistsError(errno.EEXIST, f"no free name for a new {stem}* directory")


def remove_stale(folder: str, prefix: str) -> list[str]:
    """Remove `prefix`* directories in `folder` whose owner process is gone; returns what was removed.

    Only directories this user made (its own, mode 0700) are touched: in a shared folder anyone can
    create such a name, or swap one with a link while this runs."""
    try:
        parent = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return []
    try:
        return _sweep(parent, folder, prefix)
    finally:
        os.close(parent)


def _sweep(parent: int, folder: str, prefix: str) -> list[str]:
    names = [name for name, _ in _listing(parent) if name.startswith(prefix)]
    return [os.path.join(folder, name) for name in names
            if not owner_alive(name, prefix) and _remove_at(parent, name, private=True)]


def remove_tree(path: str) -> bool:
    """Delete the directory `path` with everything in it, if it is a directory (not a link) this user
    owns; whether it went. By descriptor, at any depth, never following a link. The private temp folder
    holding it goes too once empty, so /tmp is left as it was found."""
    folder, name = os.path.split(os.path.abspath(path))
    try:
        parent = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        return _remove_at(parent, name, private=False)
    finally:
        os.close(parent)
        base, private = os.path.split(folder)
        if private == f"{PRIVATE_PREFIX}{os.geteuid()}" and base == tempfile.gettempdir():
            _remove_if_empty(base, private)


def _remove_if_empty(folder: str, name: str) -> None:
    """rmdir `name` in `folder` if it is this user's directory and empty (another run may be using it)."""
    try:
        parent = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        fd = os.open(name, OPEN_DIR, dir_fd=parent)
        try:
            info = os.fstat(fd)
        finally:
            os.close(fd)
        now = os.stat(name, dir_fd=parent, follow_symlinks=False)
        if info.st_uid == os.geteuid() and (now.st_dev, now.st_ino) == (info.st_dev, info.st_ino):
            os.rmdir(name, dir_fd=parent)  # ENOTEMPTY while another run extracts there
    except OSError:
        pass
    finally:
        os.close(parent)


def open_owned_dir(path: str) -> int:
    """A descriptor of directory `path` if it is a directory (not a link) this user owns, else OSError:
    what is done through it stays there even if the name is swapped for a link afterwards."""
    fd = os.open(path, OPEN_DIR)
    if os.fstat(fd).st_uid != os.geteuid():
        os.close(fd)
        raise PermissionError(errno.EPERM, "not a directory of this user", path)
    return fd


def empty_dir(fd: int) -> None:
    """Delete everything inside the directory open as `fd` (see `_empty`)."""
    _empty(fd)


def _remove_at(parent: int, name: str, *, private: bool) -> bool:
    """Remove directory `name` of the directory open as `parent` if this user owns it (and, when
    `private`, only this user may enter it); whether it went."""
    try:
        fd = os.open(name, OPEN_DIR, dir_fd=parent)
    except OSError:  # gone, a link (ELOOP) or not a directory
        return False
    try:
        info = os.fstat(fd)
        if info.st_uid != os.geteuid() or (private and stat.S_IMODE(info.st_mode) & 0o077):
            return False
        _empty(fd)
    finally:
        os.close(fd)
    try:  # the name may have been swapped meanwhile: remove only the directory just emptied
        now = os.stat(name, dir_fd=parent, follow_symlinks=False)
        if (now.st_dev, now.st_ino) != (info.st_dev, info.st_ino):
            return False
        os.rmdir(name, dir_fd=parent)
    except OSError:
        return False
    return True


def _empty(top: int) -> None:
    """Delete everything inside the directory open as `top`, at any depth with two directories open:
    each subdirectory's files are unlinked in it, its own subdirectories moved up into `top`
    (renameat), and it is removed; passes repeat until one changes nothing (empty, or stuck)."""
    hoisted = itertools.count()
    while True:
        done = 0
        for name, is_dir in _listing(top):
            if not is_dir:
                done += _unlink(top, name)
                continue
            try:
                sub = os.open(name, OPEN_DIR, dir_fd=top)
            except OSError:
                done += _unlink(top, name)  # no longer a directory
                continue
            try:
                for inner, inner_is_dir in _listing(sub):
                    done += _hoist(sub, inner, top, hoisted) if inner_is_dir else _unlink(sub, inner)
            finally:
                os.close(sub)
            with contextlib.suppress(OSError):
                os.rmdir(name, dir_fd=top)
                done += 1
        if not done:
            return


def _listing(fd: int) -> list[tuple[str, bool]]:
    """(name, is a directory, not following links) for each entry of the directory open as `fd`."""
    def entries() -> Iterator[tuple[str, bool]]:
        with os.scandir(fd) as found:
            for entry in found:
                try:
                    yield entry.name, entry.is_dir(follow_symlinks=False)
                except OSError:
                    yield entry.name, False
    try:
        return list(entries())
    except OSError:
        return []


def _unlink(fd: int, name: str) -> int:
    try:
        os.unlink(name, dir_fd=fd)
    except OSError:
        return 0
    return 1


def _hoist(sub: int, name: str, top: int, numbers: Iterator[int]) -> int:
    """Move directory `name` of `sub` up into `top` under a fresh name; 1 if it moved."""
    while True:
        try:
            os.rename(name, f"{HOISTED}{next(numbers)}", src_dir_fd=sub, dst_dir_fd=top)
            return 1
        except OSError as err:
            if err.errno not in TAKEN:
                return 0
