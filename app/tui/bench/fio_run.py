"""fio side by side for the Benchmark screen: fio's equivalent job for the last run, in its own process
started from a worker thread, with a second-by-second "running" line; Esc stops it and its scratch goes."""

from __future__ import annotations

import contextlib
import subprocess
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from diskdoctor.app.core.bench.kinds import kind_of
from diskdoctor.probes.wal_target import TargetError
from textual.screen import Screen
from textual.timer import Timer

from .messages import FioEnded

TICK_S = 1.0
WORKER_GROUP = "bench-fio"


class FioController:
    """Runs fio for `screen`; `on_tick(elapsed_s)` says how long it has run (fio prints nothing till done)."""

    def __init__(self, screen: Screen[Any], on_tick: Callable[[float], None]) -> None:
        self.screen, self.on_tick = screen, on_tick
        self.process: subprocess.Popen[str] | None = None
        self.cancel_requested = False
        self._started = 0.0
        self._timer: Timer | None = None

    def start(self, kind: str, params: object, directory: str) -> None:
        """Run fio's job for `kind` on `directory` in a worker thread; FioEnded comes back."""
        self.cancel_requested, self.process = False, None
        self._started = time.monotonic()
        self._tick()
        self._timer = self.screen.set_interval(TICK_S, self._tick)
        self.screen.run_worker(partial(self._work, kind_of(kind).fio, params, directory), thread=True,
                               group=WORKER_GROUP, exit_on_error=False, name="fio side by side")

    def cancel(self) -> None:
        """Stop fio (and any fio it would start next); its runner removes the scratch directory."""
        self.cancel_requested = True
        if self.process is not None:
            with contextlib.suppress(OSError):
                self.process.terminate()

    def ended(self) -> None:
        """fio's end was shown: stop the ticking line, forget the process."""
        self.process = None
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _tick(self) -> None:
        self.on_tick(time.monotonic() - self._started)

    def _started_process(self, process: subprocess.Popen[str]) -> None:
        """Each fio process, as it starts (interference runs two): stopped at once after a cancel."""
        self.process = process
        if self.cancel_requested:
            with contextlib.suppress(OSError):
                process.terminate()

    def _work(self, runner: Callable[..., object], params: object, directory: str) -> None:
        """Worker: fio in its own process; its scratch dir is removed however it ends."""
        try:
            self.screen.post_message(FioEnded(runner(params, directory, started=self._started_process)))
        except TargetError as err:
            self.screen.post_message(FioEnded(None, str(err)))
