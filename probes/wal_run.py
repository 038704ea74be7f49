"""The parent side of a WAL run: start the engine child, read its JSON lines, cancel it, clean up after it."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field

from .diskstats import LayerDelta
from .engine_launch import engine_argv
from .latency_histogram import LatencyHistogram
from .wal_engine import EngineConfig
from .wal_target import TargetError, describe_bench_error, remove_scratch

STOP_WAIT_S = 5.0


@dataclass
class IntervalSnapshot:
    """One streamed interval: latencies of its writes and syncs, progress, and what each layer did."""

    t: float
    ops: int
    progress: float
    sync: LatencyHistogram
    write: LatencyHistogram
    layers: list[LayerDelta]


@dataclass
class WalResult:
    """The engine's final figures (whole-run histograms; per-layer totals)."""

    samples: int
    duration_s: float
    ops_per_s: float | None
    sync: LatencyHistogram
    write: LatencyHistogram
    layers: list[LayerDelta] = field(default_factory=list)

    kind = "wal"
    """The benchmark kind a saved run of this result is filed under."""

    def to_json(self) -> dict[str, object]:
        """Everything needed to rebuild this result (whole histograms, not only percentiles)."""
        return {"samples": self.samples, "duration_s": self.duration_s, "ops_per_s": self.ops_per_s,
                "sync": self.sync.to_json(), "write": self.write.to_json(),
                "layers": [layer.to_json() for layer in self.layers]}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> WalResult:
        """Inverse of `to_json`; KeyError, TypeError or ValueError on a document that is not one."""
        ops = data.get("ops_per_s")
        return cls(int(data["samples"]), float(data["duration_s"]),  # type: ignore[arg-type]
                   None if ops is None else float(ops),  # type: ignore[arg-type]
                   LatencyHistogram.from_json(data["sync"]),  # type: ignore[arg-type]
                   LatencyHistogram.from_json(data["write"]),  # type: ignore[arg-type]
                   _layers(data.get("layers")))


@dataclass
class RunFailed:
    """The engine stopped with an error or was cancelled; `message` is one line."""

    message: str
    cancelled: bool = False


def _layers(items: object) -> list[LayerDelta]:
    return [LayerDelta(i["kname"], i["writes"], i["flushes"], i["write_await_ms"], i["flush_await_ms"],
                       i.get("bytes_written", 0)) for i in items or []]  # type: ignore[union-attr]


def parse_event(line: str) -> IntervalSnapshot | WalResult | RunFailed | dict[str, object] | None:
    """One JSON line of the engine as an object (a plain dict for "start"; None for junk)."""
    try:
        event = json.loads(line)
        kind = event.get("type")
        if kind == "interval":
            return IntervalSnapshot(event["t"], event["ops"], event["progress"],
                                    LatencyHistogram.from_json(event["sync"]),
                                    LatencyHistogram.from_json(event["write"]), _layers(event["layers"]))
        if kind == "result":
            return WalResult(event["samples"], event["duration_s"], event["ops_per_s"],
                             LatencyHistogram.from_json(event["sync"]),
                             LatencyHistogram.from_json(event["write"]), _layers(event["layers"]))
        if kind in ("error", "cancelled"):
            return RunFailed(str(event.get("message")), cancelled=kind == "cancelled")
        return event if kind == "start" else None
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


class WalRun:
    """One engine child: iterate `events()` for snapshots and the final result; `cancel()` from anywhere."""

    def __init__(self, config: EngineConfig) -> None:
        self.config = config
        self.scratch: str | None = None
        self.cancelled = False
        argv = engine_argv(["wal", config.to_json()])
        try:
            self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE, text=True, bufsize=1, close_fds=True)
        except OSError as err:
            raise TargetError(f"cannot start the benchmark engine {argv[0]}: "
                              f"{describe_bench_error(err)}") from err

    def events(self) -> Iterator[IntervalSnapshot | WalResult | RunFailed]:
        """Snapshots as they arrive, then exactly one WalResult or RunFailed."""
        assert self.process.stdout is not None
        final: WalResult | RunFailed | None = None
        ended = False
        try:
            for line in self.process.stdout:
                event = parse_event(line)
                if isinstance(event, dict):
                    self.scratch = str(event.get("scratch") or "") or None
                elif isinstance(event, IntervalSnapshot):
                    yield event
                elif event is not None:
                    final = event
            ended = True
        finally:
            self._reap(stop=not ended)
        if final is None:
            errors = self.process.stderr.read().strip().splitlines() if self.process.stderr else []
            detail = errors[-1] if errors else f"exit code {self.process.returncode}"
            final = RunFailed("benchmark cancelled" if self.cancelled else
                              f"the benchmark engine stopped unexpectedly ({detail})", self.cancelled)
        yield final

    def cancel(self) -> None:
        """Ask the engine to stop (it removes its scratch dir); safe to call twice or after it ended."""
        self.cancelled = True
        with contextlib.suppress(OSError, ValueError):
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGTERM)

    def _reap(self, *, stop: bool) -> None:
        """Wait for the child (killing it if it hangs) and remove its scratch dir if it could not."""
        if stop:
            self.cancel()
        try:
            self.process.wait(timeout=STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        with contextlib.suppress(OSError, ValueError):
            if self.process.stdin:
                self.process.stdin.close()
        if self.scratch and os.path.isdir(self.scratch):
            remove_scratch(self.scratch)
