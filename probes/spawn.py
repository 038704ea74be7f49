"""A read-only host command started without the subprocess module (os.posix_spawnp and two pipes).

`devices --json` starts blkid while it imports and reads sysfs; importing `subprocess` (with threading,
selectors) cost that command ~4 ms of its ~20 ms over a bare Python, the child itself ~0.6 ms. The child
gets what subprocess.Popen(..., stdin=DEVNULL, stdout=PIPE, stderr=PIPE, text=True, errors="replace")
gives it: no inherited descriptors but the three, SIGPIPE and SIGXFSZ at their defaults.
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
import time

try:  # the C module `signal` wraps: the same numbers and calls without building its enums (~0.5 ms)
    import _signal as signal
except ImportError:  # pragma: no cover  (an interpreter without it)
    import signal  # type: ignore[no-redef]

READ_CHUNK = 65536


class Spawned:
    """One started command; `communicate` collects its exit code and output, `kill` ends it."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        out_read, out_write = os.pipe()
        err_read, err_write = os.pipe()
        null = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
        actions: list[tuple[int, ...]] = [(os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, out_write, 1),
                                          (os.POSIX_SPAWN_DUP2, err_write, 2)]
        actions += [(os.POSIX_SPAWN_CLOSE, fd) for fd in _inheritable_fds()]  # as close_fds=True
        try:
            self.pid = os.posix_spawnp(argv[0], argv, env, file_actions=actions,
                                       setsigdef=(signal.SIGPIPE, signal.SIGXFSZ))
        except OSError:
            os.close(out_read)
            os.close(err_read)
            raise
        finally:
            for fd in (null, out_write, err_write):
                os.close(fd)
        self._out, self._err = out_read, err_read
        self._chunks: dict[int, list[bytes]] = {out_read: [], err_read: []}
        self._open = [out_read, err_read]
        self.returncode: int | None = None

    def kill(self) -> None:
        """SIGKILL the command (if it has not been reaped yet)."""
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)

    def communicate(self, timeout: float | None = None) -> tuple[int, str, str] | None:
        """(exit code, stdout, stderr) once the command has ended, as text mode decodes them; None when it
        did not end within `timeout` seconds (it is killed and reaped then)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        poller = select.poll()
        for fd in self._open:
            poller.register(fd, select.POLLIN)
        while self._open:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                self.kill()
                self.communicate()
                return None
            for fd, _events in poller.poll(None if left is None else max(1, int(left * 1000))):
                chunk = os.read(fd, READ_CHUNK)
                if chunk:
                    self._chunks[fd].append(chunk)
                else:
                    poller.unregister(fd)
                    os.close(fd)
                    self._open.remove(fd)
        if self.returncode is None:
            _, status = os.waitpid(self.pid, 0)
            self.returncode = os.waitstatus_to_exitcode(status)
        out, err = (_text(b"".join(self._chunks[fd])) for fd in (self._out, self._err))
        return self.returncode, out, err


def _inheritable_fds() -> list[int]:
    """Descriptors above 2 this process would pass on to a child (Python's own are not inheritable)."""
    try:
        names = os.listdir("/proc/self/fd")
    except OSError:
        return []
    fds = []
    for name in names:
        fd = int(name)
        if fd > 2:
            try:
                if os.get_inheritable(fd):
                    fds.append(fd)
            except OSError:  # the listing's own descriptor, closed by now
                pass
    return fds


def _text(data: bytes) -> str:
    """Bytes decoded as subprocess's text mode decodes them (the locale's encoding, universal newlines)."""
    if sys.flags.utf8_mode:
        encoding = "utf-8"
    else:
        try:  # what locale.getencoding is (3.11+), without importing locale (~0.8 ms of start-up)
            from _locale import getencoding
        except ImportError:  # pragma: no cover  (3.10)
            from locale import getpreferredencoding

            def getencoding() -> str:
                return getpreferredencoding(False)
        encoding = getencoding()
    return data.decode(encoding, "replace").replace("\r\n", "\n").replace("\r", "\n")
