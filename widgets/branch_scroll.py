"""Where a tree's view starts so the cursor's branch shows from a title down, never an orphan row on top."""

from __future__ import annotations


def branch_top(path: list[int], group_end: int, cursor_end: int, starts: list[int], count: int,
               rows: int, above: int | None = None) -> int | None:
    """The first line to show of `count` in `rows` rows, as k9s and htop place a jump: the cursor's whole
    group (`path[0]`, its top-level title, to `group_end`) with the title on the top row; else the branch
    from the highest row of `path` (the title, then each row down to the cursor, `path[-1]`) from which
    the cursor and its children (to `cursor_end`) fit; else the cursor on the top row. Near the table's
    end, where the view cannot start that low, it starts on the latest of `starts` (the titles and the
    rows right under a row of `path`: a branch beside the cursor's, from its top) or of `path` that keeps
    the branch whole rather than on whatever row ends the table. `above`: the most rows over the cursor
    (a filter's first match near the top, what is kept for context under it). None without a cursor or
    rows."""
    if not path or rows <= 0 or not 0 <= path[-1] < count:
        return None
    last = max(count - rows, 0)  # the most the view scrolls
    starts = sorted(set(starts) | set(path))
    for start, end in [(path[0], group_end), *((line, cursor_end) for line in path)]:
        if end - start + 1 > rows or (above is not None and path[-1] - start > above):
            continue
        if start <= last:
            return start
        return max((line for line in starts if line <= last and end < line + rows), default=last)
    return min(path[-1], last)
