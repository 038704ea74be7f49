"""The files a WAL run writes: etcd's segments (framed records, 64 MB preallocated segment files, a cut
when one is full) or one plain preallocated file (fio's etcd job); each saves a batch with one sync.

What etcd 3.4 does, from its `wal` package (wal.go, encoder.go, file_pipeline.go): a save encodes each raft
entry as a walpb.Record, frames it with an 8-byte length and pads it to 8 bytes, adds the raft HardState
record, flushes them in one write() and calls fdatasync once. Segments are created by a pipeline that
preallocates the next one (`N.tmp`, fallocate mode 0) ahead of time; a segment at 64,000,000 bytes is cut:
truncated, synced, the next one renamed into place with its header records, synced, and the directory
fsynced. strace of etcd 3.4.23 shows one 2,104-byte write and one fdatasync per 2,000-byte put.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from collections.abc import Callable

from ..wal_target import TargetError

RECORD_OVERHEAD = 21
"""walpb.Record{type, crc, data=raftpb.Entry{term, index, type, data}} around an entry's data: ~21 bytes."""
STATE_FRAME = 32
"""The HardState record (term, vote, commit) framed and padded: 32 bytes."""
HEADER_BYTES = 64
"""A new segment's crc, metadata and snapshot/state records."""
MAX_BATCH_BYTES = 1 << 20
"""etcd's encoder buffer: a batch larger than this goes out in more than one save."""


def frame(data_bytes: int) -> int:
    """An encoded record's bytes on disk: the 8-byte length field plus the data padded to 8 bytes."""
    return 8 + data_bytes + (-data_bytes) % 8


def entry_frame(bs: int) -> int:
    """The framed record of one raft entry carrying `bs` bytes of request."""
    return frame(bs + RECORD_OVERHEAD)


def segment_name(seq: int, index: int) -> str:
    """etcd's segment file name: sequence and first raft index, 16 hex digits each."""
    return f"{seq:016x}-{index:016x}.wal"


def _create(path: str) -> int:
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)


def preallocate(fd: int, size: int) -> None:
    """fallocate(fd, 0, 0, size), as etcd's fileutil.Preallocate(extend=true); a one-line error where the
    filesystem cannot."""
    try:
        os.posix_fallocate(fd, 0, size)
    except OSError as err:
        if err.errno in (errno.EOPNOTSUPP, errno.EINVAL):
            raise TargetError("this filesystem cannot preallocate files (fallocate); "
                              "run with --no-prealloc") from err
        raise


def write_all(fd: int, data: memoryview) -> None:
    """write() the whole buffer (finishing a short write); ENOSPC surfaces as an OSError."""
    done = os.write(fd, data)
    while done < len(data):
        done += os.write(fd, data[done:])


class EtcdSegments:
    """etcd's WAL files in `directory`: `save(n)` writes n entries and the state record, syncs once, and
    cuts to the next segment when this one is full (old segments are removed, as etcd's purge does later,
    so the scratch space stays two segments). The next segment is preallocated right after a cut, inside
    that save; etcd's pipeline does it on its own goroutine, so one write in 30,000 here pays for it."""

    def __init__(self, directory: str, bs: int, segment_bytes: int, sync: Callable[[int], None], *,
                 prealloc: bool, add_sync: Callable[[int], None], add_write: Callable[[int], None]) -> None:
        self.directory, self.segment_bytes, self.prealloc = directory, segment_bytes, prealloc
        self.sync, self.add_sync, self.add_write = sync, add_sync, add_write
        self.entry = entry_frame(bs)
        self.max_batch = max(1, (MAX_BATCH_BYTES - STATE_FRAME) // self.entry)
        self.buffer = memoryview(os.urandom(self.max_batch * self.entry + STATE_FRAME + HEADER_BYTES))
        self.seq = self.index = self.offset = 0
        self.fd = self.next_fd = -1
        self.path = self.next_path = ""
        self.dir_fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            self._allocate_next()
            self._take_next()
            self._allocate_next()
        except BaseException:
            self.close()
            raise

    def _allocate_next(self) -> None:
        """The file pipeline: the next segment, preallocated ahead of its use."""
        self.next_path = os.path.join(self.directory, f"{self.seq % 2}.tmp")
        self.next_fd = _create(self.next_path)
        if self.prealloc:
            preallocate(self.next_fd, self.segment_bytes)

    def _take_next(self) -> None:
        """Put the pipeline's file in place: header records, sync, rename, fsync the directory."""
        fd, tmp = self.next_fd, self.next_path
        self.next_fd, self.next_path = -1, ""
        write_all(fd, self.buffer[:HEADER_BYTES])
        self._timed_sync(fd)
        path = os.path.join(self.directory, segment_name(self.seq, self.index))
        os.rename(tmp, path)
        os.fsync(self.dir_fd)
        old_fd, old_path = self.fd, self.path
        self.fd, self.path, self.offset = fd, path, HEADER_BYTES
        if old_fd >= 0:
            os.close(old_fd)
            os.unlink(old_path)

    def _timed_sync(self, fd: int) -> None:
        t0 = time.perf_counter_ns()
        self.sync(fd)
        self.add_sync(time.perf_counter_ns() - t0)

    def save(self, count: int) -> None:
        """One raft save of `count` entries: one write, one sync, and a cut when the segment is full."""
        nbytes = count * self.entry + STATE_FRAME
        t0 = time.perf_counter_ns()
        write_all(self.fd, self.buffer[:nbytes])
        self.add_write(time.perf_counter_ns() - t0)
        self.offset += nbytes
        self.index += count
        if self.offset < self.segment_bytes:
            self._timed_sync(self.fd)
            return
        os.ftruncate(self.fd, self.offset)  # etcd's cut: truncate, sync, then the next segment
        self._timed_sync(self.fd)
        self.seq += 1
        self._take_next()
        self._allocate_next()

    def close(self) -> None:
        """Close every descriptor (the run's scratch directory removal deletes the files)."""
        for fd in (self.fd, self.next_fd, self.dir_fd):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.fd = self.next_fd = self.dir_fd = -1


class RawFile:
    """One preallocated file of `size` bytes written in `bs`-byte blocks (fio's etcd job), wrapping to its
    start when full; `save(n)` writes n blocks (one write, split only at the file's end) and syncs once.
    `buffer` holds at least `max_batch` blocks (page-aligned for O_DIRECT)."""

    def __init__(self, fd: int, bs: int, size: int, sync: Callable[[int], None] | None,
                 buffer: bytes | memoryview, *, add_sync: Callable[[int], None],
                 add_write: Callable[[int], None]) -> None:
        self.fd, self.bs, self.size, self.sync = fd, bs, size, sync
        self.add_sync, self.add_write = add_sync, add_write
        self.buffer = memoryview(buffer)
        self.max_batch = max(1, min(len(self.buffer), size) // bs)
        self.offset = 0

    def save(self, count: int) -> None:
        """`count` blocks, then one sync (none for O_DSYNC, whose write is the durable call)."""
        t0 = time.perf_counter_ns()
        remaining = count * self.bs
        while remaining:
            if self.offset + self.bs > self.size:
                os.lseek(self.fd, 0, os.SEEK_SET)
                self.offset = 0
            chunk = min(remaining, (self.size - self.offset) // self.bs * self.bs)
            write_all(self.fd, self.buffer[:chunk])
            self.offset += chunk
            remaining -= chunk
        t1 = time.perf_counter_ns()
        self.add_write(t1 - t0)
        if self.sync is not None:
            self.sync(self.fd)
            self.add_sync(time.perf_counter_ns() - t1)
        else:
            self.add_sync(t1 - t0)
