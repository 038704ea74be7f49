"""The engine child's entry, `python -m diskdoctor.probes.engine KIND CONFIG` (or the binary's `_engine`).

Every workload runs inside `run_engine`, which checks the target, makes a private scratch directory,
hands the workload an `EngineContext` to stream through, and always removes the scratch directory: on
success, error, SIGTERM/SIGHUP/SIGINT, and when the parent dies (PR_SET_PDEATHSIG or EOF on stdin).
`_guard ...` runs the guard of a host program instead (probes/child_guard.py).
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import os
import signal
import sys
from typing import IO, Any

from ..child_guard import GUARD_COMMAND
from ..child_guard import main as guard_main
from ..scratch import empty_dir, open_owned_dir
from ..wal_params import ParamError
from ..wal_target import TargetError, check_directory, describe_bench_error, make_scratch, remove_scratch
from .protocol import Event, Failed, Finished, Started
from .runtime import (
    EXIT_ERROR,
    HERE,
    STOP_SIGNALS,
    EngineConfig,
    EngineContext,
    ParentWatch,
    Stopped,
    emit,
    signals_blocked,
)
from .workloads import WORKLOADS, workload

PR_SET_PDEATHSIG = 1
SIGNAL_EXIT_BASE = 128
LOG_BUFFER = 1 << 20


def _emit_quietly(event: Event) -> None:
    with contextlib.suppress(OSError):
        emit(event)


def _on_stop_signal(signum: int, _frame: object) -> None:
    for other in STOP_SIGNALS:
        signal.signal(other, signal.SIG_IGN)
    raise Stopped(f"stopped by {signal.Signals(signum).name}", SIGNAL_EXIT_BASE + signum)


def _ask_for_parent_death_signal() -> None:
    """prctl(PR_SET_PDEATHSIG, SIGTERM): the kernel signals us when the parent dies."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


def _open_latency_log(path: str | None) -> IO[str] | None:
    if not path:
        return None
    try:
        return open(path, "x", buffering=LOG_BUFFER, encoding="ascii")
    except FileExistsError as err:
        raise TargetError(f"latency log {path} already exists (choose a new file name)") from err
    except OSError as err:
        raise TargetError(f"cannot create latency log {path}: {describe_bench_error(err)}") from err


def _enter(scratch: str) -> int:
    """Work inside the scratch directory, held by descriptor: the workload names its files relative to
    it (HERE), so in a target other users can write, renaming the scratch and putting a link in its
    place sends no write or unlink elsewhere. Returns the descriptor (kept to empty it at the end)."""
    try:
        fd = open_owned_dir(scratch)
    except OSError as err:
        raise TargetError(f"the scratch directory {scratch} was replaced before use, by another user of "
                          f"its folder? ({describe_bench_error(err)})") from err
    os.fchdir(fd)
    return fd


def run_engine(config: EngineConfig) -> Any:
    """Check the target, run the workload inside a fresh scratch dir, always remove it; return its result."""
    kind = workload(config.workload)
    watch = ParentWatch()
    config.params.validate()
    check_directory(config.directory, config.params.scratch_bytes)
    log = _open_latency_log(config.latency_log)
    scratch: str | None = None
    here: int | None = None
    try:
        with signals_blocked():
            scratch = make_scratch(config.directory)
            here = _enter(scratch)
        emit(Started(config.workload, os.getpid(), scratch, config.job))
        return kind.run(config.params, EngineContext(config, HERE, watch, log))
    finally:
        with signals_blocked():
            if here is not None:
                empty_dir(here)  # wherever it is now: another user may have renamed it
                os.close(here)
            remove_scratch(scratch)
            if log is not None:
                with contextlib.suppress(OSError):
                    log.close()


def main(argv: list[str]) -> int:
    """`_engine KIND CONFIG_JSON`: run, stream events on stdout, exit 0 (done), 2 (error) or 128+N.
    (`_engine _guard ...` runs the guard of a host program instead: probes/child_guard.py.)"""
    if argv[:1] == [GUARD_COMMAND]:
        return guard_main(argv[1:])
    for signum in STOP_SIGNALS:
        signal.signal(signum, _on_stop_signal)
    _ask_for_parent_death_signal()
    gc.disable()  # a short-lived child that makes no reference cycles: no collector pauses in timed loops
    job = ""
    try:
        if len(argv) != 2 or argv[0] not in WORKLOADS:
            raise ParamError(f"usage: _engine {{{','.join(WORKLOADS)}}} CONFIG_JSON "
                             "(internal: started by diskdoctor bench)")
        try:
            config = EngineConfig.from_json(argv[0], argv[1], workload(argv[0]).params_type)
        except (ValueError, KeyError, TypeError) as err:
            raise ParamError(f"bad engine configuration: {err}") from err
        job = config.job
        emit(Finished(config.workload, run_engine(config), job))
        return 0
    except Stopped as stop:
        _emit_quietly(Failed(stop.reason, True, job))
        return stop.code
    except (ParamError, TargetError) as err:
        _emit_quietly(Failed(str(err), False, job))
        return EXIT_ERROR
    except OSError as err:
        _emit_quietly(Failed(describe_bench_error(err), False, job))
        return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
