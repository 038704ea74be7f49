"""One engine run at a time for the Benchmark screen: the child starts from a worker thread, what it streams
comes back as messages, a finished run is saved, Esc stops it (the child removes its scratch directory)."""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any

from diskdoctor.app.core.bench.caveats import Caveats
from diskdoctor.app.core.bench.fit import Fitted, fit_for
from diskdoctor.app.core.bench.kinds import kind_of_params
from diskdoctor.app.core.bench.record import BenchRecord
from diskdoctor.app.core.runs.store import save_run
from diskdoctor.probes.engine.protocol import Failed, Finished, Interval, PhaseChanged
from diskdoctor.probes.engine.runner import EngineRun
from diskdoctor.probes.engine.runtime import EngineConfig
from diskdoctor.probes.wal_target import TargetError, describe_target
from textual.screen import Screen

from .messages import ContentionReady, IntervalReady, RunEnded, RunStarted

CONTENTION_EVERY_S = 2.0
"""How often the screen is told the host's contention so far during a run."""
WORKER_GROUP = "bench"
"""The workloads the screen judges against its threshold row; compaction and randwrite are shown unjudged."""


def kind_of(params: object) -> str:
    """The engine workload for a parameter object."""
    return kind_of_params(params).name


class RunController:
    """Starts and cancels the engine child for `screen`; `on_phase` shows a phase's text ("preparing…")."""

    def __init__(self, screen: Screen[Any], on_phase: Callable[[str], None]) -> None:
        self.screen, self.on_phase = screen, on_phase
        self.run: EngineRun | None = None
        self.cancel_requested = False

    def start(self, params: object, directory: str, settings: dict[str, Any]) -> None:
        """Check `directory` and start the child in a worker thread; `settings` is the threshold to save (kept
        only for a workload the screen judges)."""
        self.cancel_requested = False
        self.screen.run_worker(partial(self._work, params, directory, settings), thread=True,
                               group=WORKER_GROUP, exit_on_error=False, name="engine run")

    def cancel(self) -> None:
        """Stop the child (before it started: as soon as it starts)."""
        self.cancel_requested = True
        if self.run is not None:
            self.run.cancel()

    def ended(self) -> None:
        """The run's end was shown: forget its child."""
        self.run = None

    def _work(self, params: object, directory: str, settings: dict[str, Any]) -> None:
        """Worker: start the child, forward what it streams; it lives as long as the child (PDEATHSIG)."""
        post = self.screen.post_message
        try:
            target = describe_target(directory, params.scratch_bytes)  # type: ignore[attr-defined]
            run = EngineRun(EngineConfig(kind_of(params), target.directory, params, list(target.layers)))
        except TargetError as err:
            fitted = fit_for(str(err), params, directory)
            fits = fitted if fitted is not None and fitted.size_field else None
            post(RunEnded(None, space_hint(str(err), fitted, kind_of(params)),
                          fit_size=fits.size_field if fits else None,
                          fit_note=fit_note(fits) if fits else None))
            return
        self.run = run
        post(RunStarted(target, params))
        if self.cancel_requested:
            run.cancel()

        last_contention = time.monotonic()

        def forward(event: object) -> None:
            nonlocal last_contention
            if isinstance(event, Interval) and (not event.job or event.job == "compaction"):
                post(IntervalReady(event))
                if time.monotonic() - last_contention >= CONTENTION_EVERY_S:
                    last_contention = time.monotonic()
                    load = run.host_so_far()
                    caveats = Caveats(load, target.not_durable, None)
                    post(ContentionReady(caveats.contention_phrase(), bool(caveats.busy)))
            elif isinstance(event, PhaseChanged) and not event.job and event.detail:
                self.screen.app.call_from_thread(self.on_phase, f"{event.detail}… · Esc cancels")

        final = run.wait(forward)
        if isinstance(final, Finished):
            # an unjudged run saved with 10 ms would read "PASS … 10 MB/s"
            judged = kind_of_params(params).judged
            record = BenchRecord.of_run(kind_of(params), params, target, final.result,
                                        settings.get("threshold_ms") if judged else None,
                                        settings.get("threshold_source") if judged else None,
                                        sections=final.sections)
            saved, message = save_run(record)
            post(RunEnded(final.result, saved=f"saved as run {saved.id}" if saved else message,
                          record=record))
        elif isinstance(final, Failed):
            post(RunEnded(None, final.message, final.cancelled))


SPACE_TRADE_OFF = ("lower the size field until it fits: a smaller data set runs, but more of it stays "
                   "in the page cache and the drive's own cache, so the figures flatter the device; or "
                   "pick a filesystem with more room")


def fit_note(fitted: Fitted) -> str:
    """The status line's short form: what the size field now says and what it costs."""
    return f"Too big for {fitted.free} free: size now {fitted.size_field}, {fitted.brief}; s runs it"


def space_hint(reason: str, fitted: Fitted | None = None, kind: str = "") -> str:
    """A target error, with what to change and what it costs when the run does not fit the free space:
    the size field set to what fits, or the command line that fits, or what lowering the size costs."""
    if not reason.startswith("not enough free space"):
        return reason
    if fitted is not None and fitted.size_field:
        return f"{reason}. The size field is now {fitted.size_field}: {fitted.said}. s starts it."
    if fitted is not None:
        return (f"{reason}. diskdoctor bench {kind} --dir DIR {fitted.flags} (or --fit) fits it: "
                f"{fitted.said}.")
    return f"{reason}: {SPACE_TRADE_OFF}"
