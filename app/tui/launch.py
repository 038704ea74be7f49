"""Open the interactive app for `diskdoctor` without a command, or check it headless with --smoke."""

from __future__ import annotations

import argparse
import sys

from ..base.errors import EXIT_OK, UsageError
from ..core.capture.sysroot import open_root


def run_tui(args: argparse.Namespace) -> int:
    """Open the interactive app (or, with --smoke, check headless that its first screen comes up)."""
    if args.smoke:
        from .smoke import run_smoke

        with open_root(args.sysroot) as root:
            return run_smoke(root)
    from .app import DiskDoctorApp

    if not sys.stdout.isatty():
        raise UsageError("the TUI needs a terminal; use a subcommand such as "
                         "`diskdoctor devices` for plain output")
    with open_root(args.sysroot) as root:
        app = DiskDoctorApp(root)
        app.run()
    return app.return_code or EXIT_OK
