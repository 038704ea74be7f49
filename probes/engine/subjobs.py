"""Sibling engine processes started by an engine child (parallel compaction jobs, the WAL beside compaction).

Each job is its own `_engine KIND` process with its own scratch dir; this parent only waits in select()
on their pipes, so it adds no CPU beside the measured loops. The jobs stop by themselves when it dies
(PR_SET_PDEATHSIG and EOF on their stdin).
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
from typing import Any

from ..engine_launch import engine_argv
from ..wal_target import TargetError, describe_bench_error, remove_scratch
from .protocol import Event, Failed, Finished, PhaseChanged, Started, decode
from .runtime import EngineConfig, emit

STOP_WAIT_S = 5.0
GO = b"go\n"
"""Written to a job's stdin to end its "ready" barrier (all jobs start measuring together); written again
to a job that runs until told (the RocksDB store), it asks it to finish and send its result."""


class SubJob:
    """One sibling engine process and the events it streamed that were not yet handed out."""

    def __init__(self, config: EngineConfig, result_type: Any) -> None:
        self.config, self.buffer, self.scratch = config, b"", None
        self.result_type = result_type
        self.final: Finished | Failed | None = None
        self.phase = "start"
        argv = engine_argv([config.workload, config.to_json()])
        try:
            self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.DEVNULL, bufsize=0, close_fds=True)
        except OSError as err:
            raise TargetError(f"cannot start a benchmark job: {describe_bench_error(err)}") from err
        assert self.process.stdout is not None
        os.set_blocking(self.process.stdout.fileno(), False)

    def _read_result(self, _workload: str, data: dict[str, Any]) -> Any:
        return self.result_type.from_json(data)

    @property
    def open(self) -> bool:
        """Whether its pipe may still bring events."""
        return self.process.stdout is not None and not self.process.stdout.closed

    def read(self) -> list[Event]:
        """Events that arrived (without blocking); a Failed is made up if it died without a final event."""
        assert self.process.stdout is not None
        events: list[Event] = []
        chunk = b""
        with contextlib.suppress(BlockingIOError):
            chunk = os.read(self.process.stdout.fileno(), 1 << 16)
            if not chunk:
                self.process.stdout.close()
        *lines, self.buffer = (self.buffer + chunk).split(b"\n")
        for line in lines:
            event = decode(line, self._read_result)
            if isinstance(event, Started):
                self.scratch = event.scratch
                emit(event)  # the runner learns every scratch dir, to remove it if all else fails
            elif isinstance(event, PhaseChanged):
                self.phase = event.phase
            if isinstance(event, (Finished, Failed)):
                self.final = event
            if event is not None:
                events.append(event)
        if not self.open and self.final is None:
            self.final = Failed(f"a {self.config.workload} job stopped unexpectedly", False, self.config.job)
            events.append(self.final)
        return events

    def go(self) -> None:
        """Release the job from its "ready" barrier."""
        with contextlib.suppress(OSError, ValueError):
            assert self.process.stdin is not None
            self.process.stdin.write(GO)

    def stop(self) -> None:
        """Ask the job to stop (it removes its scratch dir)."""
        with contextlib.suppress(OSError):
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGTERM)

    def reap(self) -> None:
        """Wait for the job (killing it if it hangs) and remove its scratch dir if it could not."""
        try:
            self.process.wait(timeout=STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            with contextlib.suppress(OSError, ValueError):
                if stream is not None:
                    stream.close()
        if self.scratch and os.path.isdir(self.scratch):
            remove_scratch(self.scratch)


class SubJobs:
    """A group of sibling jobs; always use as a context manager so every job is stopped and reaped."""

    def __init__(self) -> None:
        self.jobs: list[SubJob] = []

    def start(self, config: EngineConfig, result_type: Any) -> SubJob:
        """Start one more job, whose final result is a `result_type`."""
        job = SubJob(config, result_type)
        self.jobs.append(job)
        return job

    def poll(self, timeout_s: float, jobs: list[SubJob] | None = None) -> list[tuple[SubJob, Event]]:
        """Wait up to `timeout_s` for events of `jobs` (all by default) and return them in arrival order."""
        readable = [job for job in (jobs or self.jobs) if job.open]
        if not readable:
            return []
        ready, _, _ = select.select([job.process.stdout for job in readable], [], [], timeout_s)
        found = []
        for job in readable:
            if job.process.stdout in ready:
                found.extend((job, event) for event in job.read())
        return found

    def __enter__(self) -> SubJobs:
        return self

    def __exit__(self, *_exc: object) -> None:
        for job in self.jobs:
            job.stop()
        for job in self.jobs:
            job.reap()


def wait_ready(jobs: SubJob | list[SubJob], group: SubJobs, on_event: object = None) -> None:
    """Block until every job reached its "ready" barrier; a job that failed first raises TargetError."""
    waiting = [jobs] if isinstance(jobs, SubJob) else list(jobs)
    while any(job.phase != "ready" for job in waiting):
        for job, event in group.poll(0.5, waiting):
            if isinstance(event, Failed):
                raise TargetError(event.message)
            if isinstance(event, Finished):
                raise TargetError(f"a {job.config.workload} job ended before it was ready")
            if callable(on_event):
                on_event(job, event)
