"""Every benchmark kind a saved run can hold, by name (a new benchmark registers its kind here)."""

from __future__ import annotations

from .kinds import RunKind
from .wal_kind import WalKind

KINDS: dict[str, RunKind] = {kind.name: kind for kind in (WalKind(),)}


def kind_for(name: str) -> RunKind | None:
    """The kind called `name`, or None when this version of diskdoctor does not know it."""
    return KINDS.get(name)
