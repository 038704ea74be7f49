"""A long read split across processes: forked children read parts of a list while this process reads the
first, because a Python-heavy read cannot use a second core from a thread (the GIL).

Each child sends its part back as plain values (tuples of str, int, bool and None, through `marshal`:
far cheaper than pickling rich objects) and the caller puts the parts back in the list's order, so the
result is the serial read's. A child that fails in any way is not trusted: its part is read again here,
serially, so errors surface exactly as the plain path's. Every child is killed and reaped before this
returns or raises (Ctrl-C, SIGTERM's SystemExit, an error); a child whose parent dies by SIGKILL is
killed by the kernel (parent-death signal)."""

from __future__ import annotations

import contextlib
import marshal
import os
import select
import signal
import time

TYPE_CHECKING = False  # not typing's: loaded only for a big host, but kept as light as the other probes
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import TypeVar

    T = TypeVar("T")

MAX_PROCESSES = 4
"""At most this many processes read (this one included): the reads are syscall-bound and the parts'
transfer and merge grow with their number."""
CHILD_GRACE_S = 10.0
"""How long past three times this process's own share a child may take before its share is read here."""
PR_SET_PDEATHSIG = 1
_CHILD_FAILED = 70


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity, as a container or taskset limits it)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def parts(items: Sequence[str], count: int) -> list[Sequence[str]]:
    """`items` dealt into `count` parts of near-equal length (every count-th item, so that kinds of device
    listed together, cheap loops or disks with partitions, are shared out alike)."""
    return [items[index::count] for index in range(count)]


def read_split(read: Callable[[Sequence[str]], T], items: Sequence[str], processes: int,
               encode: Callable[[T], object], decode: Callable[[object], T],
               meanwhile: Callable[[], object] | None = None, *, here: bool = True) -> list[T]:
    """`read(part)` for each of `processes` parts of `items` (see `parts`): the first read here, the others
    in forked children, which send `encode(result)` (plain values for `marshal`) to be `decode`d here.
    `meanwhile` runs here after this process's part, while the children finish theirs and send them.
    Without `here` every part is read by a child and this thread only gathers them: for a caller whose
    other threads need the GIL meanwhile (the TUI's start, docs/figures.md "Thirteenth pass")."""
    cut = parts(items, max(1, min(processes, len(items))))
    forked = cut[1:] if here else cut
    prctl = _prctl()
    children: list[tuple[int, int]] = []
    try:
        for part in forked:
            children.append(_fork_reader(read, encode, part, prctl))
        started = time.monotonic()
        results = [read(cut[0])] if here else []
        deadline = time.monotonic() + CHILD_GRACE_S + 3 * (time.monotonic() - started)
        if meanwhile is not None and children:
            meanwhile()
        for part in forked:
            got = _collect(*children.pop(0), deadline)
            results.append(read(part) if got is None else decode(got))
        return results
    finally:
        for pid, fd in children:  # not collected: this process is leaving on an error or a signal
            os.close(fd)
            _kill(pid)


def _prctl() -> Callable[..., int] | None:
    """libc's prctl, found before any fork: a child must not load libraries (another thread of this
    process may hold the loader's lock when it forks); None where there is none."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError, ImportError):
        return None


def _fork_reader(read: Callable[[Sequence[str]], T], encode: Callable[[T], object],
                 part: Sequence[str], prctl: Callable[..., int] | None) -> tuple[int, int]:
    """A child reading `part` and writing its marshalled result to a pipe: (its pid, the pipe's read end)."""
    readable, writable = os.pipe()
    parent = os.getpid()
    try:
        pid = os.fork()
    except OSError:
        os.close(readable)
        os.close(writable)
        raise
    if pid == 0:  # the child: never returns into the caller's code
        code = _CHILD_FAILED
        try:
            os.close(readable)
            _child_signals(prctl, parent)
            data = marshal.dumps(encode(read(part)))
            view = memoryview(data)
            while view:
                view = view[os.write(writable, view):]
            code = 0
        finally:
            os._exit(code)
    os.close(writable)
    return pid, readable


def _child_signals(prctl: Callable[..., int] | None, parent: int) -> None:
    """The child stops at once on Ctrl-C or SIGTERM (no handler of the parent's runs in it), and dies with
    the thread that forked it (so a parent killed by SIGKILL leaves no reader behind). The fork made this
    thread the child's main thread, so it may set signal handlers."""
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)
    signal.set_wakeup_fd(-1)  # a signal caught here (SIGWINCH) must not wake the parent's event loop
    if prctl is not None:  # else (not Linux's libc) the child still ends when its pipe breaks
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the signal was set
        os._exit(_CHILD_FAILED)


def _collect(pid: int, fd: int, deadline: float) -> object | None:
    """The child's result, or None when it failed (killed, error, unreadable data, or still not done at
    `deadline`: a child stuck on a lock another thread held at the fork must not hang this process); the
    child is reaped (killed first when it is late or this process is interrupted while waiting)."""
    chunks = []
    reaped = False
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not poller.poll(max(1, int(left * 1000))):
                return None  # late: killed and reaped below, its part read here
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        _, status = os.waitpid(pid, 0)
        reaped = True
    finally:
        os.close(fd)
        if not reaped:
            _kill(pid)
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        return None
    try:
        return marshal.loads(b"".join(chunks))
    except (EOFError, ValueError, TypeError):
        return None


def _kill(pid: int) -> None:
    """Kill and reap a child that was not collected."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)
