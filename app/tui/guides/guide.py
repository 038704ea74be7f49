"""One walkthrough: its key, title, the question it answers, and its steps (built fresh per run)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .steps import Step


@dataclass(frozen=True)
class Guide:
    """One walkthrough."""

    key: str
    title: str
    short: str
    """A word or two for the progress line ("etcd", "TRIM")."""
    about: str
    make_steps: Callable[[], list[Step]]

    def steps(self) -> list[Step]:
        """A fresh list of the walkthrough's steps."""
        return self.make_steps()
