"""/etc/crypttab: which dm-crypt mappings are opened with the `discard` option at boot."""

from __future__ import annotations

from dataclasses import dataclass

from .root import Root

CRYPTTAB = "etc/crypttab"


@dataclass(frozen=True, slots=True)
class CrypttabEntry:
    """One crypttab line: mapping name, source device, key file and options."""

    name: str
    device: str
    options: tuple[str, ...]

    @property
    def allows_discards(self) -> bool:
        """`discard` in the options (crypttab(5)) passes TRIM through the mapping."""
        return "discard" in self.options


def parse_crypttab(text: str) -> list[CrypttabEntry]:
    """Entries of a crypttab; malformed lines are skipped."""
    entries = []
    for line in text.splitlines():
        fields = line.split()
        if len(fields) < 2 or fields[0].startswith("#"):
            continue
        options = tuple(fields[3].split(",")) if len(fields) > 3 else ()
        entries.append(CrypttabEntry(fields[0], fields[1], options))
    return entries


def read_crypttab(root: Root) -> tuple[dict[str, CrypttabEntry], str]:
    """Entries by mapping name, and the source path."""
    text, _ = root.read_text(CRYPTTAB)
    return {entry.name: entry for entry in parse_crypttab(text or "")}, root.host_path(CRYPTTAB)
