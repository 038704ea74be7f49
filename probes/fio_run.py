"""Run the fio job equivalent to a WAL run in a private scratch dir of the same filesystem, and parse it."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable

from .child_guard import IN_SCRATCH, guarded_argv
from .exit_status import describe_exit
from .fio_json import FioOutputError, FioSyncStats, parse_fio_json
from .wal_params import WalParams, fio_argv
from .wal_target import TargetError, make_scratch, remove_scratch


def fio_available() -> str | None:
    """The fio executable, or None when fio is not installed."""
    return shutil.which("fio")


def run_fio(params: WalParams, directory: str, *, timeout_s: float | None = None,
            started: Callable[[subprocess.Popen[str]], object] | None = None) -> FioSyncStats:
    """Run fio with `--output-format=json` in a scratch dir inside `directory`; always remove it.

    `started` receives the fio process (its guard), so another thread can terminate it (a cancelled run);
    fio and the scratch go with this process too, however it ends (probes/child_guard.py)."""
    if fio_available() is None:
        raise TargetError("fio is not installed (apt-get install fio), so there is nothing to compare")
    scratch = make_scratch(directory)
    process: subprocess.Popen[str] | None = None
    try:
        command = guarded_argv(fio_argv(params, IN_SCRATCH, json_output=True), scratch=scratch)
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   stdin=subprocess.DEVNULL, text=True)
        if started is not None:
            started(process)
        out, err = process.communicate(timeout=timeout_s)
        if process.returncode < 0:
            raise TargetError(f"fio was stopped ({describe_exit(process.returncode)})")
        if process.returncode != 0:  # fio's reason is on stderr; stdout may hold half a JSON document
            lines = (err or "").strip().splitlines()
            raise TargetError(f"fio failed: {lines[-1] if lines else describe_exit(process.returncode)}")
        return parse_fio_json(out)
    except subprocess.TimeoutExpired as err:
        raise TargetError("fio did not finish in time") from err
    except FioOutputError as err:
        raise TargetError(str(err)) from err
    finally:
        if process is not None and process.poll() is None:
            process.terminate()
            process.wait()
        remove_scratch(scratch)
