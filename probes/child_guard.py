"""A guard process between diskdoctor and a host program it runs for long (fio, fstrim): when diskdoctor
ends, even by SIGKILL, the guard stops the program with its whole process group and removes the
program's scratch directory.

The kernel's parent-death signal alone cannot do that: it fires when the *thread* that forked exits
(the TUI starts fio from worker threads), it reaches only the direct child (fio forks its jobs), and
nothing would remove the scratch. The guard watches the owner *process* instead (a pidfd, or its pid
and start time), runs the program in a process group of its own, and mirrors how it ended (its exit
code, or death by the same signal), so callers read the guard as they read the program."""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence

from .engine_launch import engine_argv
from .root import host_command_env
from .scratch import empty_dir, open_owned_dir, proc_stat

IN_SCRATCH = "."
"""How a guarded program names its scratch directory: its working directory, which the guard entered by
descriptor (so a scratch renamed away and replaced by a link sends no write elsewhere)."""
GUARD_COMMAND = "_guard"
"""Hidden word after `_engine` that runs the guard instead of a workload."""
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
STOP_WAIT_S = 5.0
"""How long the program may take to stop after its signal before its group gets SIGKILL."""
POLL_S = 0.2
"""How often to look, where the kernel has no pidfd to wait on (before Linux 5.3)."""
PR_SET_PDEATHSIG = 1
EXIT_USAGE = 2
EXIT_CANNOT_RUN = 127


def guarded_argv(command: Sequence[str], *, scratch: str | None = None,
                 keep_fds: Sequence[int] = ()) -> list[str]:
    """argv running `command` under a guard tied to this process; with `scratch` (a bench scratch
    directory) the program runs inside it (IN_SCRATCH) and it goes when the program ends; `keep_fds`
    stay open for the program (pass them to Popen as well)."""
    pid = os.getpid()
    stat_fields = proc_stat(pid)
    config = {"owner": [pid, stat_fields[1] if stat_fields else 0], "scratch": scratch,
              "keep_fds": list(keep_fds)}
    return engine_argv([GUARD_COMMAND, json.dumps(config), *command])


class Owner:
    """The process the guard serves: alive while its pid runs with the same start time (a zombie, killed
    but not yet reaped by its own parent, has ended)."""

    def __init__(self, pid: int, started: int) -> None:
        self.pid, self.started = pid, started
        self.fd: int | None = None
        with contextlib.suppress(OSError, AttributeError):
            self.fd = os.pidfd_open(pid)
        if self.fd is not None and not self._running():  # ended, or its pid reused, before we looked
            os.close(self.fd)
            self.fd = None

    def alive(self) -> bool:
        """Whether the owner still runs."""
        if self.fd is not None:
            return not select.select([self.fd], [], [], 0)[0]  # a pidfd turns readable when it ends
        return self._running()

    def _running(self) -> bool:
        try:
            with open(f"/proc/{self.pid}/stat", "rb") as handle:
                fields = handle.read().decode("ascii", "replace").rsplit(")", 1)[-1].split()
        except OSError:
            return False
        if len(fields) < 20 or fields[0] in ("Z", "X"):
            return False
        return not self.started or fields[19] == str(self.started)


class StopSignals:
    """Notes the first stop signal (SIGTERM, SIGINT, SIGHUP) and wakes a select() through a pipe."""

    def __init__(self) -> None:
        self.signum = 0
        self.wakeup, write_end = os.pipe()
        os.set_blocking(self.wakeup, False)
        os.set_blocking(write_end, False)
        signal.set_wakeup_fd(write_end)
        for signum in STOP_SIGNALS:
            signal.signal(signum, self._note)

    def _note(self, signum: int, _frame: object) -> None:
        self.signum = self.signum or signum

    def drain(self) -> None:
        """Empty the wake-up pipe."""
        with contextlib.suppress(BlockingIOError):
            while os.read(self.wakeup, 512):
                pass


def _own_group_dying_with(guard: int) -> Callable[[], None]:
    """preexec_fn for the program (the guard has one thread): a process group of its own, SIGTERM when
    the guard dies, and no start at all if the guard is already gone."""
    prctl = ctypes.CDLL(None, use_errno=True).prctl

    def setup() -> None:
        os.setsid()
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != guard:
            os._exit(EXIT_CANNOT_RUN)
    return setup


def _exited(pid: int) -> bool:
    """Whether the child `pid` ended, leaving it unreaped (its process group cannot be reused yet)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _signal_group(pgid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signum)


def _wait(child: subprocess.Popen[bytes], owner: Owner, stop: StopSignals) -> None:
    """Until the program ends by itself, or a stop signal or the owner's end has it stopped."""
    child_fd = None
    with contextlib.suppress(OSError, AttributeError):
        child_fd = os.pidfd_open(child.pid)
    watched = [fd for fd in (stop.wakeup, child_fd, owner.fd) if fd is not None]
    timeout = None if child_fd is not None and owner.fd is not None else POLL_S
    try:
        while not _exited(child.pid):
            if stop.signum or not owner.alive():
                _stop(child.pid, stop.signum or signal.SIGTERM)
                return
            select.select(watched, [], [], timeout)
            stop.drain()
    finally:
        if child_fd is not None:
            os.close(child_fd)


def _stop(pid: int, signum: int) -> None:
    """Signal the program's group and give it STOP_WAIT_S to end (the caller SIGKILLs what is left)."""
    _signal_group(pid, signum)
    deadline = time.monotonic() + STOP_WAIT_S
    while not _exited(pid) and time.monotonic() < deadline:
        time.sleep(0.02)


def _die_like(returncode: int) -> int:
    """End as the program ended: by the same signal, or with its exit code."""
    if returncode < 0:
        signal.set_wakeup_fd(-1)
        signal.signal(-returncode, signal.SIG_DFL)
        os.kill(os.getpid(), -returncode)
        return 128 - returncode
    return returncode


def main(argv: list[str]) -> int:
    """`_engine _guard CONFIG_JSON COMMAND...`: run COMMAND, stop it if the owner ends, clean up."""
    from .wal_target import remove_scratch

    try:
        config = json.loads(argv[0])
        owner_pid, owner_started = (int(n) for n in config["owner"])
        scratch, keep = config.get("scratch"), tuple(int(fd) for fd in config.get("keep_fds") or ())
        command = argv[1:]
        if not command:
            raise ValueError("no command")
    except (IndexError, ValueError, KeyError, TypeError) as err:
        print(f"usage: _engine {GUARD_COMMAND} CONFIG_JSON COMMAND... "
              f"(internal: started by diskdoctor; {err})", file=sys.stderr)
        return EXIT_USAGE
    stop = StopSignals()
    owner = Owner(owner_pid, owner_started)
    child: subprocess.Popen[bytes] | None = None
    here: int | None = None
    try:
        if not owner.alive():
            return EXIT_USAGE
        if scratch:
            try:
                here = open_owned_dir(scratch)
            except OSError as err:
                print(f"cannot use the scratch directory {scratch}: it is no longer the directory made for "
                      f"this run ({err.strerror or err})", file=sys.stderr)
                return EXIT_CANNOT_RUN
            os.fchdir(here)
        try:
            child = subprocess.Popen(command, env=host_command_env(), pass_fds=keep,
                                     preexec_fn=_own_group_dying_with(os.getpid()))
        except OSError as err:
            print(f"cannot run {command[0]}: {err.strerror or err}", file=sys.stderr)
            return EXIT_CANNOT_RUN
        _wait(child, owner, stop)
        _signal_group(child.pid, signal.SIGKILL)  # anything of its group still running (fio's jobs)
        child.wait()
    finally:
        if here is not None:
            empty_dir(here)  # wherever it is now: another user may have renamed it
            os.close(here)
        remove_scratch(scratch)
    if stop.signum:
        return _die_like(-stop.signum)
    return _die_like(child.returncode)
