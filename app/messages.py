"""Messages the workers post to screens (results as facts, handled on the UI thread)."""

from __future__ import annotations

from dataclasses import dataclass

from diskdoctor.probes.host import Host
from textual.message import Message


@dataclass
class HostLoaded(Message):
    """A fresh passive snapshot of the host is ready."""

    host: Host


@dataclass
class HostLoadFailed(Message):
    """Reading the host failed; `reason` is one line for the user."""

    reason: str
