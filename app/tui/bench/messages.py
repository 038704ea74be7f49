"""What the Benchmark screen's background workers tell it: a run started, streamed, ended; fio ended."""

from __future__ import annotations

from dataclasses import dataclass

from diskdoctor.app.core.bench.record import BenchRecord
from diskdoctor.probes.engine.protocol import Interval
from diskdoctor.probes.wal_target import Target
from textual.message import Message


@dataclass
class EarlierRuns(Message):
    """The saved runs on the filesystem holding `directory`, newest first: (when, kind, headline)."""

    directory: str
    runs: list[tuple[str, str, str]]


@dataclass
class RunStarted(Message):
    """The target was checked and the engine child started."""

    target: Target
    params: object


@dataclass
class IntervalReady(Message):
    """The engine streamed one interval."""

    snapshot: Interval


@dataclass
class RunEnded(Message):
    """The run finished (`result`), failed or was cancelled (`problem`)."""

    result: object | None
    problem: str | None = None
    cancelled: bool = False
    saved: str | None = None
    """"saved as run ID" or why it could not be saved (None when saving was not attempted)."""
    record: BenchRecord | None = None
    """The finished run's record, as built once and saved (the screen re-judges it, never rebuilds it)."""
    fit_size: str | None = None
    """A run refused for lack of space: the size field value that fits (the screen sets it)."""
    fit_note: str | None = None
    """With `fit_size`: the status line's short word on it (the problem says it all, under the chart)."""


@dataclass
class FioEnded(Message):
    """The fio side-by-side run finished (`stats`: the workload's fio figures) or failed (`problem`)."""

    stats: object | None
    problem: str | None = None


@dataclass
class ContentionReady(Message):
    """The host's contention so far in the running benchmark (caveats.py's words), every few seconds."""

    text: str
    busy: bool
