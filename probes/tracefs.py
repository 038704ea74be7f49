"""A private tracefs instance (instances/diskdoctor-PID-START-ROLE): made, set up and read with plain file
I/O, so `watch` never touches the global trace buffer or another tool's settings; removed by descriptor."""

from __future__ import annotations

import contextlib
import errno
import os
import select
import time
from collections.abc import Iterable

from .scratch import owner_alive, owner_tag

TRACEFS_MOUNTS = ("/sys/kernel/tracing", "/sys/kernel/debug/tracing")
"""Where the kernel's tracing directory is mounted (tracefs, or its old place under debugfs)."""
INSTANCE_PREFIX = "diskdoctor-"
DEFAULT_BUFFER_KB = 1024
"""Per-CPU ring buffer of our instance: ~20,000 syscall events per CPU before an unread one is lost."""
READ_CHUNK = 1 << 16
MAX_READ = 16 << 20
"""At most this much per read_lines, so a flood of events never keeps the caller from its other work."""
NO_TRACE_HINT = "read etcd's own fdatasync histogram instead: diskdoctor advise --etcd-metrics"


class TraceUnavailable(Exception):
    """Tracing cannot run here; the message is one line naming what is missing and what else to use."""


def tracing_dir(mounts: Iterable[str] | None = None) -> str:
    """The mounted tracefs directory that can hold instances, or TraceUnavailable naming the mount to make."""
    for path in TRACEFS_MOUNTS if mounts is None else mounts:
        if os.path.isdir(os.path.join(path, "instances")):
            return path
    raise TraceUnavailable("tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing), so kernel "
                           f"tracepoints cannot be read; {NO_TRACE_HINT}")


def require_events(tracing: str, events: Iterable[str]) -> None:
    """TraceUnavailable when this kernel lacks any of `events` ("syscalls/sys_enter_fdatasync")."""
    missing = [event for event in events if not os.path.isdir(os.path.join(tracing, "events", event))]
    if missing:
        syscalls = any(event.startswith("syscalls/") for event in missing)
        why = " (a kernel without CONFIG_FTRACE_SYSCALLS)" if syscalls else ""
        plural = "s" if len(missing) > 1 else ""
        raise TraceUnavailable(f"this kernel has no {', '.join(missing)} tracepoint{plural}{why}; "
                               f"{NO_TRACE_HINT}")


def sweep_stale(tracing: str) -> list[str]:
    """Remove every instance of ours whose owner is dead (a watch killed by SIGKILL); returns their names."""
    removed = []
    try:
        names = os.listdir(os.path.join(tracing, "instances"))
    except OSError:
        return removed
    for name in names:
        if name.startswith(INSTANCE_PREFIX) and not owner_alive(name, INSTANCE_PREFIX):
            with contextlib.suppress(OSError):
                remove_instance(tracing, name)
                removed.append(name)
    return removed


def remove_instance(tracing: str, name: str) -> None:
    """rmdir instances/NAME through a descriptor of instances/ (tracefs frees the buffer and its events)."""
    parent = os.open(os.path.join(tracing, "instances"), os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        os.rmdir(name, dir_fd=parent)
    finally:
        os.close(parent)


def _parse_stats(text: str) -> int:
    """Events lost on one CPU: `overrun` (overwritten before read) plus `dropped events` (buffer full)."""
    lost = 0
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("overrun", "dropped events"):
            with contextlib.suppress(ValueError):
                lost += int(value.strip())
    return lost


class Instance:
    """One tracefs instance of ours: made on `create`, set up by its files, read from trace_pipe without
    blocking, and removed by `remove` (idempotent; every exit path calls it)."""

    def __init__(self, tracing: str, role: str) -> None:
        self.tracing = tracing
        self.name = f"{INSTANCE_PREFIX}{owner_tag()}{role}"
        self.path = os.path.join(tracing, "instances", self.name)
        self.made = False
        self.pipe: int | None = None
        self._rest = b""

    def create(self, buffer_kb: int = DEFAULT_BUFFER_KB) -> None:
        """mkdir the instance, bound its per-CPU buffer, use the monotonic clock (one order across CPUs)."""
        try:
            os.mkdir(self.path)
        except PermissionError:
            raise TraceUnavailable(f"cannot make a tracing instance in {self.tracing}/instances (needs "
                                   f"root); {NO_TRACE_HINT}") from None
        self.made = True
        self.write("buffer_size_kb", str(buffer_kb))
        with contextlib.suppress(OSError):
            self.write("trace_clock", "mono")

    def write(self, relative: str, text: str) -> None:
        """Write one control file of the instance (OSError as the kernel refused it)."""
        fd = os.open(os.path.join(self.path, relative), os.O_WRONLY | os.O_TRUNC | os.O_NOFOLLOW)
        try:
            os.write(fd, text.encode())
        finally:
            os.close(fd)

    def enable(self, event: str, filter_text: str | None = None) -> None:
        """Enable `event` ("syscalls/sys_enter_fdatasync"), with a kernel-side filter when given."""
        if filter_text:
            self.write(f"events/{event}/filter", filter_text)
        self.write(f"events/{event}/enable", "1")

    def follow_pids(self, pids: Iterable[int]) -> None:
        """Record only these threads and every thread or child they start later (set_event_pid,
        event-fork)."""
        self.write("options/event-fork", "1")
        self.write("set_event_pid", " ".join(str(pid) for pid in pids))

    def start(self) -> None:
        """Open trace_pipe (non-blocking) and turn recording on."""
        self.pipe = os.open(os.path.join(self.path, "trace_pipe"), os.O_RDONLY | os.O_NONBLOCK)
        self.write("tracing_on", "1")

    def read_lines(self, wait_s: float) -> list[str]:
        """The complete lines trace_pipe has after `wait_s` seconds.

        It sleeps instead of polling the pipe: a poller is woken by the traced process's own events (an
        irq_work on its CPU, then a switch to us), which cost the writer ~10 µs per sync call; a sleeping
        reader costs it nothing, and the per-CPU buffer holds seconds of events in the meantime."""
        if self.pipe is None:
            return []
        if wait_s > 0:
            time.sleep(wait_s)
        chunks, size = [self._rest], 0
        while size < MAX_READ:  # a read returns at most a page or so: read until the pipe is empty
            try:
                chunk = os.read(self.pipe, READ_CHUNK)
            except BlockingIOError:
                break
            except OSError as err:
                if err.errno == errno.EINTR:
                    continue
                raise
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        data = b"".join(chunks)
        end = data.rfind(b"\n") + 1
        self._rest = data[end:]
        return data[:end].decode("utf-8", "replace").splitlines()

    def lost_events(self) -> int:
        """Events the kernel could not keep for us so far, summed over the CPUs (per_cpu/cpu*/stats)."""
        lost = 0
        try:
            cpus = os.listdir(os.path.join(self.path, "per_cpu"))
        except OSError:
            return 0
        for cpu in cpus:
            stats = os.path.join(self.path, "per_cpu", cpu, "stats")
            with contextlib.suppress(OSError), open(stats, encoding="ascii", errors="replace") as handle:
                lost += _parse_stats(handle.read())
        return lost

    def remove(self) -> None:
        """Close the pipe, stop recording and rmdir the instance (nothing else of the host is touched)."""
        if self.pipe is not None:
            with contextlib.suppress(OSError):
                os.close(self.pipe)
            self.pipe = None
        if not self.made:
            return
        with contextlib.suppress(OSError):
            self.write("tracing_on", "0")
        for _attempt in range(50):  # an event being disabled can hold the directory busy for a moment
            try:
                remove_instance(self.tracing, self.name)
            except FileNotFoundError:
                break
            except OSError as err:
                if err.errno != errno.EBUSY:
                    raise
                select.select([], [], [], 0.02)
                continue
            break
        self.made = False
