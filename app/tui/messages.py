"""Messages the workers post to screens (results as facts, handled on the UI thread)."""

from __future__ import annotations

from dataclasses import dataclass

from diskdoctor.probes.host import Host
from diskdoctor.probes.trim_facts import TrimFacts
from textual.message import Message

from ..core.trim.doctor import TrimVerdict


@dataclass
class HostLoaded(Message):
    """A fresh passive snapshot of the host is ready."""

    host: Host


@dataclass
class HostLoadFailed(Message):
    """Reading the host failed; `reason` is one line for the user."""

    reason: str


@dataclass
class TrimLoaded(Message):
    """TRIM verdicts for every mounted filesystem, and the host-wide facts behind them."""

    verdicts: list[TrimVerdict]
    facts: TrimFacts
    host: Host
    """The snapshot the verdicts describe (trim now checks the mount is still the one shown)."""
