"""Open the interactive app for `diskdoctor` without a command, or check it headless with --smoke."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ..base.errors import EXIT_OK, UsageError
from ..core.capture.sysroot import open_root

if TYPE_CHECKING:
    from diskdoctor.probes.root import Root

    from .app import DiskDoctorApp


def run_tui(args: argparse.Namespace) -> int:
    """Open the interactive app (or, with --smoke, check headless that its first screen comes up)."""
    if args.smoke:
        from .smoke import run_smoke

        with open_root(args.sysroot) as root:
            return run_smoke(root)
    if not sys.stdout.isatty():
        raise UsageError("the TUI needs a terminal; use a subcommand such as "
                         "`diskdoctor devices` for plain output")
    with open_root(args.sysroot) as root:
        app = new_app(root)
        app.run()
    return app.return_code or EXIT_OK


def new_app(root: Root) -> DiskDoctorApp:
    """The App over `root`, its host read started first (on a small host) so that it overlaps Textual's
    imports and start."""
    from .early_host import start_early_read

    early = start_early_read(root)
    from .app import DiskDoctorApp

    return DiskDoctorApp(root, early)
