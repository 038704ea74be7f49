"""The walkthroughs on offer: key, title, the question each answers, and its steps (built fresh per run)."""

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


def guides() -> list[Guide]:
    """Every walkthrough, in menu order."""
    from . import apps_guide, etcd_guide, slow_guide, trim_guide

    return [etcd_guide.GUIDE, trim_guide.GUIDE, slow_guide.GUIDE, apps_guide.GUIDE]


def guide_by_key(key: str) -> Guide:
    """The walkthrough named `key` (KeyError when there is none)."""
    return next(guide for guide in guides() if guide.key == key)
