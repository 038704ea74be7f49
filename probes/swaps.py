"""Parse /proc/swaps: which block devices are used as swap."""

from __future__ import annotations

from .root import Root

SWAPS = "proc/swaps"


def parse_swaps(text: str) -> list[tuple[str, str]]:
    """(filename, type) for each swap area; the header line is skipped."""
    areas = []
    for line in text.splitlines()[1:]:
        fields = line.split()
        if len(fields) >= 2:
            areas.append((fields[0].replace("\\040", " "), fields[1]))
    return areas


def read_swaps(root: Root) -> list[tuple[str, str]]:
    """Swap areas under `root`; none when the file is missing."""
    text, _ = root.read_text(SWAPS)
    return parse_swaps(text) if text else []
