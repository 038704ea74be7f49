"""The WAL workload: sequential writes each made durable (etcd's fio check), timing write and sync calls."""

from __future__ import annotations

import contextlib
import errno
import mmap
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...diskstats import DiskDelta
from ...host_load import HostLoad
from ...latency_histogram import LatencyHistogram
from ...wal_params import WalParams
from ...wal_target import TargetError
from ..streams import LatencyStreams
from .write_stream import WriteStreamFields, write_stream_fields, write_stream_json

if TYPE_CHECKING:
    from ..runtime import EngineContext

__all__ = ["WalParams", "WalResult", "run"]


@dataclass
class WalResult:
    """The whole run: writes, duration, ops/s, sync and write() latency histograms, per-layer totals."""

    samples: int
    duration_s: float
    ops_per_s: float | None
    sync: LatencyHistogram
    write: LatencyHistogram
    layers: list[DiskDelta] = field(default_factory=list)
    host: HostLoad | None = None

    def to_json(self) -> dict[str, object]:
        """The result's figures in `bench wal --json`'s shape, plus the raw histograms to rebuild it."""
        return write_stream_json(WriteStreamFields(self.samples, self.duration_s, self.ops_per_s, self.sync,
                                                   self.write, self.layers, self.host))

    @classmethod
    def from_json(cls, data: dict[str, object]) -> WalResult:
        """Rebuild the typed result from `to_json` (or a saved `bench wal --json` document)."""
        f = write_stream_fields(data)
        return cls(f.samples, f.duration_s, f.ops_per_s, f.sync, f.write, f.layers, f.host)


def _open_flags(sync: str) -> int:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    if sync == "dsync":
        flags |= os.O_DSYNC
    if sync == "direct-fdatasync":
        flags |= os.O_DIRECT
    return flags


def open_scratch_file(path: str, flags: int, size: int, prealloc: bool, *, direct: bool) -> int:
    """Create a scratch file (O_EXCL, no symlinks) and preallocate it; one-line errors for what a
    filesystem cannot do (O_DIRECT, fallocate)."""
    try:
        fd = os.open(path, flags, 0o600)
    except OSError as err:
        if err.errno == errno.EINVAL and direct:
            with contextlib.suppress(FileNotFoundError):  # the kernel creates the file before refusing
                os.unlink(path)
            raise TargetError("this filesystem does not support O_DIRECT (choose another --sync)") from err
        raise
    if prealloc:
        try:
            os.posix_fallocate(fd, 0, size)
        except OSError as err:
            os.close(fd)
            if err.errno in (errno.EOPNOTSUPP, errno.EINVAL):
                raise TargetError("this filesystem cannot preallocate files (fallocate); "
                                  "run with --no-prealloc") from err
            raise
        os.fsync(fd)
    return fd


def aligned_random(size: int, direct: bool) -> bytes | mmap.mmap:
    """Incompressible data; page-aligned (an anonymous mmap) when O_DIRECT needs it."""
    if not direct:
        return os.urandom(size)
    buffer = mmap.mmap(-1, size)
    buffer.write(os.urandom(size))
    return buffer


def run(params: WalParams, ctx: EngineContext) -> WalResult:
    """Write until the size or duration is done, streaming intervals; return the whole run."""
    direct = params.sync == "direct-fdatasync"
    fd = open_scratch_file(os.path.join(ctx.scratch, "wal.0"), _open_flags(params.sync), params.size,
                           params.prealloc, direct=direct)
    try:
        return _measure(params, ctx, fd, aligned_random(params.bs, direct))
    finally:
        os.close(fd)


def _measure(params: WalParams, ctx: EngineContext, fd: int, buffer: bytes | mmap.mmap) -> WalResult:
    """Write in chunks that end at the file's end, the planned count or the next interval; emit intervals."""
    clock, bs, size = time.perf_counter_ns, params.bs, params.size
    planned = params.planned_writes
    limit = planned or (1 << 62)
    streams = LatencyStreams("sync", "write")
    chunk = _chunk_writer(params, ctx, fd, buffer, streams)
    period_ns = int(ctx.config.interval_s * 1e9)
    ops = offset = 0
    start = clock()
    deadline = start + int(params.duration_s * 1e9) if params.duration_s else 1 << 62
    next_check = min(start + period_ns, deadline)
    last_emit, last_ops = start, 0
    while True:
        if offset + bs > size:
            os.lseek(fd, 0, os.SEEK_SET)
            offset = 0
        done, t2 = chunk(min((size - offset) // bs, limit - ops), next_check, start)
        offset += done * bs
        ops += done
        if t2 >= next_check or ops >= limit:
            finished = ops >= limit or t2 >= deadline
            progress = ops / planned if planned else (t2 - start) / (deadline - start)
            ctx.interval((t2 - start) / 1e9, ops, progress, streams.flush(),
                         bytes_written=(ops - last_ops) * bs, seconds=(t2 - last_emit) / 1e9)
            if finished:
                break
            last_emit, last_ops = t2, ops
            next_check = min(clock() + period_ns, deadline)
    elapsed = (t2 - start) / 1e9
    return WalResult(ops, round(elapsed, 4), round(ops / elapsed, 2) if elapsed > 0 else None,
                     streams.totals["sync"], streams.totals["write"], ctx.disks.total())


Chunk = Callable[[int, int, int], tuple[int, int]]
"""chunk(count, until_ns, start_ns) -> (writes done, clock at the last sync): at most `count` timed writes,
stopping after the first one that ends at or after `until_ns`."""


def _chunk_writer(params: WalParams, ctx: EngineContext, fd: int, buffer: bytes | mmap.mmap,
                  streams: LatencyStreams) -> Chunk:
    """The timed loop for these parameters: a lean one for the common case (a sync call and no latency
    log: per write three clock reads, the two calls, two appends, two comparisons); else a general one."""
    sync_calls = {"fdatasync": os.fdatasync, "direct-fdatasync": os.fdatasync, "fsync": os.fsync}
    sync_call = sync_calls.get(params.sync)
    add_sync, add_write = streams.adder("sync"), streams.adder("write")
    bs = params.bs
    log = ctx.latency_log.write if ctx.latency_log is not None else None
    if log is not None:
        log("time_ms,write_ns,sync_ns\n")

    def synced(count: int, until: int, _start: int) -> tuple[int, int]:
        clock, write, sync, t2 = time.perf_counter_ns, os.write, sync_call, 0
        for index in range(count):
            t0 = clock()
            written = write(fd, buffer)
            if written != bs:
                _complete_write(fd, buffer, written)
            t1 = clock()
            sync(fd)  # type: ignore[misc]
            t2 = clock()
            add_sync(t2 - t1)
            add_write(t1 - t0)
            if t2 >= until:
                return index + 1, t2
        return count, t2

    def general(count: int, until: int, start: int) -> tuple[int, int]:
        clock, write, t2 = time.perf_counter_ns, os.write, 0
        for index in range(count):
            t0 = clock()
            written = write(fd, buffer)
            if written != bs:
                _complete_write(fd, buffer, written)
            t1 = clock()
            if sync_call is not None:
                sync_call(fd)
                t2 = clock()
            else:  # O_DSYNC: the write is the durable call
                t2 = t1
            add_sync(t2 - t1 if sync_call is not None else t1 - t0)
            add_write(t1 - t0)
            if log is not None:
                log(f"{(t0 - start) / 1e6:.3f},{t1 - t0},{t2 - t1}\n")
            if t2 >= until:
                return index + 1, t2
        return count, t2

    return synced if sync_call is not None and log is None else general


def _complete_write(fd: int, buffer: bytes | mmap.mmap, done: int) -> None:
    """Finish a short write (a signal or a nearly full filesystem); ENOSPC surfaces as an OSError."""
    view = memoryview(buffer)
    while done < len(view):
        done += os.write(fd, view[done:])
