"""A value together with where it was read, or why it could not be read (provenance)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Fact(Generic[T]):
    """One observed value; `source` is a host path or command, `why_unknown` explains a None."""

    value: T | None
    source: str
    why_unknown: str | None = None

    @property
    def known(self) -> bool:
        """True when the value was read successfully."""
        return self.value is not None

    def to_json(self) -> dict[str, Any]:
        """The fact as a JSON-ready dict."""
        return {"value": self.value, "source": self.source, "why_unknown": self.why_unknown}


def unknown(source: str, why: str) -> Fact[Any]:
    """A fact whose value could not be determined, with the reason."""
    return Fact(None, source, why)
