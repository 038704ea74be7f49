"""The WAL workload: writes made durable as etcd's WAL makes them, at open-loop rates (the verdict) and in a
closed loop (the disk's capacity), timing each write from when it was due, each write() and each sync."""

from __future__ import annotations

import contextlib
import ctypes
import errno
import mmap
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...diskstats import DiskDelta
from ...host_load import HostLoad
from ...latency_histogram import LatencyHistogram, summary_us
from ...wal_params import WalParams, load_text
from ...wal_target import TargetError
from ..backend_commit import BackendCommitter
from ..open_loop import NS, LevelTally, due_times, run_level
from ..streams import LatencyStreams
from ..wal_files import EtcdSegments, RawFile
from .write_stream import WriteStreamFields, write_stream_fields, write_stream_json

if TYPE_CHECKING:
    from ..runtime import EngineContext

__all__ = ["WalLevel", "WalParams", "WalResult", "run"]

STREAMS = ("sync", "sync_call", "issue", "write")
"""Per level: `sync` the latency judged (from when each write was due to when it was durable; in the closed
loop, the sync call), `sync_call` each fdatasync, `issue` from when a write went out, `write` each write()."""
REACHED = 0.95
CPU_BOUND_SHARE = 0.85
"""A writer that used 85% of a CPU over a level it fell behind in was limited by the CPU, not the disk."""
"""A level reached its rate when it finished its writes within 1/0.95 of its scheduled time."""
PR_SET_TIMERSLACK = 29
LOG_HEADER = "load,time_ms,write_ns,sync_ns,latency_ns\n"
"""--latency-log: one line per write: its load ("500/s" or "closed"), when it was due (ms from the level's
start), the write() and sync call that made it durable, and its latency from due (the closed loop: issue)."""
SYNC_CALLS = {"fdatasync": os.fdatasync, "direct-fdatasync": os.fdatasync, "fsync": os.fsync}


@dataclass
class WalLevel:
    """One load: its rate (None: the closed loop) and arrivals, what it did, and its latency histograms."""

    rate: float | None
    arrival: str
    writes: int
    batches: int
    duration_s: float
    latency: LatencyHistogram
    """From when each write was due to when it was durable (the closed loop: the sync call)."""
    issue: LatencyHistogram
    sync: LatencyHistogram
    """Each sync call (fdatasync), what etcd's wal_fsync_duration_seconds times."""
    write: LatencyHistogram
    commit: LatencyHistogram = field(default_factory=LatencyHistogram)
    """The backend commits' fdatasyncs beside this level."""
    max_backlog: int = 1
    end_backlog: int = 0
    scheduled_s: float | None = None
    layers: list[DiskDelta] = field(default_factory=list)
    cpu_s: float | None = None
    """The writer's own CPU time over the level (None: a run saved before it was kept): a writer that used
    a whole CPU and fell behind measured this host's CPU, not the disk."""

    @property
    def cpu_bound(self) -> bool:
        """Whether the writer fell behind while it used (nearly) a whole CPU: the rate is past what this
        engine can issue on this host, whatever the disk does."""
        return (not self.reached and self.cpu_s is not None and self.duration_s > 0
                and self.cpu_s / self.duration_s >= CPU_BOUND_SHARE)

    @property
    def achieved_per_s(self) -> float | None:
        """Writes made durable per second over the level."""
        return self.writes / self.duration_s if self.duration_s > 0 else None

    @property
    def reached(self) -> bool:
        """Whether the writer kept up with the schedule (always, for the closed loop)."""
        return self.scheduled_s is None or self.duration_s <= self.scheduled_s / REACHED

    @property
    def load(self) -> dict[str, object]:
        """The load of every figure of this level: rate (None: closed loop), arrival model, and in words."""
        return {"rate": self.rate, "arrival": self.arrival,
                "text": load_text(self.rate, self.arrival)}

    def to_json(self) -> dict[str, object]:
        """The level's figures (µs summaries) and raw histograms."""
        achieved = self.achieved_per_s
        return {**self.load, "asked_per_s": self.rate,
                "achieved_per_s": None if achieved is None else round(achieved, 2), "reached": self.reached,
                "writes": self.writes, "batches": self.batches, "duration_s": round(self.duration_s, 4),
                "scheduled_s": self.scheduled_s, "max_backlog": self.max_backlog,
                "end_backlog": self.end_backlog,
                "latency_us": summary_us(self.latency), "issue_latency_us": summary_us(self.issue),
                "sync_latency_us": summary_us(self.sync), "write_latency_us": summary_us(self.write),
                "commit_sync_us": summary_us(self.commit),
                "layers": [layer.to_json() for layer in self.layers],
                "cpu_s": self.cpu_s, "cpu_bound": self.cpu_bound,
                "histograms": {"latency": self.latency.to_json(), "issue": self.issue.to_json(),
                               "sync": self.sync.to_json(), "write": self.write.to_json(),
                               "commit": self.commit.to_json()}}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> WalLevel:
        """Inverse of `to_json`."""
        h = data["histograms"]
        assert isinstance(h, dict)
        rate = data.get("rate")
        return cls(None if rate is None else float(rate), str(data.get("arrival") or "closed"),  # type: ignore[arg-type]
                   int(data["writes"]), int(data["batches"]), float(data["duration_s"]),  # type: ignore[arg-type]
                   LatencyHistogram.from_json(h["latency"]), LatencyHistogram.from_json(h["issue"]),
                   LatencyHistogram.from_json(h["sync"]), LatencyHistogram.from_json(h["write"]),
                   LatencyHistogram.from_json(h.get("commit") or {}),
                   int(data.get("max_backlog") or 1), int(data.get("end_backlog") or 0),  # type: ignore[call-overload]
                   None if data.get("scheduled_s") is None else float(data["scheduled_s"]),  # type: ignore[arg-type]
                   [DiskDelta.from_json(d) for d in data.get("layers") or []],  # type: ignore[union-attr]
                   None if data.get("cpu_s") is None else float(data["cpu_s"]))  # type: ignore[arg-type]


def headline_level(levels: list[WalLevel]) -> WalLevel | None:
    """The level a verdict judges: the open-loop level with the worst p99 from due time; the closed loop
    only when no rate was run (a run saved before the open loop)."""
    judged = [level for level in levels if level.rate is not None] or levels
    return max(judged, key=lambda level: level.latency.percentile(99.0) or 0.0, default=None)


@dataclass
class WalResult:
    """The whole run: the headline level's counts and histograms (what the verdict judges), every level,
    per-layer totals and the host's load."""

    samples: int
    duration_s: float
    ops_per_s: float | None
    sync: LatencyHistogram
    write: LatencyHistogram
    layers: list[DiskDelta] = field(default_factory=list)
    host: HostLoad | None = None
    levels: list[WalLevel] = field(default_factory=list)
    judged: tuple[float | None, str] | None = None
    """(rate, arrival) of the level the verdict cited, when the app chose it (a failing load before one
    with a higher but unsettled p99); None: the level with the worst p99."""

    @property
    def headline(self) -> WalLevel | None:
        """The judged level (None for a run saved before levels existed)."""
        if self.judged is not None:
            chosen = next((level for level in self.levels
                           if (level.rate, level.arrival) == self.judged), None)
            if chosen is not None:
                return chosen
        return headline_level(self.levels)

    def judged_at(self, level: WalLevel) -> WalResult:
        """This result with `level`'s figures as its headline (the load the verdict cites)."""
        return WalResult(level.writes, round(level.duration_s, 4),
                         round(level.achieved_per_s, 2) if level.achieved_per_s else None, level.latency,
                         level.write, self.layers, self.host, self.levels, (level.rate, level.arrival))

    @property
    def capacity(self) -> WalLevel | None:
        """The closed-loop level: the disk's capacity, never the verdict."""
        return next((level for level in self.levels if level.rate is None), None)

    @property
    def model(self) -> str:
        """"open loop" when the headline comes from a rate, else "closed loop"."""
        head = self.headline
        return "open loop" if head is not None and head.rate is not None else "closed loop"

    @property
    def load(self) -> dict[str, object]:
        """The load of the headline figures."""
        head = self.headline
        return head.load if head is not None else {"rate": None, "arrival": "closed",
                                                   "text": load_text(None, "closed")}

    def to_json(self) -> dict[str, object]:
        """The result's figures in `bench wal --json`'s shape (the headline level's), the load and model
        they come from, every level, plus the raw histograms to rebuild it."""
        head = self.headline
        extra: dict[str, object] = {"model": self.model, "load": self.load,
                                    "latency_from": "due" if self.model == "open loop" else "issue"}
        if head is not None:
            extra["sync_call_latency_us"] = summary_us(head.sync)
        extra["levels"] = [level.to_json() for level in self.levels]
        return write_stream_json(WriteStreamFields(self.samples, self.duration_s, self.ops_per_s, self.sync,
                                                   self.write, self.layers, self.host), extra)

    @classmethod
    def from_json(cls, data: dict[str, object]) -> WalResult:
        """Rebuild the typed result from `to_json` (or a saved `bench wal --json` document, levels or not)."""
        f = write_stream_fields(data)
        levels = [WalLevel.from_json(level) for level in data.get("levels") or []]  # type: ignore[union-attr]
        load = data.get("load")
        judged = None
        if isinstance(load, dict) and load.get("rate") is not None:  # the level its headline figures are
            judged = (float(load["rate"]), str(load.get("arrival") or "steady"))  # type: ignore[arg-type]
        return cls(f.samples, f.duration_s, f.ops_per_s, f.sync, f.write, f.layers, f.host, levels, judged)

    @classmethod
    def of_levels(cls, levels: list[WalLevel]) -> WalResult:
        """The result whose headline figures are those of the judged level."""
        head = headline_level(levels)
        assert head is not None
        return cls(head.writes, round(head.duration_s, 4),
                   round(head.achieved_per_s, 2) if head.achieved_per_s else None,
                   head.latency, head.write, head.layers, None, levels)


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
    """Each open-loop level, then the closed loop, in one set of files; return every level."""
    with contextlib.suppress(OSError, AttributeError):  # wake at the due time, not 50 µs after it
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_TIMERSLACK, 1, 0, 0, 0)
    if ctx.latency_log is not None:
        ctx.latency_log.write(LOG_HEADER)
    loads: list[tuple[float | None, str]] = [(rate, params.arrival) for rate in params.rates]
    if params.capacity:
        loads.append((None, "closed"))
    with contextlib.ExitStack() as stack:
        files, streams, committer = _open_files(params, ctx, stack)
        levels = []
        for index, (rate, arrival) in enumerate(loads):
            if committer is not None:
                committer.level(index)
            ctx.phase("run", load_text(rate, arrival))
            span = (index / len(loads), 1 / len(loads))
            if rate is None and isinstance(files, RawFile):
                level = _measure(params, ctx, files, streams, span)
            else:
                level = _level(params, ctx, files, streams, committer, rate, arrival, span)
            levels.append(level)
        if committer is not None:
            for index, samples in committer.stop().items():
                if 0 <= index < len(levels):
                    levels[index].commit.record_many(samples)
    return WalResult.of_levels(levels)


def _open_files(params: WalParams, ctx: EngineContext,
                stack: contextlib.ExitStack) -> tuple[EtcdSegments | RawFile, LatencyStreams,
                                                      BackendCommitter | None]:
    """The WAL's files and, for etcd, the backend committer beside them; all closed by `stack`."""
    streams = LatencyStreams(*STREAMS)
    sync_call = SYNC_CALLS.get(params.sync)
    add_sync, add_write = streams.adder("sync_call"), streams.adder("write")
    if ctx.latency_log is not None:  # keep each batch's write and sync for its log lines
        last = ctx.last_calls = [0, 0]

        def add_write(ns: int, raw: Callable[[int], None] = add_write) -> None:
            raw(ns)
            last[0] = ns

        def add_sync(ns: int, raw: Callable[[int], None] = add_sync) -> None:
            raw(ns)
            last[1] = ns

    if params.format == "etcd":
        assert sync_call is not None
        files: EtcdSegments | RawFile = EtcdSegments(
            ctx.scratch, params.bs, params.segment_bytes, sync_call, prealloc=params.prealloc,
            add_sync=add_sync, add_write=add_write)
        stack.callback(files.close)
        committer = None
        if params.commit_ms:
            committer = stack.enter_context(BackendCommitter(os.path.join(ctx.scratch, "db"), params.bs,
                                                             params.commit_ms, sync_call, params.db_bytes))
        return files, streams, committer
    direct = params.sync == "direct-fdatasync"
    fd = open_scratch_file(os.path.join(ctx.scratch, "wal.0"), _open_flags(params.sync), params.size,
                           params.prealloc, direct=direct)
    stack.callback(os.close, fd)
    blocks = max(1, min(params.size, 1 << 20) // params.bs)
    buffer = aligned_random(blocks * params.bs, direct)
    return RawFile(fd, params.bs, params.size, sync_call, buffer, add_sync=add_sync,
                   add_write=add_write), streams, None


def _level(params: WalParams, ctx: EngineContext, files: EtcdSegments | RawFile, streams: LatencyStreams,
           committer: BackendCommitter | None, rate: float | None, arrival: str,
           span: tuple[float, float]) -> WalLevel:
    """One level through the open-loop writer (the closed loop: each write due when the last is durable)."""
    clock = time.perf_counter_ns
    add_latency, add_issue = streams.adder("sync"), streams.adder("issue")
    save, applied = files.save, committer.applied if committer is not None else None
    load = {"rate": rate, "arrival": arrival}
    planned = None if rate is not None or params.duration_s else params.planned_writes
    seconds = params.duration_s or (params.level_s if rate is not None else 86400.0)
    streams.flush()  # what came before this level (a segment's header sync) is not its figures
    for name in STREAMS:
        streams.totals[name] = LatencyHistogram()
    start, cpu_start = clock(), time.process_time()
    ops = [0, 0, start]  # writes, writes at the last interval, time of the last interval

    sequential = arrival != "poisson"  # one client: its next put waits until this one is applied

    def flush(count: int, _issue: int) -> int:
        save(count)
        done = clock()
        if applied is not None:
            applied(count, wait=sequential)
        return done

    log = ctx.latency_log.write if ctx.latency_log is not None else None
    last = ctx.last_calls
    name = "closed" if rate is None else f"{rate:g}/s"

    def record(done: int, issue: int, batch: list[int]) -> None:
        add_issue(done - issue)
        for due in batch:
            add_latency(done - due)
            if log is not None:
                log(f"{name},{(due - start) / 1e6:.3f},{last[0]},{last[1]},{done - due}\n")
        ops[0] += len(batch)

    def tick(now: int) -> None:
        elapsed = (now - start) / NS
        fraction = ops[0] / planned if planned else elapsed / seconds
        ctx.interval(elapsed, ops[0], span[0] + span[1] * min(fraction, 1.0), streams.flush(),
                     bytes_written=(ops[0] - ops[1]) * params.bs, seconds=(now - ops[2]) / NS, load=load)
        ops[1], ops[2] = ops[0], now

    if rate is not None:
        tally = run_level(due_times(rate, arrival, params.seed), int(seconds * NS), clock, time.sleep, flush,
                          record, max_batch=files.max_batch, on_tick=tick,
                          tick_ns=int(ctx.config.interval_s * NS))
    else:
        tally = _closed_loop(planned, int(seconds * NS), clock, flush, record, tick,
                             int(ctx.config.interval_s * NS))
    end = start + max(tally.last_done_ns, 1)
    tick(end)
    totals = {name: streams.totals[name] for name in STREAMS}
    for name in STREAMS:
        streams.totals[name] = LatencyHistogram()
    scheduled = seconds if rate is not None else None
    duration = max(tally.last_done_ns / NS, seconds) if rate is not None else tally.last_done_ns / NS
    return WalLevel(rate, arrival, tally.writes, tally.batches, round(duration, 4), totals["sync"],
                    totals["issue"], totals["sync_call"], totals["write"], max_backlog=tally.max_backlog,
                    end_backlog=tally.end_backlog, scheduled_s=scheduled, layers=ctx.disks.total(),
                    cpu_s=round(time.process_time() - cpu_start, 4))


def _closed_loop(planned: int | None, until_ns: int, clock: Callable[[], int],
                 flush: Callable[[int, int], int], record: Callable[[int, int, list[int]], None],
                 tick: Callable[[int], None], tick_ns: int) -> LevelTally:
    """Each write the moment the last is durable, `planned` of them (or until `until_ns`)."""
    tally = LevelTally()
    start = clock()
    next_tick, deadline = start + tick_ns, start + until_ns
    limit = planned or (1 << 62)
    done = start
    while tally.writes < limit and done < deadline:
        issue = clock()
        done = flush(1, issue)
        record(done, issue, [issue])
        tally.writes += 1
        if done >= next_tick:
            tick(done)
            next_tick = done + tick_ns
    tally.batches = tally.writes
    tally.last_done_ns = done - start
    return tally


def _measure(params: WalParams, ctx: EngineContext, files: RawFile, streams: LatencyStreams,
             span: tuple[float, float]) -> WalLevel:
    """The closed loop over the plain file, in fio's shape: chunks of writes that end at the file's end,
    the planned count or the next interval (the lean timed loop); emit intervals."""
    clock, bs, size, fd = time.perf_counter_ns, params.bs, params.size, files.fd
    planned = params.planned_writes
    limit = planned or (1 << 62)
    chunk = _chunk_writer(params, ctx, fd, files.buffer[:bs], streams)
    load: dict[str, object] = {"rate": None, "arrival": "closed"}
    period_ns = int(ctx.config.interval_s * 1e9)
    ops, offset = 0, files.offset
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
            ctx.interval((t2 - start) / 1e9, ops, span[0] + span[1] * min(progress, 1.0), streams.flush(),
                         bytes_written=(ops - last_ops) * bs, seconds=(t2 - last_emit) / 1e9, load=load)
            if finished:
                break
            last_emit, last_ops = t2, ops
            next_check = min(clock() + period_ns, deadline)
    files.offset = offset
    totals = {name: streams.totals[name] for name in STREAMS}
    for name in STREAMS:
        streams.totals[name] = LatencyHistogram()
    return WalLevel(None, "closed", ops, ops, round((t2 - start) / 1e9, 4), totals["sync"], totals["issue"],
                    totals["sync"], totals["write"], layers=ctx.disks.total())


Chunk = Callable[[int, int, int], tuple[int, int]]
"""chunk(count, until_ns, start_ns) -> (writes done, clock at the last sync): at most `count` timed writes,
stopping after the first one that ends at or after `until_ns`."""


def _chunk_writer(params: WalParams, ctx: EngineContext, fd: int, buffer: bytes | mmap.mmap | memoryview,
                  streams: LatencyStreams) -> Chunk:
    """The timed loop for these parameters: a lean one for the common case (a sync call and no latency
    log: per write three clock reads, the two calls, two appends, two comparisons); else a general one."""
    sync_calls = {"fdatasync": os.fdatasync, "direct-fdatasync": os.fdatasync, "fsync": os.fsync}
    sync_call = sync_calls.get(params.sync)
    add_sync, add_write, add_issue = streams.adder("sync"), streams.adder("write"), streams.adder("issue")
    bs = params.bs
    log = ctx.latency_log.write if ctx.latency_log is not None else None

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
            add_issue(t2 - t0)
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
            add_issue(t2 - t0)
            if log is not None:
                log(f"closed,{(t0 - start) / 1e6:.3f},{t1 - t0},{t2 - t1},{t2 - t0}\n")
            if t2 >= until:
                return index + 1, t2
        return count, t2

    return synced if sync_call is not None and log is None else general


def _complete_write(fd: int, buffer: bytes | mmap.mmap | memoryview, done: int) -> None:
    """Finish a short write (a signal or a nearly full filesystem); ENOSPC surfaces as an OSError."""
    view = memoryview(buffer)
    while done < len(view):
        done += os.write(fd, view[done:])
