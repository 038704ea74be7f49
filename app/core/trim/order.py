"""The one order of TRIM verdicts, worst first, shared by the TRIM screen, the TRIM walkthrough and the
Stack's mountpoints-down view, so a filesystem ranks the same on each."""

from __future__ import annotations

from diskdoctor.probes.host import natural_key

TYPE_CHECKING = False  # not typing's; the verdicts' module loads with the verdicts, not with the Stack screen
if TYPE_CHECKING:
    from .doctor import TrimVerdict

WORST_FIRST = {"blocked": 0, "unscheduled": 1, "unsupported": 2, "unknown": 3, "ok": 4}
"""Rows by consequence: discard stopped at a layer, never trimmed, cannot be, unknown, then fine."""


def verdict_key(verdict: TrimVerdict) -> tuple[int, int, list[object]]:
    """The sort key of one verdict: its consequence, more warnings first within one, then its mountpoint."""
    warnings = sum(1 for f in verdict.findings if f.severity != "info")
    rank = WORST_FIRST.get(str(verdict.verdict), len(WORST_FIRST))
    return rank, -warnings, natural_key(verdict.mountpoint)


def worst_first(verdicts: list[TrimVerdict]) -> list[TrimVerdict]:
    """Verdicts by consequence, more warnings first within one, then by mountpoint."""
    return sorted(verdicts, key=verdict_key)
