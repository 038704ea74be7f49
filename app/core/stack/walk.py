"""Walk the device forest from the disks up, lsblk style, with output bounded by the graph's size."""

from __future__ import annotations

from dataclasses import dataclass

from diskdoctor.probes.host import Host

TYPE_CHECKING = False  # not typing's; collections.abc only for the hints (`devices --json` ~0.1 ms)
if TYPE_CHECKING:
    from collections.abc import Iterator

MAX_DEPTH = 64
"""No real stack is this deep (disk, partition, md, LVM, crypt, ...: under 10 layers)."""
ROW_BUDGET_PER_EDGE = 8
ROW_BUDGET_MIN = 10_000


@dataclass(frozen=True, slots=True)
class WalkRow:
    """One printed row: the device, its place in the tree, and whether its children are left out."""

    kname: str
    depth: int
    last: tuple[bool, ...]
    """For each level down to this row: was that ancestor (or this row) the last of its siblings."""
    shown_above: bool = False
    """A device reached by another path whose subtree was already printed (only on huge graphs)."""


def _lsblk_rows(host: Host) -> int:
    """How many rows lsblk would print (a device under each path that reaches it), counted bottom-up."""
    rows: dict[str, int] = {}
    for start in host.devices:
        stack = [start]
        while stack:
            kname = stack[-1]
            if kname in rows:
                stack.pop()
                continue
            pending = [c for c in host.children(kname) if c not in rows]
            if pending:
                stack.extend(pending)
                continue
            rows[kname] = 1 + sum(rows[c] for c in host.children(kname))
            stack.pop()
    return sum(rows[k] for k in host.roots())


def repeats_in_full(host: Host) -> bool:
    """Whether a device with two parents (RAID-0 over two partitions) is printed in full under each,
    as lsblk does; false only when that would print far more rows than the graph has edges
    (a hostile "diamond" capture doubles the rows at every level)."""
    edges = sum(len(host.children(k)) for k in host.devices)
    budget = max(ROW_BUDGET_MIN, ROW_BUDGET_PER_EDGE * (edges + len(host.devices)))
    return _lsblk_rows(host) <= budget


def walk_forest(host: Host) -> Iterator[WalkRow]:
    """Every row from the roots up, depth first, in natural order."""
    full = repeats_in_full(host)
    expanded: set[str] = set()
    roots = host.roots()
    stack: list[tuple[str, int, tuple[bool, ...]]] = [
        (kname, 0, (index == len(roots) - 1,)) for index, kname in reversed(list(enumerate(roots)))]
    while stack:
        kname, depth, last = stack.pop()
        children = host.children(kname) if depth < MAX_DEPTH else []
        repeat = not full and kname in expanded and bool(children)
        yield WalkRow(kname, depth, last, repeat)
        if repeat:
            continue
        expanded.add(kname)
        for index in reversed(range(len(children))):
            stack.append((children[index], depth + 1, (*last, index == len(children) - 1)))
