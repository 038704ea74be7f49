"""Every benchmark kind a saved run can hold, by name (a new workload registers its kind here)."""

from __future__ import annotations

from .kinds import RunKind
from .workload_kinds import CompactionKind, InterferenceKind, RandwriteKind, WalKind

KINDS: dict[str, RunKind] = {kind.name: kind for kind in (WalKind(), RandwriteKind(), CompactionKind(),
                                                           InterferenceKind())}


def kind_for(name: str) -> RunKind | None:
    """The kind called `name`, or None when this version of diskdoctor does not know it."""
    return KINDS.get(name)
