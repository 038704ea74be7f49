"""`watch`'s tracing: the chosen processes' sync (and write) calls from the syscall tracepoints and their
devices' request times from the block tracepoints, each in a private tracefs instance removed on exit."""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass, field
from typing import Any

import psutil

from .app_processes import classify, etcd_data_dir, option_value
from .db_files import FdPaths
from .sync_trace import SYNC_CALLS, WRITE_CALLS, DeviceTimes, FileCalls, SyncTracer, Tally
from .tracefs import (
    DEFAULT_BUFFER_KB,
    NO_TRACE_HINT,
    Instance,
    TraceUnavailable,
    require_events,
    sweep_stale,
    tracing_dir,
)
from .wal_params import ParamError

KNOWN_PROCESSES = ("etcd", "postgres", "mysqld", "ceph-osd", "elasticsearch")
BLOCK_EVENTS = ("block/block_rq_issue", "block/block_rq_complete")


@dataclass(frozen=True)
class WatchParams:
    """What was watched: the process name asked for, its pids, its data directory, for how long."""

    process: str
    pids: tuple[int, ...]
    data_dir: str | None = None
    seconds: float | None = None
    writes: bool = False

    def validate(self) -> None:
        """ParamError for parameters no watch could have had."""
        if not self.pids or any(pid <= 0 for pid in self.pids):
            raise ParamError("a watch needs at least one process id")
        if self.seconds is not None and not 0 < self.seconds < 1e7:
            raise ParamError("--seconds must be a positive number")

    def to_json(self) -> dict[str, object]:
        """The `params` object of the watch document."""
        return {"process": self.process, "pids": list(self.pids), "data_dir": self.data_dir,
                "seconds": self.seconds, "writes": self.writes}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> WatchParams:
        """Inverse of `to_json`."""
        seconds = data.get("seconds")
        return cls(str(data["process"]), tuple(int(pid) for pid in data["pids"]),
                   None if data.get("data_dir") is None else str(data["data_dir"]),
                   None if seconds is None else float(seconds), bool(data.get("writes")))


@dataclass
class WatchResult:
    """Everything a watch saw: calls per file, requests per device, and what it could not see."""

    seconds: float
    tally: Tally = field(default_factory=Tally)
    lost_events: int = 0
    unpaired: int = 0
    device_names: dict[str, str] = field(default_factory=dict)
    """major:minor -> kernel name (sda, nvme0n1, loop3)."""

    def to_json(self) -> dict[str, object]:
        """The result fields of the watch document."""
        return {"seconds": round(self.seconds, 3), "lost_events": self.lost_events, "unpaired": self.unpaired,
                "files": [calls.to_json() for calls in self.tally.files.values()],
                "devices": [times.to_json() | {"name": self.device_names.get(times.dev, times.dev)}
                            for times in self.tally.devices.values()]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> WatchResult:
        """Inverse of `to_json`."""
        files = [FileCalls.from_json(item) for item in data.get("files") or []]
        devices = [DeviceTimes.from_json(item) for item in data.get("devices") or []]
        tally = Tally({(calls.call, calls.path): calls for calls in files}, {d.dev: d for d in devices})
        names = {str(item["dev"]): str(item.get("name") or item["dev"]) for item in data.get("devices") or []}
        return cls(float(data.get("seconds") or 0.0), tally, int(data.get("lost_events") or 0),
                   int(data.get("unpaired") or 0), names)


def _kind_of(process: psutil.Process) -> tuple[str, list[str]]:
    argv = [str(word) for word in process.info["cmdline"] or []]
    name = process.info["name"] or ""
    kind = classify(name, argv)
    if kind == "opensearch":
        kind = "elasticsearch"
    return kind or (os.path.basename(argv[0]) if argv else name), argv


def find_processes(name: str) -> tuple[list[int], str | None]:
    """The pids of every running process called `name` (etcd, postgres, ... or any program name) and the
    data directory of the first (etcd: --data-dir; postgres: -D; None when its command line does not say:
    the watch then takes the directory of the files it syncs)."""
    pids: list[int] = []
    data_dir = None
    for process in psutil.process_iter(["pid", "name", "cmdline"]):
        if process.info["pid"] == os.getpid():
            continue
        kind, argv = _kind_of(process)
        if name not in (kind, process.info["name"]):
            continue
        pids.append(process.info["pid"])
        if data_dir is None:
            data_dir = _data_dir(process, kind, argv)
    return sorted(pids), data_dir


def candidates() -> list[tuple[str, list[int], str | None]]:
    """Every running database of the known kinds (etcd, postgres, mysqld, ceph-osd, elasticsearch): (name,
    its pids, the data directory of the first), for a user to pick one to watch."""
    found: dict[str, tuple[list[int], str | None]] = {}
    for process in psutil.process_iter(["pid", "name", "cmdline"]):
        kind, argv = _kind_of(process)
        name = kind if kind in KNOWN_PROCESSES else process.info["name"]
        if name not in KNOWN_PROCESSES:
            continue
        pids, data_dir = found.setdefault(name, ([], None))
        pids.append(process.info["pid"])
        if data_dir is None:
            found[name] = (pids, _data_dir(process, name, argv))
    return [(name, sorted(pids), data_dir) for name, (pids, data_dir) in sorted(found.items())]


def describe_pid(pid: int) -> tuple[str, str | None]:
    """(program name, data directory) of `pid`; ParamError when no such process runs."""
    try:
        process = psutil.Process(pid)
        process.info = {"pid": pid, "name": process.name(), "cmdline": process.cmdline()}
    except (psutil.Error, OSError):
        raise ParamError(f"no running process has pid {pid}") from None
    kind, argv = _kind_of(process)
    return kind, _data_dir(process, kind, argv)


def _data_dir(process: psutil.Process, kind: str, argv: list[str]) -> str | None:
    try:
        cwd = process.cwd()
    except (psutil.Error, OSError):
        cwd = None
    if kind == "etcd":
        try:
            environ = process.environ()
        except (psutil.Error, OSError):
            environ = {}
        return etcd_data_dir(argv, environ, cwd)[0]
    if kind == "postgres":
        return option_value(argv, "-D") or cwd
    if kind == "mysqld":
        return option_value(argv, "--datadir") or "/var/lib/mysql"
    if kind == "db_bench":  # RocksDB's benchmark tool: a real RocksDB in a directory of its own
        return option_value(argv, "--db") or cwd
    return None  # any other program: its working directory says nothing of where it writes


def process_cwd(pid: int) -> str | None:
    """The working directory of `pid` (the last resort for a watch's directory), None when unreadable."""
    try:
        return psutil.Process(pid).cwd()
    except (psutil.Error, OSError):
        return None


def written_dirs(pids: tuple[int, ...], proc: str = "/proc") -> list[str]:
    """The directories of the regular files the processes hold open for writing (where their block requests
    will go, before a single sync call has said which file matters)."""
    found: list[str] = []
    for pid in pids:
        try:
            fds = os.listdir(f"{proc}/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                with open(f"{proc}/{pid}/fdinfo/{fd}", encoding="ascii", errors="replace") as handle:
                    flags = next((int(line.split()[1], 8) for line in handle if line.startswith("flags:")), 0)
                path = os.readlink(f"{proc}/{pid}/fd/{fd}")
            except (OSError, ValueError, IndexError):
                continue
            if flags & os.O_ACCMODE == os.O_RDONLY or not path.startswith("/") or not os.path.isfile(path):
                continue
            directory = os.path.dirname(path)
            if directory not in found:
                found.append(directory)
    return found


def synced_dir(tally: Tally) -> str | None:
    """The directory of the file the processes synced most (the data directory of a program whose command
    line does not name one); None without a sync call on a file."""
    counts: dict[str, int] = {}
    for calls in tally.files.values():
        if calls.call in SYNC_CALLS and calls.path.startswith("/"):
            counts[calls.path] = counts.get(calls.path, 0) + calls.histogram.count
    if not counts:
        return None
    return os.path.dirname(max(sorted(counts), key=lambda path: counts[path]))


def stack_devices(path: str, sys_block: str = "/sys/dev/block") -> dict[str, str]:
    """major:minor -> name of the device holding `path` and every device under it (slaves, the whole disk
    of a partition): the devices whose requests the block events are filtered to."""
    try:
        dev = os.stat(path).st_dev
    except OSError:
        return {}
    found: dict[str, str] = {}
    todo = [os.path.realpath(f"{sys_block}/{os.major(dev)}:{os.minor(dev)}")]
    while todo:
        node = todo.pop()
        try:
            with open(os.path.join(node, "dev"), encoding="ascii") as handle:
                number = handle.read().strip()
        except OSError:
            continue
        if number in found:
            continue
        found[number] = os.path.basename(node)
        if os.path.exists(os.path.join(node, "partition")):
            todo.append(os.path.dirname(node))
        with contextlib.suppress(OSError):
            todo += [os.path.realpath(os.path.join(node, "slaves", s)) for s in os.listdir(f"{node}/slaves")]
    return found


def threads_of(pids: tuple[int, ...]) -> list[int]:
    """Every thread of the processes (set_event_pid filters by thread; event-fork adds later ones)."""
    threads: list[int] = []
    for pid in pids:
        try:
            threads += [int(tid) for tid in os.listdir(f"/proc/{pid}/task")]
        except OSError:
            threads.append(pid)
    return threads


def _running(pid: int) -> bool:
    """Whether `pid` still runs (a zombie waiting for its parent to reap it does not)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return False
    return stat[stat.rfind(b")") + 2:][:1] not in (b"Z", b"X")


def check_root() -> None:
    """TraceUnavailable unless this process is root: said before anything else, as no argument can help."""
    if os.geteuid() != 0:
        raise TraceUnavailable(f"watch needs root to read kernel tracepoints (tracefs); {NO_TRACE_HINT}")


def check_can_trace() -> str:
    """The tracefs directory, or TraceUnavailable saying what is missing (root, tracefs, the events)."""
    check_root()
    tracing = tracing_dir()
    require_events(tracing, [f"syscalls/sys_{side}_{call}" for call in ("fdatasync", "fsync")
                             for side in ("enter", "exit")])
    return tracing


class WatchSession:
    """Two private instances (syscalls of the chosen threads; block requests of their devices), set up on
    enter and removed on exit whatever ends the watch (Ctrl-C, SIGTERM, SIGHUP, an error)."""

    def __init__(self, params: WatchParams, buffer_kb: int = DEFAULT_BUFFER_KB) -> None:
        self.params = params
        self.buffer_kb = buffer_kb
        self.tracer = SyncTracer(FdPaths())
        self.instances: list[Instance] = []
        self.swept: list[str] = []
        self.devices: dict[str, str] = {}
        directories = [params.data_dir] if params.data_dir else written_dirs(params.pids)
        for directory in directories or [process_cwd(params.pids[0]) or "/"]:
            self.devices.update(stack_devices(directory))
        self.started = time.monotonic()

    def __enter__(self) -> WatchSession:
        tracing = check_can_trace()
        self.swept = sweep_stale(tracing)
        try:
            self._open(tracing)
        except BaseException:
            self.close()
            raise
        return self

    def _open(self, tracing: str) -> None:
        calls = [call for call in (*SYNC_CALLS, *(WRITE_CALLS if self.params.writes else ()))
                 if os.path.isdir(os.path.join(tracing, "events/syscalls", f"sys_enter_{call}"))]
        syscalls = Instance(tracing, "sys")
        self.instances.append(syscalls)
        syscalls.create(self.buffer_kb)
        syscalls.follow_pids(threads_of(self.params.pids))
        for call in calls:
            syscalls.enable(f"syscalls/sys_enter_{call}")
            syscalls.enable(f"syscalls/sys_exit_{call}")
        have_block = all(os.path.isdir(os.path.join(tracing, "events", event)) for event in BLOCK_EVENTS)
        if have_block:
            block = Instance(tracing, "block")
            self.instances.append(block)
            block.create(self.buffer_kb)
            numbers = [tuple(int(part) for part in dev.split(":")) for dev in self.devices]
            where = " || ".join(f"dev == {(major << 20) | minor}" for major, minor in numbers) or None
            for event in BLOCK_EVENTS:
                block.enable(event, where)
        for instance in self.instances:
            instance.start()
        self.started = time.monotonic()

    def poll(self, timeout_s: float) -> None:
        """Read what the kernel has recorded (waiting up to `timeout_s` for the syscalls)."""
        for index, instance in enumerate(self.instances):
            self.tracer.feed(instance.read_lines(timeout_s if index == 0 else 0.0))

    def take(self) -> Tally:
        """The calls and requests completed since the last take."""
        return self.tracer.take()

    def lost_events(self) -> int:
        """Events lost so far: the kernel's overrun counts and trace_pipe's own reports."""
        return sum(instance.lost_events() for instance in self.instances) + self.tracer.lost_lines

    def processes_gone(self) -> bool:
        """Whether every watched process has exited (nothing more to see)."""
        return not any(_running(pid) for pid in self.params.pids)

    def close(self) -> None:
        """Remove every instance we made (idempotent)."""
        while self.instances:
            self.instances.pop().remove()

    def __exit__(self, *_exc: object) -> None:
        self.close()

    @property
    def names(self) -> list[str]:
        """The instance names in use (what `watch` changes on the host)."""
        return [instance.name for instance in self.instances]
