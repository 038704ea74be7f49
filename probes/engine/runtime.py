"""The engine child's runtime: the `_engine KIND CONFIG` entry, scratch dir, signals, parent death, events.

Every workload runs inside `run_engine`, which checks the target, makes a private scratch directory,
hands the workload an `EngineContext` to stream through, and always removes the scratch directory: on
success, error, SIGTERM/SIGHUP/SIGINT, and when the parent dies (PR_SET_PDEATHSIG or EOF on stdin).
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import json
import os
import select
import signal
import stat
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from ..diskstats import DiskSampler
from ..latency_histogram import LatencyHistogram
from ..root import live_root
from ..wal_params import ParamError
from ..wal_target import TargetError, check_directory, describe_bench_error, make_scratch, remove_scratch
from .protocol import Event, Failed, Finished, Interval, PhaseChanged, Started, encode

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
    """What the parent asks for: the workload and its parameters, the directory, the layers to watch."""

    workload: str
    directory: str
    params: Any
    layers: list[str] = field(default_factory=list)
    interval_s: float = 0.5
    latency_log: str | None = None
    job: str = ""

    def to_json(self) -> str:
        """The CONFIG argument of `_engine KIND CONFIG`."""
        return json.dumps({"dir": self.directory, "params": self.params.to_json(), "layers": self.layers,
                           "interval_s": self.interval_s, "latency_log": self.latency_log, "job": self.job})

    @classmethod
    def from_json(cls, workload: str, text: str) -> EngineConfig:
        """Parse the CONFIG argument for `workload` (ParamError for an unknown one)."""
        from .workloads import workload as find

        data = json.loads(text)
        params = find(workload).params_type.from_json(data["params"])
        return cls(workload, str(data["dir"]), params, list(data.get("layers") or []),
                   float(data.get("interval_s") or 0.5), data.get("latency_log"), str(data.get("job") or ""))


def emit(event: Event) -> None:
    """Write one event line to stdout (the pipe to the parent), unbuffered."""
    data = encode(event)
    while data:
        data = data[os.write(1, data):]


def _emit_quietly(event: Event) -> None:
    with contextlib.suppress(OSError):
        emit(event)


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


class EngineContext:
    """What a workload gets: its config and scratch dir, and calls to stream phases and intervals."""

    def __init__(self, config: EngineConfig, scratch: str, watch: ParentWatch,
                 latency_log: IO[str] | None = None) -> None:
        self.config, self.scratch, self.watch, self.latency_log = config, scratch, watch, latency_log
        self.last_calls = [0, 0]
        """The last write() and sync call (ns), for a workload's latency log."""
        self.phase_name = "run"
        self.disks = DiskSampler(live_root(), config.layers)

    def phase(self, name: str, detail: str = "") -> None:
        """Enter a phase; the per-layer totals of the result count from here."""
        self.phase_name = name
        self.disks = DiskSampler(self.disks.root, self.config.layers)
        emit(PhaseChanged(name, detail, self.config.job))

    def interval(self, t: float, ops: int, progress: float, streams: dict[str, LatencyHistogram], *,
                 bytes_read: int = 0, bytes_written: int = 0, seconds: float = 0.0,
                 load: dict[str, object] | None = None) -> None:
        """Stream one interval (with the layers' deltas since the last) and check the parent is alive."""
        emit(Interval(self.phase_name, t, ops, progress, streams, bytes_read, bytes_written, seconds,
                      self.disks.interval(), self.config.job, dict(load or {})))
        self.watch.check()


def _open_latency_log(path: str | None) -> IO[str] | None:
    if not path:
        return None
    try:
        return open(path, "x", buffering=LOG_BUFFER, encoding="ascii")
    except FileExistsError as err:
        raise TargetError(f"latency log {path} already exists (choose a new file name)") from err
    except OSError as err:
        raise TargetError(f"cannot create latency log {path}: {describe_bench_error(err)}") from err


def run_engine(config: EngineConfig) -> Any:
    """Check the target, run the workload inside a fresh scratch dir, always remove it; return its result."""
    from .workloads import workload

    kind = workload(config.workload)
    watch = ParentWatch()
    config.params.validate()
    check_directory(config.directory, config.params.scratch_bytes)
    log = _open_latency_log(config.latency_log)
    scratch: str | None = None
    try:
        with signals_blocked():
            scratch = make_scratch(config.directory)
        emit(Started(config.workload, os.getpid(), scratch, config.job))
        return kind.run(config.params, EngineContext(config, scratch, watch, log))
    finally:
        with signals_blocked():
            remove_scratch(scratch)
            if log is not None:
                with contextlib.suppress(OSError):
                    log.close()


def main(argv: list[str]) -> int:
    """`_engine KIND CONFIG_JSON`: run, stream events on stdout, exit 0 (done), 2 (error) or 128+N."""
    from .workloads import WORKLOADS

    for signum in STOP_SIGNALS:
        signal.signal(signum, _on_stop_signal)
    _ask_for_parent_death_signal()
    gc.disable()  # a short-lived child that makes no reference cycles: no collector pauses in timed loops
    job = ""
    try:
        if len(argv) != 2 or argv[0] not in WORKLOADS:
            raise ParamError(f"usage: _engine {{{','.join(WORKLOADS)}}} CONFIG_JSON "
                             "(internal: started by diskdoctor bench)")
        try:
            config = EngineConfig.from_json(argv[0], argv[1])
        except (ValueError, KeyError, TypeError) as err:
            raise ParamError(f"bad engine configuration: {err}") from err
        job = config.job
        emit(Finished(config.workload, run_engine(config), job))
        return 0
    except Stopped as stop:
        _emit_quietly(Failed(stop.reason, True, job))
        return stop.code
    except (ParamError, TargetError) as err:
        _emit_quietly(Failed(str(err), False, job))
        return EXIT_ERROR
    except OSError as err:
        _emit_quietly(Failed(describe_bench_error(err), False, job))
        return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
