"""Copy chosen paths of a live tree into a capture folder, keeping symlinks exactly as they are."""

from __future__ import annotations

import os
import stat

PSEUDO_LINKS = frozenset({"proc/self", "proc/thread-self"})
MAX_LINK_HOPS = 40


class TreeCopier:
    """Replicates paths from `source` under `dest`: symlinks as symlinks, files by content."""

    def __init__(self, source: str, dest: str) -> None:
        self.source = source
        self.dest = dest
        self.unreadable: dict[str, str] = {}
        self.files = 0
        self._done: set[tuple[str, bool]] = set()

    def copy(self, rel: str, *, follow_last: bool = True, hops: int = 0) -> None:
        """Copy `rel` and every symlink met on the way to it; a missing path is skipped."""
        key = (rel, follow_last)
        if key in self._done or hops > MAX_LINK_HOPS:
            return
        self._done.add(key)
        parts = [p for p in rel.split("/") if p]
        current = ""
        for index, part in enumerate(parts):
            step = f"{current}/{part}" if current else part
            last = index == len(parts) - 1
            try:
                info = os.lstat(os.path.join(self.source, step))
            except OSError:
                return
            if stat.S_ISLNK(info.st_mode) and step not in PSEUDO_LINKS:
                target = os.readlink(os.path.join(self.source, step))
                self._symlink(step, target)
                if last and not follow_last:
                    return
                resolved = target.lstrip("/") if target.startswith("/") else \
                    os.path.normpath(os.path.join(current, target))
                if resolved.startswith(".."):
                    return
                rest = "/".join(parts[index + 1 :])
                self.copy(f"{resolved}/{rest}" if rest else resolved, follow_last=follow_last,
                          hops=hops + 1)
                return
            if stat.S_ISDIR(info.st_mode) or step in PSEUDO_LINKS:
                os.makedirs(os.path.join(self.dest, step), exist_ok=True)
                current = step
                continue
            if last and stat.S_ISREG(info.st_mode):
                self._file(step, info)
            return

    def copy_listing(self, rel: str) -> None:
        """Copy a directory's entries so listing it replays the same: links as links, and regular files
        as empty stand-ins (a listing needs their names; a file the probes read is copied whole by
        `copy`, which runs first, so a unit folder never brings along other services' secrets)."""
        self.copy(rel)
        real = os.path.join(self.source, rel)
        try:
            names = os.listdir(real)
        except OSError:
            return
        for name in names:
            try:
                regular = stat.S_ISREG(os.lstat(os.path.join(real, name)).st_mode)
            except OSError:
                continue
            if regular:
                self.stand_in(f"{rel}/{name}")
            else:
                self.copy(f"{rel}/{name}", follow_last=False)

    def stand_in(self, rel: str) -> None:
        """An empty file (same mode) where the probes only asked whether `rel` exists (a daemon binary)."""
        try:
            info = os.stat(os.path.join(self.source, rel))
        except OSError:
            return
        path = os.path.join(self.dest, rel)
        if os.path.lexists(path):
            return
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb"):
            pass
        os.chmod(path, stat.S_IMODE(info.st_mode))

    def _symlink(self, step: str, target: str) -> None:
        path = os.path.join(self.dest, step)
        if os.path.lexists(path):
            return
        os.makedirs(os.path.dirname(path), exist_ok=True)
        os.symlink(target, path)

    def _file(self, step: str, info: os.stat_result) -> None:
        path = os.path.join(self.dest, step)
        if os.path.lexists(path):
            return
        try:
            with open(os.path.join(self.source, step), "rb") as handle:
                data = handle.read()
        except OSError as err:
            self.unreadable["/" + step] = err.strerror or str(err)
            return
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as out:
            out.write(data)
        os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
        self.files += 1
