"""The one place that builds the command line starting a child of ours (a benchmark engine, a guard)."""

from __future__ import annotations

import sys

ENGINE_COMMAND = "_engine"
"""Hidden first argument of the frozen `diskdoctor` binary that runs an engine instead of the CLI."""
ENTRY = ("import sys\n"
         "if not getattr(sys.flags, 'safe_path', False): del sys.path[0]\n"
         "from diskdoctor.probes.engine.main import main\n"
         "sys.exit(main(sys.argv[1:]))\n")
"""The engine's own entry (what `python -m diskdoctor.probes.engine` runs) without the working directory
first on the import path: a root run started in a folder other users can write would import their
`diskdoctor/` (what `-P` does on 3.11)."""


def engine_argv(args: list[str]) -> list[str]:
    """argv that runs the engine with ARGS: its own entry with this interpreter, or `diskdoctor _engine
    ARGS...` with this frozen binary (its launcher dispatches before the CLI loads)."""
    if getattr(sys, "frozen", False):
        return [sys.executable, ENGINE_COMMAND, *args]
    return [sys.executable, "-c", ENTRY, *args]
