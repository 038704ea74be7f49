"""The 4 KiB random-write workload at queue depth 1 (gray-failure monitoring), O_DIRECT where supported.

Offsets follow a random permutation of the file's blocks, as fio's random map does, so no block is
written twice before every block was written once; each write may be followed by fdatasync.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import mmap
import os
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

from ...diskstats import DiskDelta
from ...host_load import HostLoad
from ...latency_histogram import LatencyHistogram
from ...wal_params import MAX_BS, ParamError
from ..streams import LatencyStreams
from .wal import aligned_random, open_scratch_file
from .write_stream import WriteStreamFields, write_stream_fields, write_stream_json

if TYPE_CHECKING:
    from ..runtime import EngineContext

SYNC_CHOICES = ("fdatasync", "none")
MAX_PERMUTED_BLOCKS = 1 << 22
"""Up to 4 Mi blocks get a full random permutation; bigger files draw offsets at random."""
NO_DIRECT_NOTE = "this filesystem refused O_DIRECT: writes went through the page cache"


@dataclass(frozen=True)
class RandwriteParams:
    """Block size, file size, how long (seconds, or a number of writes), the sync call, O_DIRECT."""

    bs: int = 4096
    size: int = 256 << 20
    duration_s: float | None = 30.0
    writes: int | None = None
    sync: str = "fdatasync"
    direct: bool = True

    def to_json(self) -> dict[str, object]:
        """The `params` object of results and of the engine's configuration."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, object]) -> RandwriteParams:
        """Inverse of `to_json` (unknown keys ignored)."""
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})  # type: ignore[arg-type]

    @property
    def scratch_bytes(self) -> int:
        """The preallocated file."""
        return self.size

    def validate(self) -> None:
        """Raise ParamError for values no run can use."""
        if self.sync not in SYNC_CHOICES:
            raise ParamError(f"unknown sync {self.sync!r} (choose from {', '.join(SYNC_CHOICES)})")
        if not 512 <= self.bs <= MAX_BS or self.bs % 512:
            raise ParamError(f"block size {self.bs} must be a multiple of 512, at most 64m")
        if self.size < self.bs or self.size % self.bs:
            raise ParamError(f"size {self.size} must be a multiple of the block size {self.bs}")
        if self.duration_s is not None and not 0 < self.duration_s <= 86400:
            raise ParamError(f"duration {self.duration_s} s is out of range (0 to 86400)")
        if self.writes is not None and self.writes < 1:
            raise ParamError("the number of writes must be at least 1")


@dataclass
class RandwriteResult:
    """The whole run: writes, duration, ops/s, write and sync latencies (with stdev), O_DIRECT or not."""

    samples: int
    duration_s: float
    ops_per_s: float | None
    write: LatencyHistogram
    sync: LatencyHistogram
    direct: bool
    layers: list[DiskDelta] = field(default_factory=list)
    host: HostLoad | None = None

    def to_json(self) -> dict[str, object]:
        """`sync_latency_us`/`write_latency_us` with stdev, the O_DIRECT fact, and the raw histograms."""
        return write_stream_json(WriteStreamFields(self.samples, self.duration_s, self.ops_per_s, self.sync,
                                                   self.write, self.layers, self.host),
                                 {"direct": self.direct, "note": None if self.direct else NO_DIRECT_NOTE})

    @classmethod
    def from_json(cls, data: dict[str, object]) -> RandwriteResult:
        """Rebuild the typed result from `to_json`."""
        f = write_stream_fields(data)
        return cls(f.samples, f.duration_s, f.ops_per_s, f.write, f.sync, bool(data["direct"]), f.layers,
                   f.host)


_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def _open(path: str, params: RandwriteParams) -> tuple[int, bool]:
    """Open with O_DIRECT when asked and supported; (fd, whether O_DIRECT is on)."""
    if params.direct:
        try:
            return os.open(path, _FLAGS | os.O_DIRECT, 0o600), True
        except OSError as err:
            if err.errno != errno.EINVAL:
                raise
            with contextlib.suppress(FileNotFoundError):  # the kernel creates the file before refusing
                os.unlink(path)
    return open_scratch_file(path, _FLAGS, params.size, False, direct=False), False


def _random_offsets(blocks: int, bs: int) -> Iterator[int]:
    while True:
        yield random.randrange(blocks) * bs


def _offsets(params: RandwriteParams) -> Iterator[int]:
    """Endless offsets: a random permutation of the blocks, repeated (C-speed iteration), or random draws."""
    blocks = params.size // params.bs
    if blocks > MAX_PERMUTED_BLOCKS:
        return _random_offsets(blocks, params.bs)
    order = list(range(0, params.size, params.bs))
    random.shuffle(order)
    return itertools.cycle(order)


def run(params: RandwriteParams, ctx: EngineContext) -> RandwriteResult:
    """Preallocate the file, then write random blocks at queue depth 1 until the time or count is done."""
    fd, direct = _open(os.path.join(ctx.scratch, "randwrite.0"), params)
    try:
        os.posix_fallocate(fd, 0, params.size)
    except OSError as err:
        if err.errno not in (errno.EOPNOTSUPP, errno.EINVAL):
            os.close(fd)
            raise
    try:
        ctx.phase("run", f"{params.bs}-byte random writes" + (" + fdatasync" if params.sync != "none" else "")
                  + ("" if direct else " (no O_DIRECT)"))
        return _measure(params, ctx, fd, direct)
    finally:
        os.close(fd)


def _measure(params: RandwriteParams, ctx: EngineContext, fd: int, direct: bool) -> RandwriteResult:
    """Write in chunks that end at the planned count or the next interval; emit intervals."""
    clock, bs = time.perf_counter_ns, params.bs
    streams = LatencyStreams("write", "sync")
    chunk = _chunk_writer(params, fd, aligned_random(params.bs, direct), streams)
    limit = params.writes or (1 << 62)
    period_ns = int(ctx.config.interval_s * 1e9)
    ops = last_ops = 0
    start = last_emit = clock()
    deadline = start + int(params.duration_s * 1e9) if params.duration_s and not params.writes else 1 << 62
    next_check = min(start + period_ns, deadline)
    while True:
        done, t2 = chunk(limit - ops, next_check)
        ops += done
        if t2 >= next_check or ops >= limit:
            finished = ops >= limit or t2 >= deadline
            progress = ops / params.writes if params.writes else (t2 - start) / (deadline - start)
            ctx.interval((t2 - start) / 1e9, ops, progress, streams.flush(),
                         bytes_written=(ops - last_ops) * bs, seconds=(t2 - last_emit) / 1e9)
            if finished:
                break
            last_emit, last_ops = t2, ops
            next_check = min(clock() + period_ns, deadline)
    elapsed = (t2 - start) / 1e9
    return RandwriteResult(ops, round(elapsed, 4), round(ops / elapsed, 2) if elapsed > 0 else None,
                           streams.totals["write"], streams.totals["sync"], direct, ctx.disks.total())


def _chunk_writer(params: RandwriteParams, fd: int, buffer: bytes | mmap.mmap,
                  streams: LatencyStreams) -> Callable[[int, int], tuple[int, int]]:
    """chunk(count, until_ns) -> (writes done, clock after the last one): at most `count` timed random
    writes, stopping after the first that ends at or after `until_ns`; per write only clock reads, the
    calls, the appends and one comparison."""
    offsets = _offsets(params)
    add_write, add_sync = streams.adder("write"), streams.adder("sync")

    def synced(count: int, until: int) -> tuple[int, int]:
        clock, pwrite, fdatasync, t2 = time.perf_counter_ns, os.pwrite, os.fdatasync, 0
        for index, offset in zip(range(count), offsets, strict=False):
            t0 = clock()
            pwrite(fd, buffer, offset)
            t1 = clock()
            fdatasync(fd)
            t2 = clock()
            add_write(t1 - t0)
            add_sync(t2 - t1)
            if t2 >= until:
                return index + 1, t2
        return count, t2

    def unsynced(count: int, until: int) -> tuple[int, int]:
        clock, pwrite, t1 = time.perf_counter_ns, os.pwrite, 0
        for index, offset in zip(range(count), offsets, strict=False):
            t0 = clock()
            pwrite(fd, buffer, offset)
            t1 = clock()
            add_write(t1 - t0)
            if t1 >= until:
                return index + 1, t1
        return count, t1

    return synced if params.sync != "none" else unsynced
