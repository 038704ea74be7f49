"""`diskdoctor --smoke`: start the TUI headless, wait until its first screen shows the stack, say so."""

from __future__ import annotations

import asyncio
import io
import os
import sys
from dataclasses import dataclass

from diskdoctor.probes.root import Root
from diskdoctor.widgets import StackTree
from rich.console import Console
from textual.pilot import Pilot

from ..base.errors import EXIT_CHECK_FAILED, EXIT_OK
from .app import DiskDoctorApp
from .early_host import start_early_read
from .stack_screen import StackScreen

SMOKE_SIZE = (120, 40)
SMOKE_TIMEOUT_S = 60.0
DEBUG_ENV = "DISKDOCTOR_DEBUG"


class SmokeFailed(Exception):
    """The first screen did not come up as expected; the message is one line for the user."""


@dataclass(frozen=True)
class SmokeResult:
    """What the first screen showed: tree rows drawn, devices read, and the first row's name."""

    rows: int
    devices: int
    first_row: str


async def first_screen(pilot: Pilot[None]) -> SmokeResult:
    """Wait for the host to be read and the stack tree drawn, then describe what is on screen."""
    app = pilot.app
    await app.workers.wait_for_complete()
    await pilot.pause()
    screen = app.screen
    if not isinstance(screen, StackScreen):
        raise SmokeFailed(f"the first screen is {type(screen).__name__}, not the stack explorer")
    if screen.host is None:
        status = str(screen.query_one("#status").render())
        raise SmokeFailed(f"the host was not read: {status}")
    tree = screen.query_one(StackTree)
    rows = tree.last_line + 1
    if rows == 0:
        return SmokeResult(0, len(screen.host.devices), "")
    drawn = tree.render_line(0).text
    first_node = tree.get_node_at_line(0)
    if first_node is None or first_node.data is None or first_node.data.name not in drawn:
        raise SmokeFailed(f"the tree was not drawn (first line: {drawn.strip()!r})")
    return SmokeResult(rows, len(screen.host.devices), first_node.data.name)


def _failure_reason(app: DiskDoctorApp, outcome: list[SmokeResult | BaseException]) -> str:
    """One line on why the smoke start failed."""
    error = outcome[0] if outcome else getattr(app, "_exception", None)
    if isinstance(error, SmokeFailed):
        return str(error)
    if isinstance(error, TimeoutError):
        return f"the first screen was not ready after {SMOKE_TIMEOUT_S:.0f} s"
    if error is not None:
        return f"{type(error).__name__}: {' '.join(str(error).split())}"
    return f"the TUI stopped before its first screen (return code {app.return_code})"


def run_smoke(root: Root) -> int:
    """Run the app headless on `root` until its first screen is up; print one line; 0 when it worked. The
    app is made as the TUI makes it (its host read started on a thread before it runs)."""
    app = DiskDoctorApp(root, start_early_read(root))
    outcome: list[SmokeResult | BaseException] = []

    async def auto_pilot(pilot: Pilot[None]) -> None:
        try:
            outcome.append(await asyncio.wait_for(first_screen(pilot), SMOKE_TIMEOUT_S))
        except Exception as err:
            outcome.append(err)
        app.exit()

    if not os.environ.get(DEBUG_ENV):
        app.error_console = Console(file=io.StringIO(), stderr=True)  # Textual's traceback panel
    app.run(headless=True, size=SMOKE_SIZE, auto_pilot=auto_pilot)
    if outcome and isinstance(outcome[0], SmokeResult):
        result = outcome[0]
        print(f"diskdoctor: smoke ok: first screen drew {result.rows} tree rows for {result.devices} "
              f"devices (first row: {result.first_row or 'none'})")
        return EXIT_OK
    print(f"diskdoctor: smoke failed: {_failure_reason(app, outcome)}", file=sys.stderr)
    return EXIT_CHECK_FAILED
