"""A value together with where it was read, or why it could not be read (provenance)."""

from __future__ import annotations

from dataclasses import dataclass
from types import GenericAlias

TYPE_CHECKING = False  # not typing's: every command reads facts, and typing costs its start-up ~2 ms
if TYPE_CHECKING:
    from typing import Generic, TypeVar

    T = TypeVar("T")

    class _Generic(Generic[T]):
        """What type checkers see: Fact[int] holds an int."""
else:
    class _Generic:
        """At run time Fact[int] is only an alias (as Generic would make it) without importing typing."""

        __slots__ = ()
        __class_getitem__ = classmethod(GenericAlias)


@dataclass(frozen=True, slots=True)
class Fact(_Generic[T] if TYPE_CHECKING else _Generic):
    """One observed value; `source` is a host path or command, `why_unknown` explains a None."""

    value: T | None
    source: str
    why_unknown: str | None = None
