"""What a workload runs inside, in the engine child: its configuration, the context it streams through,
signals and parent death (the entry that starts a workload is `engine/main.py`)."""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from ..diskstats import DiskSampler
from ..latency_histogram import LatencyHistogram
from ..root import live_root
from .protocol import Event, Interval, PhaseChanged, encode

STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
EXIT_ERROR = 2
HERE = "."
"""The scratch directory as workloads name it: the working directory, held by descriptor."""


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
    def from_json(cls, workload: str, text: str, params_type: Any) -> EngineConfig:
        """Parse the CONFIG argument for `workload`, whose parameters are a `params_type`."""
        data = json.loads(text)
        params = params_type.from_json(data["params"])
        return cls(workload, str(data["dir"]), params, list(data.get("layers") or []),
                   float(data.get("interval_s") or 0.5), data.get("latency_log"), str(data.get("job") or ""))


def emit(event: Event) -> None:
    """Write one event line to stdout (the pipe to the parent), unbuffered."""
    data = encode(event)
    while data:
        data = data[os.write(1, data):]


@contextlib.contextmanager
def signals_blocked() -> Iterator[None]:
    """Hold stop signals while a scratch dir is created or removed, so none is half done."""
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


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
