"""Run the real `diskdoctor` CLI in a child interpreter, as a user would."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass

from support.doc_schemas import validate_cli_output


@dataclass
class Result:
    """Exit code and output of one CLI run."""

    code: int
    out: str
    err: str


def run_cli(*args: str, timeout: float = 120, user: int | None = None) -> Result:
    """`diskdoctor ARGS...`; with `user` the command runs under that uid (via setpriv). JSON that a
    successful command prints must fit its schema in docs/schemas/ (checked here, for every test)."""
    argv = [sys.executable, "-m", "diskdoctor.app", *args]
    if user is not None:
        argv = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *argv]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False,
                          stdin=subprocess.DEVNULL)
    if done.returncode in (0, 1, 3):  # 3: a benchmark verdict INCONCLUSIVE, its JSON printed all the same
        validate_cli_output(args, done.stdout)
    return Result(done.returncode, done.stdout, done.stderr)


def assert_one_line_error(result: Result, needle: str) -> None:
    """Exit code 2, one line on stderr containing `needle`, and never a traceback."""
    assert result.code == 2, (result.code, result.err)
    assert "Traceback" not in result.err
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, lines
    assert needle in lines[0], lines[0]
