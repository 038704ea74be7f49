"""Turn trace_pipe lines of the syscall and block tracepoints into per-call latencies: each sync call's time
from its sys_enter to its sys_exit on the same thread, per file; each request's time in a device."""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field

from .db_files import FdPaths, classify_path
from .latency_histogram import LatencyHistogram

SYNC_CALLS = ("fdatasync", "fsync", "sync_file_range")
WRITE_CALLS = ("write", "pwrite64")
LINE = re.compile(r"^\s*(?P<comm>.*?)-(?P<tid>\d+)\s+(?:\(\s*[-\d]+\)\s+)?\[\d+\]\s+(?:\S+\s+)?"
                  r"(?P<sec>\d+)\.(?P<frac>\d+): (?P<body>.*)$")
ENTER = re.compile(r"^sys_(?P<call>\w+)\(fd: (?P<fd>(?:0x)?[0-9a-fA-F]+)")
EXIT = re.compile(r"^sys_(?P<call>\w+) -> (?P<ret>-?(?:0x)?[0-9a-fA-F]+)")
BLOCK = re.compile(r"^block_rq_(?P<what>issue|complete): (?P<major>\d+),(?P<minor>\d+) (?P<rwbs>\S+) "
                   r"(?:\d+ )?\(.*?\) (?P<sector>\d+) \+ (?P<nr>\d+)")
LOST = re.compile(r"^CPU:\d+ \[LOST (\d+) EVENTS\]")


def _ns(sec: str, frac: str) -> int:
    return int(sec) * 1_000_000_000 + int((frac + "000000000")[:9])


@dataclass
class FileCalls:
    """One kind of call on one file of the traced processes, and its latencies."""

    call: str
    path: str
    file_class: str
    label: str
    histogram: LatencyHistogram = field(default_factory=LatencyHistogram)
    errors: int = 0

    def to_json(self) -> dict[str, object]:
        """The streamed and saved form (histogram in nanoseconds)."""
        return {"call": self.call, "path": self.path, "class": self.file_class, "label": self.label,
                "errors": self.errors, "histogram": self.histogram.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> FileCalls:
        """Inverse of `to_json`."""
        return cls(str(data["call"]), str(data["path"]), str(data["class"]), str(data["label"]),
                   LatencyHistogram.from_json(data["histogram"]),  # type: ignore[arg-type]
                   int(data.get("errors") or 0))  # type: ignore[call-overload]


@dataclass
class DeviceTimes:
    """The requests one block device completed and how long each spent in it (issue to completion)."""

    dev: str
    """major:minor."""
    histogram: LatencyHistogram = field(default_factory=LatencyHistogram)
    flushes: int = 0

    def to_json(self) -> dict[str, object]:
        """The streamed and saved form."""
        return {"dev": self.dev, "flushes": self.flushes, "histogram": self.histogram.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> DeviceTimes:
        """Inverse of `to_json`."""
        return cls(str(data["dev"]), LatencyHistogram.from_json(data["histogram"]),  # type: ignore[arg-type]
                   int(data.get("flushes") or 0))  # type: ignore[call-overload]


@dataclass
class Tally:
    """Calls per (call, path) and requests per device over some span (one interval, or the whole watch)."""

    files: dict[tuple[str, str], FileCalls] = field(default_factory=dict)
    devices: dict[str, DeviceTimes] = field(default_factory=dict)

    def merge(self, other: Tally) -> None:
        """Add every call and request of `other`."""
        for key, calls in other.files.items():
            mine = self.files.get(key)
            if mine is None:
                mine = self.files[key] = FileCalls(calls.call, calls.path, calls.file_class, calls.label)
            mine.histogram.merge(calls.histogram)
            mine.errors += calls.errors
        for dev, times in other.devices.items():
            held = self.devices.setdefault(dev, DeviceTimes(dev))
            held.histogram.merge(times.histogram)
            held.flushes += times.flushes

    def by_class(self, call: str | None = None) -> dict[str, LatencyHistogram]:
        """One histogram per file class (of `call`, or of every sync call)."""
        merged: dict[str, LatencyHistogram] = {}
        for calls in self.files.values():
            if (call is None and calls.call in SYNC_CALLS) or calls.call == call:
                merged.setdefault(calls.file_class, LatencyHistogram()).merge(calls.histogram)
        return merged


class SyncTracer:
    """Pairs sys_enter/sys_exit lines per thread and block issue/complete per request; `take` hands over
    the tally since the last take."""

    def __init__(self, paths: FdPaths | None = None) -> None:
        self.paths = paths or FdPaths()
        self.pending: dict[int, tuple[str, int, int]] = {}
        self.issued: dict[tuple[str, int], int] = {}
        self.flushes: dict[str, deque[int]] = {}
        self.tally = Tally()
        self.lost_lines = 0
        """Events trace_pipe itself reported lost (its `[LOST N EVENTS]` lines)."""
        self.unpaired = 0
        """Exits without their enter (the enter came before the watch started, or was lost)."""

    def feed(self, lines: list[str]) -> None:
        """Take a batch of trace_pipe lines."""
        for line in lines:
            match = LINE.match(line)
            if match is None:
                lost = LOST.match(line.strip())
                if lost:
                    self.lost_lines += int(lost.group(1))
                continue
            body, tid = match.group("body"), int(match.group("tid"))
            when = _ns(match.group("sec"), match.group("frac"))
            if body.startswith("block_rq_"):
                self._block(body, when)
                continue
            enter = ENTER.match(body)
            if enter is not None:
                self.pending[tid] = (enter.group("call"), int(enter.group("fd"), 0), when)
                continue
            done = EXIT.match(body)
            if done is None:
                continue
            started = self.pending.pop(tid, None)
            if started is None or started[0] != done.group("call"):
                self.unpaired += 1
                continue
            call, fd, began = started
            ret = int(done.group("ret"), 0)
            self._add(tid, call, fd, when - began, ret < 0 or ret >= 1 << 63)  # -errno, printed as 0x%lx

    def _add(self, tid: int, call: str, fd: int, elapsed: int, failed: bool) -> None:
        path = self.paths.path(tid, fd)
        key = (call, path)
        calls = self.tally.files.get(key)
        if calls is None:
            file_class, label = classify_path(path)
            calls = self.tally.files[key] = FileCalls(call, path, file_class, label)
        calls.histogram.record(max(elapsed, 0))
        calls.errors += failed

    def _block(self, body: str, when: int) -> None:
        match = BLOCK.match(body)
        if match is None:
            return
        dev = f"{match.group('major')}:{match.group('minor')}"
        flush = match.group("nr") == "0"
        if match.group("what") == "issue":
            if flush:
                self.flushes.setdefault(dev, deque(maxlen=1024)).append(when)
            else:
                self.issued[(dev, int(match.group("sector")))] = when
            return
        if flush:
            queue = self.flushes.get(dev)
            began = queue.popleft() if queue else None
        else:
            began = self.issued.pop((dev, int(match.group("sector"))), None)
        if began is None:
            return
        times = self.tally.devices.get(dev)
        if times is None:
            times = self.tally.devices[dev] = DeviceTimes(dev)
        times.histogram.record(max(when - began, 0))
        times.flushes += flush

    def take(self) -> Tally:
        """The calls and requests completed since the last take (fd paths are looked up afresh after it)."""
        tally, self.tally = self.tally, Tally()
        self.paths.forget()
        if len(self.issued) > 65536:  # requests whose completion was lost: never grow without bound
            self.issued.clear()
        return tally
