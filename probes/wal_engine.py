"""The WAL engine: a child process timing write + sync calls in its scratch dir; streams JSON lines."""

from __future__ import annotations

import contextlib
import ctypes
import errno
import json
import mmap
import os
import select
import signal
import stat
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from .diskstats import WriteCounters, layer_deltas, read_write_counters
from .latency_histogram import LatencyHistogram
from .wal_params import ParamError, WalParams
from .wal_target import TargetError, check_directory, describe_bench_error, make_scratch, remove_scratch

STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
PR_SET_PDEATHSIG = 1
EXIT_ERROR = 2
SIGNAL_EXIT_BASE = 128
LOG_BUFFER = 1 << 20


class Stopped(Exception):
    """A stop signal arrived or the parent went away; `reason` says which."""

    def __init__(self, reason: str, code: int) -> None:
        super().__init__(reason)
        self.reason, self.code = reason, code


@dataclass
class EngineConfig:
    """What the parent asks for: the directory, the run, the layers to watch, and the streaming period."""

    directory: str
    params: WalParams
    layers: list[str] = field(default_factory=list)
    interval_s: float = 0.5
    latency_log: str | None = None

    def to_json(self) -> str:
        """The single argument passed to `_engine wal`."""
        return json.dumps({"dir": self.directory, "params": self.params.to_json(), "layers": self.layers,
                           "interval_s": self.interval_s, "latency_log": self.latency_log})

    @classmethod
    def from_json(cls, text: str) -> EngineConfig:
        """Parse the argument of `_engine wal`."""
        data = json.loads(text)
        return cls(str(data["dir"]), WalParams.from_json(data["params"]), list(data.get("layers") or []),
                   float(data.get("interval_s") or 0.5), data.get("latency_log"))


def emit(event: dict[str, object]) -> None:
    """Write one JSON line to stdout (the pipe to the parent), unbuffered."""
    data = (json.dumps(event, separators=(",", ":")) + "\n").encode()
    while data:
        data = data[os.write(1, data):]


def _on_stop_signal(signum: int, _frame: object) -> None:
    for other in STOP_SIGNALS:
        signal.signal(other, signal.SIG_IGN)
    raise Stopped(f"stopped by {signal.Signals(signum).name}", SIGNAL_EXIT_BASE + signum)


@contextlib.contextmanager
def signals_blocked() -> Iterator[None]:
    """Hold stop signals while a scratch dir is created or removed, so none is half done."""
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


def _ask_for_parent_death_signal() -> None:
    """prctl(PR_SET_PDEATHSIG, SIGTERM): the kernel signals us when the parent dies."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


class ParentWatch:
    """Notices a dead parent: a changed parent pid, or EOF on the stdin pipe the parent holds open."""

    def __init__(self) -> None:
        self.parent = os.getppid()
        try:
            self.stdin_is_pipe = stat.S_ISFIFO(os.fstat(0).st_mode)
        except OSError:
            self.stdin_is_pipe = False

    def check(self) -> None:
        """Raise Stopped when the parent is gone."""
        if os.getppid() != self.parent:
            raise Stopped("the parent process exited", EXIT_ERROR)
        if self.stdin_is_pipe and select.select([0], [], [], 0)[0] and not os.read(0, 4096):
            raise Stopped("the parent closed the pipe", EXIT_ERROR)


def _open_flags(sync: str) -> int:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    if sync == "dsync":
        flags |= os.O_DSYNC
    if sync == "direct-fdatasync":
        flags |= os.O_DIRECT
    return flags


def _open_wal_file(scratch: str, params: WalParams) -> int:
    try:
        fd = os.open(os.path.join(scratch, "wal.0"), _open_flags(params.sync), 0o600)
    except OSError as err:
        if err.errno == errno.EINVAL and params.sync == "direct-fdatasync":
            raise TargetError("this filesystem does not support O_DIRECT (choose another --sync)") from err
        raise
    if params.prealloc:
        try:
            os.posix_fallocate(fd, 0, params.size)
        except OSError as err:
            if err.errno in (errno.EOPNOTSUPP, errno.EINVAL):
                raise TargetError("this filesystem cannot preallocate files (fallocate); "
                                  "run with --no-prealloc") from err
            raise
        os.fsync(fd)
    return fd


def _write_buffer(params: WalParams) -> bytes | mmap.mmap:
    """Incompressible data; page-aligned (an anonymous mmap) when O_DIRECT needs it."""
    if params.sync != "direct-fdatasync":
        return os.urandom(params.bs)
    buffer = mmap.mmap(-1, params.bs)
    buffer.write(os.urandom(params.bs))
    return buffer


class Measurement:
    """The timed loop and its per-interval bookkeeping; memory stays flat however long it runs."""

    def __init__(self, config: EngineConfig, watch: ParentWatch, log: Callable[[str], object] | None) -> None:
        self.config, self.params, self.watch, self.log = config, config.params, watch, log
        self.total_sync, self.total_write = LatencyHistogram(), LatencyHistogram()
        self.first_counters: dict[str, WriteCounters] = read_write_counters(config.layers)
        self.last_counters = self.first_counters

    def _interval(self, sync: LatencyHistogram, write: LatencyHistogram, ops: int, elapsed: float) -> None:
        self.total_sync.merge(sync)
        self.total_write.merge(write)
        counters = read_write_counters(self.config.layers)
        layers = [d.to_json() for d in layer_deltas(self.last_counters, counters, self.config.layers)]
        self.last_counters = counters
        planned = self.params.planned_writes
        progress = ops / planned if planned else elapsed / (self.params.duration_s or 1)
        emit({"type": "interval", "t": round(elapsed, 4), "ops": ops, "progress": round(min(progress, 1), 4),
              "sync": sync.to_json(), "write": write.to_json(), "layers": layers})
        self.watch.check()

    def run(self, fd: int) -> dict[str, object]:
        """Write until the size or duration is done; return the final result event."""
        params, clock = self.params, time.perf_counter_ns
        buffer, bs, size = _write_buffer(params), params.bs, params.size
        sync_call = {"fdatasync": os.fdatasync, "direct-fdatasync": os.fdatasync, "fsync": os.fsync}.get(
            params.sync)
        planned = params.planned_writes
        deadline_ns = int(params.duration_s * 1e9) if params.duration_s else None
        period_ns = int(self.config.interval_s * 1e9)
        sync_hist, write_hist = LatencyHistogram(), LatencyHistogram()
        ops = offset = 0
        start = clock()
        next_emit = start + period_ns
        while True:
            if offset + bs > size:
                os.lseek(fd, 0, os.SEEK_SET)
                offset = 0
            t0 = clock()
            done = os.write(fd, buffer)
            while done < bs:
                done += os.write(fd, memoryview(buffer)[done:])
            t1 = clock()
            if sync_call is not None:
                sync_call(fd)
                t2 = clock()
                sync_hist.record(t2 - t1)
            else:
                t2 = t1
                sync_hist.record(t1 - t0)
            write_hist.record(t1 - t0)
            if self.log is not None:
                self.log(f"{(t0 - start) / 1e6:.3f},{t1 - t0},{t2 - t1}\n")
            offset += bs
            ops += 1
            finished = ops == planned if planned else t2 - start >= (deadline_ns or 0)
            if t2 >= next_emit or finished:
                self._interval(sync_hist, write_hist, ops, (t2 - start) / 1e9)
                sync_hist, write_hist = LatencyHistogram(), LatencyHistogram()
                next_emit = clock() + period_ns
            if finished:
                break
        elapsed = (t2 - start) / 1e9
        layers = layer_deltas(self.first_counters, self.last_counters, self.config.layers)
        return {"type": "result", "samples": ops, "duration_s": round(elapsed, 4),
                "ops_per_s": round(ops / elapsed, 2) if elapsed > 0 else None,
                "sync": self.total_sync.to_json(), "write": self.total_write.to_json(),
                "layers": [d.to_json() for d in layers]}


def _open_latency_log(path: str | None) -> tuple[object | None, Callable[[str], object] | None]:
    if not path:
        return None, None
    try:
        handle = open(path, "x", buffering=LOG_BUFFER, encoding="ascii")  # noqa: SIM115
    except FileExistsError as err:
        raise TargetError(f"latency log {path} already exists (choose a new file name)") from err
    except OSError as err:
        raise TargetError(f"cannot create latency log {path}: {describe_bench_error(err)}") from err
    handle.write("time_ms,write_ns,sync_ns\n")
    return handle, handle.write


def run_engine(config: EngineConfig) -> dict[str, object]:
    """Check the target, measure inside a fresh scratch dir, always remove it; return the result event."""
    watch = ParentWatch()
    config.params.validate()
    check_directory(config.directory, config.params.size)
    log_handle, log = _open_latency_log(config.latency_log)
    scratch: str | None = None
    fd = -1
    try:
        with signals_blocked():
            scratch = make_scratch(config.directory)
        emit({"type": "start", "scratch": scratch, "pid": os.getpid(),
              "planned_writes": config.params.planned_writes})
        fd = _open_wal_file(scratch, config.params)
        return Measurement(config, watch, log).run(fd)
    finally:
        with signals_blocked():
            if fd >= 0:
                os.close(fd)
            remove_scratch(scratch)
            if log_handle is not None:
                with contextlib.suppress(OSError):
                    log_handle.close()  # type: ignore[attr-defined]


def main(argv: list[str]) -> int:
    """`_engine wal CONFIG_JSON`: run, stream JSON lines on stdout, exit 0 (done), 2 (error) or 128+N."""
    for signum in STOP_SIGNALS:
        signal.signal(signum, _on_stop_signal)
    _ask_for_parent_death_signal()
    try:
        if len(argv) != 2 or argv[0] != "wal":
            raise ParamError("usage: _engine wal CONFIG_JSON (internal: started by diskdoctor bench)")
        try:
            config = EngineConfig.from_json(argv[1])
        except (ValueError, KeyError, TypeError) as err:
            raise ParamError(f"bad engine configuration: {err}") from err
        emit(run_engine(config))
        return 0
    except Stopped as stop:
        _emit_quietly({"type": "cancelled", "message": stop.reason})
        return stop.code
    except (ParamError, TargetError) as err:
        _emit_quietly({"type": "error", "message": str(err)})
        return EXIT_ERROR
    except OSError as err:
        _emit_quietly({"type": "error", "message": describe_bench_error(err)})
        return EXIT_ERROR


def _emit_quietly(event: dict[str, object]) -> None:
    with contextlib.suppress(OSError):
        emit(event)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
