"""The engine's event protocol, defined once: typed events, a JSON line each, for the engine, CLI and TUI."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..diskstats import DiskDelta
from ..latency_histogram import LatencyHistogram

PHASES = ("prepare", "ready", "run", "alone", "under_compaction", "cleanup")
"""What a run is doing: laying out inputs, waiting for its sibling jobs, measuring, (interference) the WAL
alone and beside compaction, removing its files."""


@dataclass
class Started:
    """The child made its scratch directory and begins; `job` names it inside a multi-process run."""

    workload: str
    pid: int
    scratch: str | None
    job: str = ""


@dataclass
class PhaseChanged:
    """The run entered `phase` (one of PHASES); `detail` says what it does there, for the status line."""

    phase: str
    detail: str = ""
    job: str = ""


@dataclass
class Interval:
    """One streaming period: named latency streams, bytes moved and per-layer deltas since the last one.

    `t` is seconds since the phase began, `ops` the operations so far in the phase, `progress` 0-1 of it;
    `load` the load its figures were measured at ({"rate": writes/s or None, "arrival": "steady", "poisson"
    or "closed"}), empty for workloads without one."""

    phase: str
    t: float
    ops: int
    progress: float
    streams: dict[str, LatencyHistogram] = field(default_factory=dict)
    bytes_read: int = 0
    bytes_written: int = 0
    seconds: float = 0.0
    layers: list[DiskDelta] = field(default_factory=list)
    job: str = ""
    load: dict[str, object] = field(default_factory=dict)

    def stream(self, name: str) -> LatencyHistogram:
        """The named stream, or an empty histogram when this workload has none of that name."""
        return self.streams.get(name) or LatencyHistogram()


@dataclass
class Finished:
    """The run's final, typed result (one of the workloads' result types)."""

    workload: str
    result: Any
    job: str = ""
    sections: dict[str, list[LatencyHistogram]] | None = None
    """The run cut into consecutive parts per judged figure (the parent adds them from the intervals)."""


@dataclass
class Failed:
    """The run stopped with an error or was cancelled; `message` is one line for the user."""

    message: str
    cancelled: bool = False
    job: str = ""


Event = Started | PhaseChanged | Interval | Finished | Failed


def to_json(event: Event) -> dict[str, object]:
    """The JSON object of one event (its "type" says which)."""
    if isinstance(event, Started):
        return {"type": "start", "workload": event.workload, "pid": event.pid, "scratch": event.scratch,
                "job": event.job}
    if isinstance(event, PhaseChanged):
        return {"type": "phase", "phase": event.phase, "detail": event.detail, "job": event.job}
    if isinstance(event, Interval):
        return {"type": "interval", "phase": event.phase, "t": round(event.t, 4), "ops": event.ops,
                "progress": round(min(max(event.progress, 0.0), 1.0), 4),
                "streams": {name: h.to_json() for name, h in event.streams.items()},
                "bytes_read": event.bytes_read, "bytes_written": event.bytes_written,
                "seconds": round(event.seconds, 4), "layers": [d.to_json() for d in event.layers],
                "job": event.job, "load": event.load}
    if isinstance(event, Finished):
        return {"type": "result", "workload": event.workload, "result": event.result.to_json(),
                "job": event.job}
    return {"type": "cancelled" if event.cancelled else "error", "message": event.message, "job": event.job}


def encode(event: Event) -> bytes:
    """One event as a compact JSON line."""
    return (json.dumps(to_json(event), separators=(",", ":")) + "\n").encode()


ResultReader = Callable[[str, dict[str, Any]], Any]
"""How a `result` event's document becomes the typed result: (workload name, its JSON) -> result."""


def from_json(data: dict[str, Any], read_result: ResultReader) -> Event | None:
    """Rebuild a typed event from its JSON object; None for an unknown type."""
    kind, job = data.get("type"), str(data.get("job") or "")
    if kind == "start":
        return Started(str(data["workload"]), int(data["pid"]), data.get("scratch"), job)
    if kind == "phase":
        return PhaseChanged(str(data["phase"]), str(data.get("detail") or ""), job)
    if kind == "interval":
        return Interval(str(data["phase"]), float(data["t"]), int(data["ops"]), float(data["progress"]),
                        {name: LatencyHistogram.from_json(h) for name, h in data["streams"].items()},
                        int(data.get("bytes_read") or 0), int(data.get("bytes_written") or 0),
                        float(data.get("seconds") or 0.0),
                        [DiskDelta.from_json(d) for d in data.get("layers") or []], job,
                        dict(data.get("load") or {}))
    if kind == "result":
        name = str(data["workload"])
        return Finished(name, read_result(name, data["result"]), job)
    if kind in ("error", "cancelled"):
        return Failed(str(data.get("message")), kind == "cancelled", job)
    return None


def decode(line: str | bytes, read_result: ResultReader) -> Event | None:
    """One JSON line as a typed event; None for junk (a stray print must not break a run)."""
    try:
        data = json.loads(line)
        return from_json(data, read_result) if isinstance(data, dict) else None
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
