"""Scratch directories tagged with their owner (pid and start time), so a later run can remove those of
processes that died without cleaning up (SIGKILL, power loss), and removal that no tree can overflow."""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile

from .root import parse_int

OWNER_TAG = re.compile(r"(\d+)-(\d+)-")


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


def make_owned_dir(prefix: str, parent: str | None = None) -> str:
    """mkdtemp (mode 0700) with the owner tag in its name; stale siblings of dead owners are removed first."""
    folder = parent if parent is not None else tempfile.gettempdir()
    remove_stale(folder, prefix)
    return tempfile.mkdtemp(prefix=prefix + owner_tag(), dir=parent)


def remove_stale(folder: str, prefix: str) -> list[str]:
    """Remove `prefix`* directories in `folder` whose owner process is gone; returns what was removed."""
    removed = []
    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix)]
    except OSError:
        return removed
    for name in names:
        path = os.path.join(folder, name)
        if not owner_alive(name, prefix) and os.path.isdir(path) and not os.path.islink(path):
            remove_tree(path)
            removed.append(path)
    return removed


def remove_tree(path: str) -> None:
    """Delete a directory tree without recursion (any depth) and without following symlinks."""
    pending = [path]
    emptied: list[str] = []
    while pending:
        folder = pending.pop()
        emptied.append(folder)
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                is_dir = stat.S_ISDIR(entry.stat(follow_symlinks=False).st_mode)
            except OSError:
                continue
            if is_dir:
                pending.append(entry.path)
            else:
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
    for folder in reversed(emptied):
        with contextlib.suppress(OSError):
            os.rmdir(folder)
