"""The compaction workload: an LSM store merging sorted files, at the I/O level (RocksDB's pattern).

Prepare: N input files of random data, synced, then evicted from the page cache (verified with mincore).
Run: read the inputs sequentially, round-robin as a merge does, in 2 MiB reads; write 64 MiB output files
in 1 MiB writes with sync_file_range(WRITE) every 1 MiB (bytes_per_sync); fdatasync + close each output;
fsync the directory; unlink the inputs. Jobs > 1 run as that many sibling processes, as RocksDB's
background jobs do. With a duration, outputs become the next pass's inputs until the time is up.
"""

from __future__ import annotations

import os
import time
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

from ...diskstats import DiskDelta
from ...host_load import HostLoad
from ...latency_histogram import LatencyHistogram, summary_us
from ...wal_params import ParamError
from ..file_calls import evict, preallocate, resident_fraction, sync_file_range_write
from ..runtime import EXIT_ERROR, Stopped
from ..streams import LatencyStreams

if TYPE_CHECKING:
    from ..runtime import EngineContext

MIB = 1 << 20
STREAM_LABELS = {"read": "read", "write": "write", "range_sync": "range sync", "file_sync": "file sync"}
"""How each call's latency stream is named in a summary ("file sync p99 ...")."""
STREAMS = ("read", "write", "range_sync", "file_sync")
MAX_JOBS = 16
RESIDENT_LIMIT = 0.05
"""More than this share of the inputs still cached after eviction means reads come from RAM."""


@dataclass(frozen=True)
class CompactionParams:
    """Inputs, sizes of reads, writes and output files, bytes per range sync, parallel jobs, duration."""

    inputs: int = 4
    file_size: int = 64 * MIB
    read_bs: int = 2 * MIB
    write_bs: int = 1 * MIB
    bytes_per_sync: int = 1 * MIB
    jobs: int = 1
    duration_s: float | None = None
    advise_random: bool = True
    """posix_fadvise(RANDOM) on each input as RocksDB's advise_random_on_open (default true) does: no kernel
    readahead, so each 2 MiB read (compaction_readahead_size) is what reaches the device."""
    ready_barrier: bool = False
    """Internal: after preparing, wait for "go" on stdin (sibling jobs start measuring together)."""

    def to_json(self) -> dict[str, object]:
        """The `params` object of results and of the engine's configuration."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, object]) -> CompactionParams:
        """Inverse of `to_json` (unknown keys ignored)."""
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})  # type: ignore[arg-type]

    @property
    def input_bytes(self) -> int:
        """Bytes one job reads (and writes) in one pass."""
        return self.inputs * self.file_size

    @property
    def scratch_bytes(self) -> int:
        """Inputs and outputs exist together until the inputs are unlinked; per job."""
        return 2 * self.input_bytes * self.jobs

    def validate(self) -> None:
        """Raise ParamError for values no run can use."""
        if not 1 <= self.inputs <= 1024:
            raise ParamError(f"inputs {self.inputs} is out of range (1 to 1024)")
        if not 1 <= self.jobs <= MAX_JOBS:
            raise ParamError(f"jobs {self.jobs} is out of range (1 to {MAX_JOBS})")
        for name in ("read_bs", "write_bs", "bytes_per_sync"):
            value = getattr(self, name)
            if not 4096 <= value <= 256 * MIB or value % 4096:
                raise ParamError(f"{name.replace('_', ' ')} {value} must be a multiple of 4k, 4k to 256m")
        if self.file_size < self.read_bs or self.file_size % self.read_bs or self.read_bs % self.write_bs:
            raise ParamError(f"file size {self.file_size} must be a multiple of the read size "
                             f"{self.read_bs}, "
                             f"itself a multiple of the write size {self.write_bs}")
        if self.duration_s is not None and not 0 < self.duration_s <= 86400:
            raise ParamError(f"duration {self.duration_s} s is out of range (0 to 86400)")


@dataclass
class CompactionResult:
    """What the compaction did: bytes and MB/s read and written, per-call latencies, eviction evidence."""

    duration_s: float
    bytes_read: int
    bytes_written: int
    files_written: int
    read_busy_s: float
    write_busy_s: float
    resident_after_evict: float
    streams: dict[str, LatencyHistogram] = field(default_factory=dict)
    layers: list[DiskDelta] = field(default_factory=list)
    host: HostLoad | None = None
    jobs: int = 1

    @property
    def read_mb_s(self) -> float:
        """MB/s read over the run's wall time (10^6 bytes, as fio's MB/s)."""
        return self.bytes_read / self.duration_s / 1e6 if self.duration_s > 0 else 0.0

    @property
    def write_mb_s(self) -> float:
        """MB/s written over the run's wall time."""
        return self.bytes_written / self.duration_s / 1e6 if self.duration_s > 0 else 0.0

    @property
    def evicted(self) -> bool:
        """Whether the inputs really left the page cache, so the reads measured the device."""
        return self.resident_after_evict <= RESIDENT_LIMIT

    def to_json(self) -> dict[str, object]:
        """The issue's shape: read_mb_s, write_mb_s, duration_s, file_sync_latency_us, plus the rest."""
        def busy(amount: int, seconds: float) -> float | None:
            return round(amount / seconds / 1e6, 2) if seconds > 0 else None

        data: dict[str, object] = {
            "duration_s": self.duration_s, "read_mb_s": round(self.read_mb_s, 2),
            "write_mb_s": round(self.write_mb_s, 2), "bytes_read": self.bytes_read,
            "bytes_written": self.bytes_written, "files_written": self.files_written, "jobs": self.jobs,
            "read_busy_mb_s": busy(self.bytes_read, self.read_busy_s),
            "write_busy_mb_s": busy(self.bytes_written, self.write_busy_s),
            "read_busy_s": self.read_busy_s, "write_busy_s": self.write_busy_s,
            "resident_after_evict": self.resident_after_evict, "evicted": self.evicted}
        for name in STREAMS:
            data[f"{name}_latency_us"] = summary_us(self.streams.get(name) or LatencyHistogram())
        data.update({"layers": [layer.to_json() for layer in self.layers],
                     "host": self.host.to_json() if self.host else None,
                     "histograms": {name: h.to_json() for name, h in self.streams.items()}})
        return data

    @classmethod
    def from_json(cls, data: dict[str, object]) -> CompactionResult:
        """Rebuild the typed result from `to_json`."""
        histograms = data.get("histograms") or {}
        assert isinstance(histograms, dict)
        host = data.get("host")
        return cls(float(data["duration_s"]), int(data["bytes_read"]),  # type: ignore[arg-type]
                   int(data["bytes_written"]), int(data["files_written"]),  # type: ignore[arg-type]
                   float(data["read_busy_s"]), float(data["write_busy_s"]),  # type: ignore[arg-type]
                   float(data["resident_after_evict"]),  # type: ignore[arg-type]
                   {name: LatencyHistogram.from_json(h) for name, h in histograms.items()},
                   [DiskDelta.from_json(d) for d in data.get("layers") or []],  # type: ignore[union-attr]
                   HostLoad.from_json(host) if isinstance(host, dict) else None,
                   int(data.get("jobs") or 1))  # type: ignore[arg-type]


def merge_results(results: list[CompactionResult], layers: list[DiskDelta]) -> CompactionResult:
    """Parallel jobs as one compaction: bytes and histograms added, the longest duration."""
    streams = {name: LatencyHistogram() for name in STREAMS}
    for result in results:
        for name, histogram in result.streams.items():
            streams.setdefault(name, LatencyHistogram()).merge(histogram)
    return CompactionResult(max(r.duration_s for r in results), sum(r.bytes_read for r in results),
                            sum(r.bytes_written for r in results), sum(r.files_written for r in results),
                            round(sum(r.read_busy_s for r in results), 4),
                            round(sum(r.write_busy_s for r in results), 4),
                            max(r.resident_after_evict for r in results), streams, layers, None, len(results))


_OUT_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def prepare_inputs(params: CompactionParams, folder: str, first: int) -> list[str]:
    """Write `inputs` files of random data (synced), evict them, and return their paths."""
    paths = []
    for number in range(first, first + params.inputs):
        path = os.path.join(folder, f"{number:06d}.sst")
        fd = os.open(path, _OUT_FLAGS, 0o600)
        try:
            for _ in range(params.file_size // params.write_bs):
                os.write(fd, os.urandom(params.write_bs))
            os.fdatasync(fd)
        finally:
            os.close(fd)
        paths.append(path)
    return paths


def evict_files(paths: list[str], size: int) -> float:
    """Evict the files from the page cache; return the largest share still cached (mincore)."""
    worst = 0.0
    for path in paths:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            evict(fd)
            worst = max(worst, resident_fraction(fd, size))
        finally:
            os.close(fd)
    return worst


def _wait_for_go(ctx: EngineContext) -> None:
    """The "ready" barrier: block until the parent writes "go" (EOF means it died)."""
    ctx.phase("ready", "inputs laid out; waiting for the other jobs")
    if not os.read(0, 16):
        raise Stopped("the parent closed the pipe", EXIT_ERROR)


def run(params: CompactionParams, ctx: EngineContext) -> CompactionResult:
    """One job: prepare the inputs, then compact them (once, or pass after pass for `duration_s`); several
    jobs run through `parallel.run_compaction`."""
    ctx.phase("prepare", f"writing {params.inputs} × {params.file_size // MIB} MiB input files")
    inputs = prepare_inputs(params, ctx.scratch, 0)
    resident = evict_files(inputs, params.file_size)
    if params.ready_barrier:
        _wait_for_go(ctx)
    ctx.phase("run", f"compacting {params.inputs} files" + (f" for {params.duration_s:g} s"
                                                             if params.duration_s else ""))
    return Compactor(params, ctx, resident).run(inputs)


class Compactor:
    """The timed merge loop and its bookkeeping across passes."""

    def __init__(self, params: CompactionParams, ctx: EngineContext, resident: float) -> None:
        self.params, self.ctx, self.resident = params, ctx, resident
        self.streams = LatencyStreams(*STREAMS)
        self.bytes_read = self.bytes_written = self.files = 0
        self.read_ns = self.write_ns = 0
        self.reported_read = self.reported_written = 0
        self.start = self.last_emit = time.perf_counter_ns()
        self.period_ns = int(ctx.config.interval_s * 1e9)
        self.deadline = self.start + int(params.duration_s * 1e9) if params.duration_s else None
        self.next_number = params.inputs
        self.ops = 0
        self.expired = False

    def run(self, inputs: list[str]) -> CompactionResult:
        """Compact `inputs`; with a duration, keep compacting the outputs until it is over."""
        while True:
            outputs = self._one_pass(inputs)
            if self.deadline is None or self.expired or time.perf_counter_ns() >= self.deadline:
                break
            self.resident = max(self.resident, evict_files(outputs, self.params.file_size))
            inputs = outputs
        self._emit(time.perf_counter_ns(), final=True)
        elapsed = (time.perf_counter_ns() - self.start) / 1e9
        return CompactionResult(round(elapsed, 4), self.bytes_read, self.bytes_written, self.files,
                                round(self.read_ns / 1e9, 4), round(self.write_ns / 1e9, 4),
                                round(self.resident, 4), self.streams.totals,
                                self.ctx.disks.total())

    def _progress(self, now: int) -> float:
        if self.deadline is not None:
            return (now - self.start) / (self.deadline - self.start)
        return self.bytes_read / self.params.input_bytes

    def _emit(self, now: int, final: bool = False) -> None:
        self.ctx.interval((now - self.start) / 1e9, self.ops, 1.0 if final else self._progress(now),
                          self.streams.flush(), bytes_read=self.bytes_read - self.reported_read,
                          bytes_written=self.bytes_written - self.reported_written,
                          seconds=(now - self.last_emit) / 1e9)
        self.reported_read, self.reported_written, self.last_emit = self.bytes_read, self.bytes_written, now

    def _open_output(self) -> tuple[int, str]:
        """A new output file with its blocks allocated up front, as RocksDB's allow_fallocate does."""
        path = os.path.join(self.ctx.scratch, f"{self.next_number:06d}.sst")
        self.next_number += 1
        fd = os.open(path, _OUT_FLAGS, 0o600)
        try:
            preallocate(fd, self.params.file_size)
        except OSError:
            os.close(fd)
            raise
        return fd, path

    def _one_pass(self, inputs: list[str]) -> list[str]:
        """Merge `inputs` into as many outputs; returns the outputs (the inputs are unlinked)."""
        params, clock = self.params, time.perf_counter_ns
        add_read, add_write = self.streams.adder("read"), self.streams.adder("write")
        add_range, add_file = self.streams.adder("range_sync"), self.streams.adder("file_sync")
        readers = [self._open_input(path) for path in inputs]
        outputs: list[str] = []
        out_fd, path = self._open_output()
        outputs.append(path)
        out_size = unsynced = 0
        try:
            while readers:
                for reader in list(readers):
                    t0 = clock()
                    chunk = os.read(reader, params.read_bs)
                    t1 = clock()
                    if not chunk:
                        os.close(reader)
                        readers.remove(reader)
                        continue
                    add_read(t1 - t0)
                    self.read_ns += t1 - t0
                    self.bytes_read += len(chunk)
                    view = memoryview(chunk)
                    for offset in range(0, len(chunk), params.write_bs):
                        t0 = clock()
                        written = os.write(out_fd, view[offset:offset + params.write_bs])
                        t1 = clock()
                        add_write(t1 - t0)
                        self.write_ns += t1 - t0
                        self.bytes_written += written
                        out_size += written
                        unsynced += written
                        if unsynced >= params.bytes_per_sync:
                            sync_file_range_write(out_fd, out_size - unsynced, unsynced)
                            t2 = clock()
                            add_range(t2 - t1)
                            self.write_ns += t2 - t1
                            unsynced = 0
                        if out_size >= params.file_size:
                            self._close_output(out_fd, add_file)
                            out_fd, path = self._open_output()
                            outputs.append(path)
                            out_size = unsynced = 0
                    self.ops += 1
                    now = clock()
                    if now - self.last_emit >= self.period_ns:
                        self._emit(now)
                    if self.deadline is not None and now >= self.deadline:
                        self.expired = True
                        break
                if self.expired:
                    break
        finally:
            for reader in readers:
                os.close(reader)
        if out_size:
            self._close_output(out_fd, add_file)
        else:
            os.close(out_fd)
            os.unlink(outputs.pop())
        if not self.expired:  # a pass cut short by the duration leaves its inputs to the scratch removal
            self._install(inputs)
        return outputs

    def _open_input(self, path: str) -> int:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        if self.params.advise_random:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)
        return fd

    def _close_output(self, fd: int, add_file: object) -> None:
        t0 = time.perf_counter_ns()
        os.fdatasync(fd)
        t1 = time.perf_counter_ns()
        os.close(fd)
        add_file(t1 - t0)  # type: ignore[operator]
        self.write_ns += t1 - t0
        self.files += 1

    def _install(self, inputs: list[str]) -> None:
        """fsync the directory (the new files are durable by name), then delete the inputs."""
        fd = os.open(self.ctx.scratch, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        for path in inputs:
            os.unlink(path)
