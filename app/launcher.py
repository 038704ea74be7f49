"""The `diskdoctor` command's entry point: Ctrl-C while Python is still importing exits quietly too."""

from __future__ import annotations

import sys

INTERRUPTED_EXIT = 130


def main() -> int:
    """Import the CLI, then run it; an interrupt during the imports is one line and exit 130.

    `diskdoctor --version` alone answers without loading the CLI at all."""
    if sys.argv[1:] == ["--version"]:
        from .base.version import installed_version

        print(f"diskdoctor {installed_version()}")
        return 0
    try:
        from .cli.main import main as cli_main
    except KeyboardInterrupt:
        sys.stderr.write("diskdoctor: interrupted\n")
        return INTERRUPTED_EXIT
    return cli_main()
