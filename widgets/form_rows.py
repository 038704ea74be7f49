"""Rows of form fields laid on one Textual grid, each row with its own widths (a grid's columns are shared
by every row, so a wide field in one row would otherwise widen a short one in the next)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from textual.widget import Widget


def share(total: int, wants: Sequence[tuple[int, int]]) -> list[int]:
    """Split `total` columns among fields that each need `least` and would like `most` (least, most):
    each gets its least, then the rest goes round evenly up to what each would like; what is still left
    goes to the last field."""
    widths = [least for least, _ in wants]
    spare = total - sum(widths)
    hungry = [index for index, (least, most) in enumerate(wants) if most > least]
    while spare > 0 and hungry:
        step = max(1, spare // len(hungry))
        for index in list(hungry):
            give = min(step, wants[index][1] - widths[index], spare)
            widths[index] += give
            spare -= give
            if widths[index] >= wants[index][1]:
                hungry.remove(index)
            if spare <= 0:
                break
    if widths:
        widths[-1] += max(spare, 0)
    return widths


def grid_of_rows(rows: Sequence[Sequence[int]], total: int) -> tuple[list[int], list[list[int]]]:
    """The grid's column widths and each field's column span for `rows` of field widths in `total`
    columns; the last field of a row spans to the grid's right edge (it keeps its own width inside)."""
    cuts = {0, total}
    for row in rows:
        edge = 0
        for width in row[:-1]:
            edge = min(edge + width, total)
            cuts.add(edge)
    edges = sorted(cuts)
    columns = [right - left for left, right in pairwise(edges) if right > left]
    starts = [0]
    for width in columns:
        starts.append(starts[-1] + width)
    spans = []
    for row in rows:
        left, row_spans = 0, []
        for index, width in enumerate(row):
            right = total if index == len(row) - 1 else min(left + width, total)
            row_spans.append(max(1, starts.index(right) - starts.index(left)) if right > left else 1)
            left = right
        spans.append(row_spans)
    return columns, spans


def lay_out_rows(grid: Widget, rows: Sequence[Sequence[tuple[Widget, int]]], total: int) -> None:
    """Set `grid`'s columns and its fields' spans and widths so each row of (field, width) reads left to
    right at those widths; hidden fields must be left out of `rows`."""
    rows = [row for row in rows if row]
    columns, spans = grid_of_rows([[width for _, width in row] for row in rows], total)
    grid.styles.grid_size_columns = max(len(columns), 1)
    grid.styles.grid_columns = " ".join(str(width) for width in columns) or "1fr"
    for row, row_spans in zip(rows, spans, strict=True):
        for index, ((field, width), span) in enumerate(zip(row, row_spans, strict=True)):
            field.styles.column_span = span
            field.styles.width = width if index == len(row) - 1 else "1fr"
