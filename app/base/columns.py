"""Columns of figures as iostat and fio print them: numbers right-aligned, units in a column of their own, so
that "870 µs" and "11.9 ms" (three significant digits each) read down a table as two plain figures."""

from __future__ import annotations

import re

FIGURE = re.compile(r"(?P<whole>[<>≤≥~-]?[\d,]*)(?P<fraction>\.\d*)?(?: (?P<unit>\S+))?$")


def _parts(cell: str) -> tuple[str, str, str]:
    """(whole part, "." and decimals, unit) of "5.00 ms"; a cell that is no figure ("-") is its whole part."""
    match = FIGURE.match(cell)
    if match is None:
        return cell, "", ""
    return match["whole"], match["fraction"] or "", match["unit"] or ""


def aligned_figures(cells: list[str]) -> list[str]:
    """`cells` padded to one width, their numbers right-aligned and their units one above the other:
    ["600 µs", "5.00 ms", "15.0 ms", "-"] gives [" 600 µs", "5.00 ms", "15.0 ms", "   -   "]."""
    parts = [_parts(cell) for cell in cells]
    number = max((len(w + f) for w, f, _ in parts), default=0)
    unit = max((len(part[2]) for part in parts), default=0)
    return [f"{w + f:>{number}}" + (f" {u:<{unit}}" if unit else "") for w, f, u in parts]


def aligned_column(cells: list[str], width: int = 0) -> list[str]:
    """aligned_figures, right-aligned in `width` (at least as wide as the widest figure)."""
    figures = aligned_figures(cells)
    return [f"{cell:>{width}}" for cell in figures]
