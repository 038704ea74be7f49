"""What the per-workload documents and summaries read of a finished run (BenchRecord is one), as a Protocol
so that those modules need not import the record that dispatches to them."""

from __future__ import annotations

from typing import Any, Protocol

from diskdoctor.probes.wal_target import Target


class FinishedRun(Protocol):
    """A finished run of one workload: its parameters, target, typed result, threshold and fio's side."""

    workload: str
    params: Any
    target: Target
    result: Any
    threshold: float | None
    threshold_source: str | None
    fio: Any
    sections: Any
    """The run's sections per figure key, one list per repeat (None: saved before they were kept)."""
    repeats: int
