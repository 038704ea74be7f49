"""The `diskdoctor` command's entry point: Ctrl-C while Python is still importing exits quietly too."""

from __future__ import annotations

import gc
import sys

from diskdoctor.probes.engine_launch import ENGINE_COMMAND

TYPE_CHECKING = False  # not typing's: --version and the engine load neither typing nor argparse
if TYPE_CHECKING:
    import argparse

INTERRUPTED_EXIT = 130


def main() -> int:
    """Import the CLI, then run it; an interrupt during the imports is one line and exit 130.

    `diskdoctor --version` alone answers without loading the CLI at all, and the frozen binary's
    `_engine KIND CONFIG` runs the benchmark engine without it. The CLI's modules are imported with the
    cycle collector paused and then moved to its permanent generation (`gc.freeze`)."""
    if sys.argv[1:2] == [ENGINE_COMMAND]:
        from diskdoctor.probes.engine.main import main as engine_main

        return engine_main(sys.argv[2:])
    if sys.argv[1:] == ["--version"]:
        from .base.version import installed_version

        print(f"diskdoctor {installed_version()}")
        return 0
    collecting = gc.isenabled()
    gc.disable()  # what the imports make stays to the end: the collector's passes over it are waste
    try:
        from .cli.main import main as cli_main
    except KeyboardInterrupt:
        sys.stderr.write("diskdoctor: interrupted\n")
        return INTERRUPTED_EXIT
    finally:
        if collecting:
            gc.freeze()  # later passes, and the one at exit, skip it (devices --json ~3 ms sooner)
            gc.enable()
    return cli_main(open_tui=open_tui)


def open_tui(args: argparse.Namespace) -> int:
    """The TUI for `diskdoctor` without a command (imported only then)."""
    from .tui.launch import run_tui

    return run_tui(args)
