"""What else the live host was doing during a benchmark (psutil): CPU busy, iowait, steal, others' I/O.

A verdict taken while other processes kept the CPUs or the disks busy measures them too; the result
records this so the report can say so. Live host only: psutil cannot be re-rooted onto a capture.
"""

from __future__ import annotations

import contextlib
import os
import resource
import time
from dataclasses import asdict, dataclass, field

import psutil

from .process_io import program_label, read_process_io

BUSY_CPU_SHARE = 0.25
"""Other processes using a quarter of the machine's CPU time make a run "taken while busy"."""
BUSY_IO_BYTES_S = 8 << 20
"""Other processes moving 8 MiB/s of storage I/O make a run "taken while busy"."""
TOP_PROCESSES = 3


@dataclass(frozen=True)
class ProcessIO:
    """One other process and the storage bytes it read and wrote during the run."""

    pid: int
    name: str
    read_bytes: int
    write_bytes: int


@dataclass(frozen=True)
class HostLoad:
    """The host during a run: CPU shares of all CPUs (0-1), the engine's own CPU, others' I/O."""

    seconds: float
    cpus: int
    cpu_busy: float
    iowait: float
    steal: float
    engine_cpu_s: float
    other_cpu: float
    """CPU time of other user-space processes, as a share of all CPUs (kernel threads working for the run's
    own I/O, such as writeback and the loop driver, are not counted as others)."""
    other_read_bytes: int
    other_write_bytes: int
    top_io: list[ProcessIO] = field(default_factory=list)

    @property
    def busy_reason(self) -> str | None:
        """Why the host counts as busy during the run (None when it was quiet)."""
        reasons = []
        if self.other_cpu >= BUSY_CPU_SHARE:
            reasons.append(f"other processes used {self.other_cpu:.0%} of the CPUs")
        rate = (self.other_read_bytes + self.other_write_bytes) / self.seconds if self.seconds > 0 else 0.0
        if rate >= BUSY_IO_BYTES_S:
            names = ", ".join(p.name for p in self.top_io) or "unknown"
            reasons.append(f"other processes did {rate / (1 << 20):.0f} MiB/s of I/O ({names})")
        if self.steal >= 0.05:
            reasons.append(f"the hypervisor stole {self.steal:.0%} of the CPU time")
        return "; ".join(reasons) or None

    def line(self) -> str:
        """e.g. "host: CPU 31% busy (others 4%), iowait 12%, steal 0%; others' I/O 0.2 MiB"."""
        moved = (self.other_read_bytes + self.other_write_bytes) / (1 << 20)
        return (f"CPU {self.cpu_busy:.0%} busy (others {self.other_cpu:.0%}), iowait {self.iowait:.0%}, "
                f"steal {self.steal:.0%}; other processes' I/O {moved:,.1f} MiB")

    def to_json(self) -> dict[str, object]:
        """The `host` object of a result, with the verdict-facing `busy` reason."""
        data = asdict(self)
        data["busy"] = self.busy_reason
        return data

    @classmethod
    def from_json(cls, data: dict[str, object]) -> HostLoad:
        """Inverse of `to_json`."""
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        known["top_io"] = [ProcessIO(**item) for item in data.get("top_io") or []]  # type: ignore[union-attr]
        return cls(**known)  # type: ignore[arg-type]


def _process_io(exclude: set[int]) -> dict[tuple[int, float], tuple[str, int, int, float, bool]]:
    """(pid, create time) -> (name, read bytes, write bytes, CPU seconds, kernel thread) of every process
    (kernel threads do the writeback, journaling and loop I/O the run itself causes)."""
    reading = read_process_io(exclude)
    return {key: (p.name, p.read_bytes, p.write_bytes, p.cpu_s, p.kernel_thread)
            for key, p in reading.processes.items()}


def _own_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def cpu_shares(before: object, after: object) -> dict[str, float]:
    """Each CPU state's share of all CPU time between two psutil.cpu_times() readings (guest time is
    already counted in user and nice); "busy" is everything but idle and iowait."""
    names = after._fields  # type: ignore[attr-defined]
    spent = {name: max(getattr(after, name) - getattr(before, name), 0.0) for name in names
             if name not in ("guest", "guest_nice")}
    total = sum(spent.values()) or 1e-9
    shares = {name: value / total for name, value in spent.items()}
    shares["busy"] = max(1.0 - shares.get("idle", 0.0) - shares.get("iowait", 0.0), 0.0)
    return shares


def _children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class HostLoadSampler:
    """Take a reading when a run starts; `finish()` after it ended returns the HostLoad in between."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.wall_started = time.time()
        self.cpu = psutil.cpu_times()
        self.children_cpu = _children_cpu_s()
        self.own_cpu = _own_cpu_s()
        self.io = _process_io({os.getpid()})

    def peek(self) -> HostLoad:
        """The host's load so far, while the engine still runs (the Benchmark screen shows it during the
        run): the running engine's processes, our children and theirs, are set apart by pid, their CPU
        time (all of it: they started with the run) with them."""
        mine, running_s = {os.getpid()}, 0.0
        with contextlib.suppress(psutil.Error):
            for child in psutil.Process().children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    times = child.cpu_times()
                    running_s += times.user + times.system + times.children_user + times.children_system
                    mine.add(child.pid)
        return self.finish(exclude=mine, running_engine_s=running_s)

    def finish(self, *, exclude: set[int] | None = None, running_engine_s: float = 0.0) -> HostLoad:
        """The host's load since construction; the engine processes (waited children, or `exclude` with
        their `running_engine_s` while they still run) are set apart.

        Others' CPU is all the processes' CPU time (user, nice, system) less the engine's, this process's
        and the kernel threads' (writeback and the loop driver work for the run), so processes that came
        and went during the run count too; others' I/O is read per process, a process born during the
        run counting from zero."""
        seconds = max(time.monotonic() - self.started, 1e-9)
        after = psutil.cpu_times()
        shares = cpu_shares(self.cpu, after)
        cpus = psutil.cpu_count() or 1
        engine = max(_children_cpu_s() - self.children_cpu, 0.0) + running_engine_s
        own = max(_own_cpu_s() - self.own_cpu, 0.0)
        spent = sum(max(getattr(after, n) - getattr(self.cpu, n), 0.0) for n in ("user", "nice", "system")
                    if hasattr(after, n))
        others, kernel_s, created = [], 0.0, {}
        for key, (name, read, written, cpu_s, kernel) in _process_io(exclude or {os.getpid()}).items():
            if key in self.io:
                read0, written0, cpu0 = self.io[key][1:4]
            elif key[1] >= self.wall_started - 1.0:
                read0, written0, cpu0 = 0, 0, 0.0
            else:
                continue
            if kernel:
                kernel_s += max(cpu_s - cpu0, 0.0)
            elif read - read0 > 0 or written - written0 > 0:
                others.append(ProcessIO(key[0], name, max(read - read0, 0), max(written - written0, 0)))
                created[key[0]] = key[1]
        other_cpu_s = max(spent - engine - own - kernel_s, 0.0)
        others.sort(key=lambda p: p.read_bytes + p.write_bytes, reverse=True)
        top = [ProcessIO(p.pid, program_label(p.pid, created[p.pid], p.name), p.read_bytes, p.write_bytes)
               for p in others[:TOP_PROCESSES]]  # "python3 etcd_sim.py", not "python" (newuser9)
        return HostLoad(round(seconds, 4), cpus, round(shares["busy"], 4),
                        round(shares.get("iowait", 0.0), 4), round(shares.get("steal", 0.0), 4),
                        round(engine, 4),
                        round(min(other_cpu_s / (seconds * cpus), 1.0), 4), sum(p.read_bytes for p in others),
                        sum(p.write_bytes for p in others), top)
