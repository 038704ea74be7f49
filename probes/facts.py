"""A value together with where it was read, or why it could not be read (provenance)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Fact(Generic[T]):
    """One observed value; `source` is a host path or command, `why_unknown` explains a None."""

    value: T | None
    source: str
    why_unknown: str | None = None
