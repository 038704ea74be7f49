"""The one place that builds the command line starting a benchmark engine child process."""

from __future__ import annotations

import sys

ENGINE_COMMAND = "_engine"
"""Hidden first argument of `diskdoctor` that runs an engine instead of the CLI."""


def engine_argv(args: list[str]) -> list[str]:
    """argv that runs `diskdoctor _engine ARGS...` with this interpreter or this frozen binary."""
    if getattr(sys, "frozen", False):
        return [sys.executable, ENGINE_COMMAND, *args]
    return [sys.executable, "-m", "diskdoctor.app", ENGINE_COMMAND, *args]
