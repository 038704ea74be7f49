"""The walkthroughs on offer, in menu order, and each by its key."""

from __future__ import annotations

from . import apps_guide, etcd_guide, slow_guide, trim_guide
from .guide import Guide


def guides() -> list[Guide]:
    """Every walkthrough, in menu order."""
    return [etcd_guide.GUIDE, trim_guide.GUIDE, slow_guide.GUIDE, apps_guide.GUIDE]


def guide_by_key(key: str) -> Guide:
    """The walkthrough named `key` (KeyError when there is none)."""
    return next(guide for guide in guides() if guide.key == key)
