"""A child process's end in words: "exit code 3" or "killed by SIGKILL"."""

from __future__ import annotations

import signal


def describe_exit(returncode: int | None) -> str:
    """How a child ended, naming the signal for a negative return code (as subprocess reports them)."""
    if returncode is None:
        return "still running"
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"killed by {name}"
    return f"exit code {returncode}"
