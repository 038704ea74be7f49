"""Messages the workers post to screens (results as facts, handled on the UI thread)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message


@dataclass
class HostLoadFailed(Message):
    """Reading the host failed; `reason` is one line for the user."""

    reason: str
