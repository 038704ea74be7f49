"""Who is doing the I/O: every process's storage read/write bytes and CPU time (psutil, live host only),
and the per-second rates between two readings; processes whose counters are not readable are counted.

/proc/PID/io of another user's process needs root (or CAP_SYS_PTRACE); psutil raises AccessDenied there,
so a reading says how many processes it could not see instead of pretending they did no I/O.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
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
    program: str = ""
    """What the process runs, when its name alone does not say ("python3 etcd_sim.py"); else empty."""

    @property
    def label(self) -> str:
        """The program when known, else the name (a raw host string: made safe where it is shown)."""
        return self.program or self.name

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
        """e.g. "12 processes unreadable (their /proc/PID/io needs root)", kept short: it shares a pane."""
        if not self.denied:
            return None
        plural = "es" if self.denied != 1 else ""
        why = ("even by root (ptrace policy or namespace)" if self.as_root
               else "(their /proc/PID/io needs root)")
        return f"{self.denied} process{plural} unreadable {why}"


ByteCounts = dict[ProcessKey, tuple[int, int, psutil.Process]]
"""(pid, create time) -> (read bytes, write bytes, the process) of every readable process."""


def read_process_bytes(exclude: set[int] | frozenset[int] = frozenset()) -> tuple[ByteCounts, int]:
    """Cumulative storage bytes of every process except `exclude`, and how many could not be read: one
    read of /proc/PID/io each (psutil keeps each process's object, with its create time, between calls);
    the name is left for the few that moved bytes."""
    found: ByteCounts = {}
    denied = 0
    for process in psutil.process_iter():
        if process.pid in exclude:
            continue
        try:
            counters = process.io_counters()
            key = (process.pid, process.create_time())
        except psutil.AccessDenied:
            denied += 1
            continue
        except (psutil.Error, OSError):  # gone meanwhile, or a zombie
            continue
        found[key] = (counters.read_bytes, counters.write_bytes, process)
    return found, denied


def _name(process: psutil.Process) -> str:
    """The process's name now ("?" when it is gone or unreadable)."""
    try:
        return process.name() or "?"
    except (psutil.Error, OSError):
        return "?"


INTERPRETER = re.compile(r"(python|pypy|perl|ruby|node|nodejs|php|lua|bash|sh|dash|zsh)[0-9.]*")
"""Programs whose name says only the language: the script they run says which program it is."""
CODE_FLAGS = frozenset({"-c", "-e", "-E", "--eval"})
"""Flags after which the command line holds code, not a script's name (nothing more is said)."""


NAMELESS_SCRIPT = re.compile(r"/dev/(fd/[0-9]+|stdin)|/proc/[^/]+/fd/[0-9]+")
"""A script read from an open file ("bash /dev/fd/3"): its path names no program (newuser9 saw "bash 3")."""
MEMFD_PREFIX = "memfd:"
"""A program run from an anonymous memory file is named after that file ("memfd:sealed-91"), not itself."""


def unclear_name(name: str) -> bool:
    """Whether the kernel's name for a process says little on its own: an interpreter (the script says
    which program), a memory file's name, or a title the program set with spaces ("tmux: server")."""
    return bool(INTERPRETER.fullmatch(name.split(" ", 1)[0])) or name.startswith(MEMFD_PREFIX) or " " in name


def _command(cmdline: list[str], exe: str) -> str:
    """The file the process was started as: its command's base name, else its executable's (not a
    memory file's, which names nothing a person knows)."""
    command = os.path.basename(cmdline[0].rstrip("/")).rstrip(":") if cmdline else ""
    if command:
        return command
    exe_name = os.path.basename(exe.removesuffix(" (deleted)"))
    return "" if exe_name.startswith(MEMFD_PREFIX) else exe_name


def program_of(name: str, cmdline: list[str], exe: str = "") -> str:
    """What a person knows a process by when its name says little (see unclear_name): an interpreter
    with the script or module it runs ("python3 etcd_sim.py", "python3 -m http.server"), else the command
    it was started as ("binary_backend" for "memfd:sealed-91", "tmux" for "tmux: server"); empty when
    the name is clear or nothing better is known (`bash /dev/fd/3` is "bash", not "bash 3")."""
    if not unclear_name(name):
        return ""
    command = _command(cmdline, exe)
    if INTERPRETER.fullmatch(command or name.split(" ", 1)[0]):
        interpreter = command or name
        args = iter(cmdline[1:])
        for arg in args:
            if arg in CODE_FLAGS:
                break
            if arg == "-m":
                module = next(args, "")
                if module:
                    return f"{interpreter} -m {module}"
                break
            if arg and not arg.startswith("-"):
                if NAMELESS_SCRIPT.fullmatch(arg):
                    break
                return f"{interpreter} {os.path.basename(arg.rstrip('/')) or arg}"
    retitled = name.startswith(MEMFD_PREFIX) or " " in name  # a bare interpreter's name is clear enough
    return command if retitled and command != name else ""


def _program(process: psutil.Process, name: str) -> str:
    """What a process is known by when its name says little, from its command line (empty when
    unreadable, or when the name says enough)."""
    if not unclear_name(name):
        return ""
    try:
        cmdline = process.cmdline()
    except (psutil.Error, OSError):
        return ""
    try:
        exe = process.exe() if not cmdline else ""
    except (psutil.Error, OSError):
        exe = ""
    return program_of(name, cmdline, exe)


def program_label(pid: int, created: float, name: str) -> str:
    """What a person knows the process `pid` (started at `created`) by: program_of's answer while it still
    runs, else its name."""
    if not unclear_name(name):
        return name
    try:
        process = psutil.Process(pid)
        if abs(process.create_time() - created) > 0.01:  # the pid went to another process
            return name
    except (psutil.Error, OSError):
        return name
    return _program(process, name) or name


CREATED_SLACK_S = 1.0
"""psutil's create times count from the boot time in whole seconds (/proc/stat btime): up to 1 s early."""
REAP_SAMPLES = 3
"""An exited child's bytes are looked for in its parent's counters this many samples (a zombie waits for its
parent's wait(); a reparented one's reaper is not known, so its bytes are not kept back for ever)."""


class ProcessIoSampler:
    """Reads every process's byte counters on each `sample()` and returns the rates since the previous one;
    only the processes shown (the busiest `limit`) have their names read (the monitor samples each tick,
    so what is read for every process is kept to one file: walking /proc was most of an idle tick)."""

    def __init__(self, exclude: set[int] | frozenset[int] = frozenset()) -> None:
        self.exclude = exclude
        self.parents: dict[ProcessKey, int] = {}
        """The parent pid of each process that has moved bytes, read once when first seen."""
        self.read_at = 0.0
        """When the last reading began (time.time(), as psutil's create times)."""
        self.pending: dict[int, tuple[int, int, int]] = {}
        """pid -> (read, written, samples left): exited children's bytes not yet seen in their parent's
        counters (a zombie not reaped yet), taken off the parent's gain for REAP_SAMPLES samples at most."""
        self.last = self._read()[0]

    def _read(self) -> tuple[ByteCounts, int]:
        """Every process's counters, and the parent of each one new since the last read that moved bytes
        (who reaps it: its whole counts are added to that parent's when it exits)."""
        self.read_at = time.time()  # before the walk: a process created since was not in the last one
        found, denied = read_process_bytes(self.exclude)
        for key, (read, written, process) in found.items():
            if (read or written) and key not in self.parents:
                with contextlib.suppress(psutil.Error, OSError):  # gone meanwhile
                    self.parents[key] = process.ppid()
        return found, denied

    def restart(self) -> None:
        """Read the counters again as the baseline of the next sample (after sampling paused)."""
        self.last = self._read()[0]

    def _reaped(self, before: ByteCounts, now: ByteCounts) -> dict[int, tuple[int, int]]:
        """The bytes each pid's counters gained from children that exited since `before`: the kernel adds a
        reaped child's whole counts (all it ever read and wrote) to its parent's /proc/PID/io, so a shell
        running `dd` in a loop jumped by each dd's lifetime in one tick (newuser24 #3: `bash 328`); what
        the child moved before `before` was counted already, as its own."""
        gained: dict[int, tuple[int, int]] = {}
        for key, (read, written, _) in before.items():
            parent = self.parents.get(key)
            if key in now or parent is None or not (read or written):
                continue
            was = gained.get(parent, (0, 0))
            gained[parent] = (was[0] + read, was[1] + written)
        return gained

    def sample(self, seconds: float, limit: int = 10) -> ProcessRates:
        """Rates over the last `seconds` (the caller's clock measured them)."""
        started, (now, denied) = self.read_at, self._read()
        before, self.last = self.last, now
        for pid, (read, written) in self._reaped(before, now).items():
            was = self.pending.get(pid, (0, 0, 0))
            self.pending[pid] = (was[0] + read, was[1] + written, REAP_SAMPLES)
        for gone in [key for key in self.parents if key not in now]:
            del self.parents[gone]
        reaped, self.pending = self.pending, {}
        moved = []
        for key, (read_now, written_now, process) in now.items():
            then = before.get(key)
            if then is None and key[1] >= started - CREATED_SLACK_S:  # started since the last reading
                then = (0, 0, process)  # (newuser24: a dd's first second was nobody's, 388 MB/s dirtied)
            if then is None or seconds <= 0:
                continue
            read, written = max(read_now - then[0], 0), max(written_now - then[1], 0)
            children = reaped.pop(key[0], None)
            if children is not None:  # what the parent gained from them is no I/O of its own
                child_read, child_written, left = children
                read, child_read = max(read - child_read, 0), max(child_read - read, 0)
                written, child_written = max(written - child_written, 0), max(child_written - written, 0)
                if (child_read or child_written) and left > 1:
                    self.pending[key[0]] = (child_read, child_written, left - 1)
            if read or written:
                moved.append((read + written, key[0], read, written, process))
        moved.sort(key=lambda item: item[0], reverse=True)
        top = []
        for _, pid, read, written, process in moved[:limit]:
            name = _name(process)
            top.append(ProcessRate(pid, name, read / seconds, written / seconds, _program(process, name)))
        return ProcessRates(top, denied, os.geteuid() == 0)
