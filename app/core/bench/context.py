"""What the bench rules are called with: one benchmark result document and where it came from."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BenchContext:
    """One benchmark result document (`bench wal --json`, or an interference result) and its origin."""

    document: dict[str, object]
    origin: str
    """Where it came from: a file path, or "this run"."""
    not_mounted: bool = False
    """A saved run whose filesystem is not mounted on this host now: its findings are history."""
