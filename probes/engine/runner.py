"""The parent side of every benchmark, used by both the CLI and the TUI: start the engine child, read its
typed events, cancel it, clean up after it, and record what the host was doing meanwhile."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import replace

from diskdoctor.probes.exit_status import describe_exit

from ..engine_launch import engine_argv
from ..host_load import HostLoad, HostLoadSampler
from ..wal_target import TargetError, describe_bench_error, remove_scratch
from .protocol import Event, Failed, Finished, Interval, Started, decode
from .runtime import EngineConfig
from .sections import SectionLog
from .workloads import read_result

STOP_WAIT_S = 5.0


class EngineRun:
    """One engine child: iterate `events()` (or call `wait()`); `cancel()` is safe from any thread."""

    def __init__(self, config: EngineConfig, *, record_host: bool = True) -> None:
        self.config = config
        self.scratch: set[str] = set()
        self.cancelled = False
        self.host = HostLoadSampler() if record_host else None
        self.sections = SectionLog()
        argv = engine_argv([config.workload, config.to_json()])
        try:
            self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE, text=True, bufsize=1, close_fds=True)
        except OSError as err:
            raise TargetError(f"cannot start the benchmark engine {argv[0]}: "
                              f"{describe_bench_error(err)}") from err

    def events(self) -> Iterator[Event]:
        """Events as they arrive (sub-jobs' too), then exactly one Finished or Failed of the run itself."""
        assert self.process.stdout is not None
        final: Finished | Failed | None = None
        ended = False
        try:
            for line in self.process.stdout:
                event = decode(line, read_result)
                if isinstance(event, Started) and event.scratch:
                    self.scratch.add(event.scratch)
                elif isinstance(event, Interval):
                    self.sections.add(event)
                if isinstance(event, (Finished, Failed)) and not event.job:
                    final = event
                elif event is not None:
                    yield event
            ended = True
        finally:
            self._reap(stop=not ended)
        yield self._final(final)

    def _final(self, final: Finished | Failed | None) -> Finished | Failed:
        if final is None:
            errors = self.process.stderr.read().strip().splitlines() if self.process.stderr else []
            detail = errors[-1] if errors else describe_exit(self.process.returncode)
            return Failed("benchmark cancelled" if self.cancelled else
                          f"the benchmark engine stopped unexpectedly ({detail})", self.cancelled)
        if isinstance(final, Finished) and self.host is not None and hasattr(final.result, "host"):
            with contextlib.suppress(Exception):  # a psutil hiccup must not lose a finished run
                final = replace(final, result=replace(final.result, host=self.host.finish()))
        if isinstance(final, Finished):
            final = replace(final, sections=self.sections.sections())
        return final

    def host_so_far(self) -> HostLoad | None:
        """The host's load since the run started, its own processes set apart (None when not recorded or
        psutil could not tell): for a live view of the contention during the run."""
        if self.host is None:
            return None
        try:
            return self.host.peek()
        except Exception:  # a psutil hiccup must not stop a run
            return None

    def wait(self, on_event: Callable[[Event], object] | None = None) -> Finished | Failed:
        """Run to the end, handing every streamed event to `on_event`; return the final one."""
        for event in self.events():
            if isinstance(event, (Finished, Failed)) and not event.job:
                return event
            if on_event is not None:
                on_event(event)
        return Failed("the benchmark engine ended without a result")

    def cancel(self) -> None:
        """Ask the engine to stop (it removes its scratch dirs); safe to call twice or after it ended."""
        self.cancelled = True
        with contextlib.suppress(OSError, ValueError):
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGTERM)

    def _reap(self, *, stop: bool) -> None:
        """Wait for the child (killing it if it hangs) and remove scratch dirs it could not."""
        if stop:
            self.cancel()
        try:
            self.process.wait(timeout=STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        with contextlib.suppress(OSError, ValueError):
            if self.process.stdin:
                self.process.stdin.close()
        for path in self.scratch:
            if os.path.isdir(path):
                remove_scratch(path)
