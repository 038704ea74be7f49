"""Who is doing the I/O: every process's storage read/write bytes and CPU time (psutil, live host only),
and the per-second rates between two readings; processes whose counters are not readable are counted.

/proc/PID/io of another user's process needs root (or CAP_SYS_PTRACE); psutil raises AccessDenied there,
so a reading says how many processes it could not see instead of pretending they did no I/O.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import psutil

KTHREADD = 2
"""Kernel threads (children of kthreadd) do the writeback, journaling and loop I/O on behalf of others."""

ProcessKey = tuple[int, float]
"""(pid, create time): a pid reused by a new process is a different process."""


@dataclass(frozen=True, slots=True)
class ProcessCounters:
    """One process's cumulative storage I/O and CPU seconds at one reading."""

    name: str
    read_bytes: int
    write_bytes: int
    cpu_s: float
    kernel_thread: bool


@dataclass(frozen=True)
class ProcessIoReading:
    """Every readable process at one moment, and how many could not be read (permission)."""

    processes: dict[ProcessKey, ProcessCounters]
    denied: int = 0


def read_process_io(exclude: set[int] | frozenset[int] = frozenset()) -> ProcessIoReading:
    """Cumulative I/O counters of every process except `exclude` (live host only)."""
    found: dict[ProcessKey, ProcessCounters] = {}
    denied = 0
    for process in psutil.process_iter(["pid", "ppid", "name", "create_time"]):
        info = process.info
        if info["pid"] in exclude:
            continue
        try:
            counters, cpu = process.io_counters(), process.cpu_times()
        except psutil.AccessDenied:
            denied += 1
            continue
        except (psutil.Error, OSError):  # gone meanwhile, or a zombie
            continue
        key = (info["pid"], info["create_time"] or 0.0)
        found[key] = ProcessCounters(info["name"] or "?", counters.read_bytes, counters.write_bytes,
                                     cpu.user + cpu.system, KTHREADD in (info["pid"], info["ppid"]))
    return ProcessIoReading(found, denied)


@dataclass(frozen=True, slots=True)
class ProcessRate:
    """One process's storage bytes per second over an interval."""

    pid: int
    name: str
    read_bytes_s: float
    write_bytes_s: float

    def to_json(self) -> dict[str, object]:
        """The `processes[]` entry of `monitor --json-lines`."""
        return {"pid": self.pid, "name": self.name, "read_bytes_s": round(self.read_bytes_s, 1),
                "write_bytes_s": round(self.write_bytes_s, 1)}


@dataclass(frozen=True)
class ProcessRates:
    """The processes that did storage I/O during an interval, busiest first, and who could not be seen."""

    top: list[ProcessRate] = field(default_factory=list)
    denied: int = 0
    as_root: bool = False

    @property
    def denied_note(self) -> str | None:
        """e.g. "12 processes not readable (their /proc/PID/io needs root)"."""
        if not self.denied:
            return None
        plural = "es" if self.denied != 1 else ""
        why = ("permission denied even to root: a ptrace policy or another namespace" if self.as_root
               else "their /proc/PID/io needs root")
        return f"{self.denied} process{plural} not readable ({why})"


def process_rates(before: ProcessIoReading, after: ProcessIoReading, seconds: float,
                  limit: int = 10) -> ProcessRates:
    """Bytes per second of every process present in both readings that moved any bytes, busiest first."""
    rates = []
    for key, now in after.processes.items():
        then = before.processes.get(key)
        if then is None or seconds <= 0:
            continue
        read, written = max(now.read_bytes - then.read_bytes, 0), max(now.write_bytes - then.write_bytes, 0)
        if read or written:
            rates.append(ProcessRate(key[0], now.name, read / seconds, written / seconds))
    rates.sort(key=lambda rate: rate.read_bytes_s + rate.write_bytes_s, reverse=True)
    return ProcessRates(rates[:limit], after.denied, os.geteuid() == 0)


class ProcessIoSampler:
    """Reads every process's counters on each `sample()` and returns the rates since the previous one."""

    def __init__(self, exclude: set[int] | frozenset[int] = frozenset()) -> None:
        self.exclude = exclude
        self.last = read_process_io(exclude)

    def restart(self) -> None:
        """Read the counters again as the baseline of the next sample (after sampling paused)."""
        self.last = read_process_io(self.exclude)

    def sample(self, seconds: float, limit: int = 10) -> ProcessRates:
        """Rates over the last `seconds` (the caller's clock measured them)."""
        now = read_process_io(self.exclude)
        rates = process_rates(self.last, now, seconds, limit)
        self.last = now
        return rates
