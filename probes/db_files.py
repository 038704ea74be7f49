"""Which database file a path is (etcd's WAL or its bbolt backend, PostgreSQL's WAL, RocksDB's SST files...),
so that per-call latencies are told apart by the role the file plays."""

from __future__ import annotations

import os
import re

FILE_CLASSES: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    ("wal", "etcd WAL", re.compile(r"/member/wal/[^/]*\.wal$")),
    ("backend", "etcd backend (bbolt db)", re.compile(r"/member/snap/db$")),
    ("snapshot", "etcd snapshot", re.compile(r"/member/snap/[^/]*\.snap(\.db)?$")),
    ("wal", "PostgreSQL WAL", re.compile(r"/pg_wal/")),
    ("data", "PostgreSQL data", re.compile(r"/(base|global|pg_xact|pg_multixact)/")),
    ("wal", "InnoDB redo log", re.compile(r"/(ib_logfile\d+|#innodb_redo/[^/]+)$")),
    ("binlog", "MySQL binary log", re.compile(r"/[^/]*bin(log)?\.\d{6}$")),
    ("data", "InnoDB data", re.compile(r"(\.ibd|/ibdata\d+|/undo_\d+|\.ibu)$")),
    ("wal", "RocksDB WAL", re.compile(r"/\d{6,}\.log$")),
    ("sst", "RocksDB SST", re.compile(r"\.sst$")),
    ("manifest", "RocksDB MANIFEST", re.compile(r"/MANIFEST-\d+$")),
    ("wal", "Elasticsearch translog", re.compile(r"/translog/")),
    ("data", "Lucene segment", re.compile(r"/index/[^/]+$")),
    ("wal", "Ceph BlueStore WAL", re.compile(r"/block\.wal$")),
)
"""(class, label, pattern): the first pattern that matches names the file; the class is what verdicts read."""
OTHER = ("other", "other file")
NOT_A_FILE = ("other", "not a file")


def classify_path(path: str) -> tuple[str, str]:
    """(class, label) of a file path: ("wal", "etcd WAL"), ("sst", "RocksDB SST"), ("other", "other file")."""
    if not path.startswith("/"):
        return NOT_A_FILE  # socket:[123], pipe:[4], anon_inode:...
    for name, label, pattern in FILE_CLASSES:
        if pattern.search(path):
            return name, label
    return OTHER


class FdPaths:
    """fd -> path of live processes through /proc/PID/fd, cached until `forget` (a closed fd number may be
    reused for another file, so the cache is dropped every interval)."""

    def __init__(self, proc: str = "/proc") -> None:
        self.proc = proc
        self._paths: dict[tuple[int, int], str] = {}
        self._tgids: dict[int, int] = {}

    def tgid(self, tid: int) -> int:
        """The process a thread belongs to (its Tgid in /proc/TID/status); the tid itself when gone."""
        found = self._tgids.get(tid)
        if found is None:
            found = tid
            try:
                with open(f"{self.proc}/{tid}/status", encoding="ascii", errors="replace") as handle:
                    for line in handle:
                        if line.startswith("Tgid:"):
                            found = int(line.split()[1])
                            break
            except (OSError, ValueError, IndexError):
                pass
            self._tgids[tid] = found
        return found

    def path(self, tid: int, fd: int) -> str:
        """The path behind `fd` of the thread `tid`'s process, or "fd N (closed)" when it is gone already."""
        key = (self.tgid(tid), fd)
        found = self._paths.get(key)
        if found is None:
            try:
                found = os.readlink(f"{self.proc}/{key[0]}/fd/{fd}")
            except OSError:
                found = f"fd {fd} (closed)"
            self._paths[key] = found
        return found

    def forget(self) -> None:
        """Drop the cached paths (kept: thread -> process, which never changes)."""
        self._paths.clear()
