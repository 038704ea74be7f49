"""Typed access to fields of a stored JSON document that may be corrupt or foreign (TypeError when wrong)."""

from __future__ import annotations


def as_dict(value: object, what: str) -> dict[str, object]:
    """`value` if it is a JSON object, else TypeError naming `what`."""
    if not isinstance(value, dict):
        raise TypeError(f"{what} is not an object")
    return value


def as_list(value: object, what: str) -> list[object]:
    """`value` if it is a JSON array (None counts as empty), else TypeError naming `what`."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise TypeError(f"{what} is not a list")
    return value
