"""Read what one lab guest left behind: diskdoctor's answers and the kernel's own truth beside them."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

DISCARD_SECTORS_FIELD = 9 + 4
"""/sys/block/X/stat: field 14 (1-based) counts discarded sectors."""


@dataclass(frozen=True)
class FstrimRun:
    """`fstrim -v` on one lab mount: exit code, bytes it says it trimmed, and the discard sectors each
    whole disk received meanwhile (from /sys/block/*/stat)."""

    rc: int
    output: str
    trimmed_bytes: int
    disk_discard_sectors: dict[str, int]

    @property
    def reached_disks(self) -> bool:
        """Whether any disk counted a discard during this fstrim: the kernel's answer to 'does it reach'."""
        return any(self.disk_discard_sectors.values())


def _stat_table(path: Path) -> dict[str, list[int]]:
    table = {}
    for line in path.read_text().splitlines():
        name, *fields = line.split()
        table[name] = [int(field) for field in fields]
    return table


def by_kname(forest: list[dict]) -> dict[str, dict]:  # type: ignore[type-arg]
    """Every device of an lsblk-style forest once, by kernel name, with the set of its parents."""
    found: dict[str, dict] = {}  # type: ignore[type-arg]

    def walk(nodes: list[dict], parent: str | None) -> None:  # type: ignore[type-arg]
        for node in nodes:
            entry = found.setdefault(node["kname"], {**node, "parents": set()})
            if parent:
                entry["parents"].add(parent)
            walk(node.get("children", []), node["kname"])

    walk(forest, None)
    return found


class LabGroup:
    """One group's outputs folder (see tests/lab/guest.sh for what it holds)."""

    def __init__(self, folder: Path) -> None:
        """Wrap the folder a guest wrote."""
        self.folder = folder

    def json(self, name: str) -> dict:  # type: ignore[type-arg]
        """A JSON file the guest wrote."""
        return json.loads((self.folder / name).read_text())

    @cached_property
    def verdicts(self) -> dict[str, dict]:  # type: ignore[type-arg]
        """diskdoctor trim --json in the guest, by mountpoint."""
        return {fs["mountpoint"]: fs for fs in self.json("trim.json")["filesystems"]}

    @cached_property
    def lsblk(self) -> dict[str, dict]:  # type: ignore[type-arg]
        """lsblk -J -O -b in the guest, every device once by kernel name."""
        return by_kname(self.json("lsblk.json")["blockdevices"])

    @cached_property
    def devices(self) -> dict[str, dict]:  # type: ignore[type-arg]
        """diskdoctor devices --json in the guest, every device once by kernel name, with its parents."""
        return by_kname(self.json("devices.json")["devices"])

    def disks(self) -> list[str]:
        """Whole disks as lsblk lists them."""
        return [k for k, d in self.lsblk.items() if d["type"] == "disk"]

    def fstrim(self, name: str, *, fixed: bool = False) -> FstrimRun:
        """The fstrim run on /lab/NAME with the discard sectors every disk received meanwhile; with
        `fixed`, the run after diskdoctor's fixes were applied."""
        folder = self.folder / "fixed" if fixed else self.folder
        output = (folder / "fstrim" / f"{name}.out").read_text()
        match = re.search(r"\((\d+) bytes\) trimmed", output)
        before = _stat_table(folder / "stat" / f"{name}.before")
        after = _stat_table(folder / "stat" / f"{name}.after")
        sectors = {disk: after[disk][DISCARD_SECTORS_FIELD] - before[disk][DISCARD_SECTORS_FIELD]
                   for disk in self.disks() if disk in before and disk in after}
        return FstrimRun(int((folder / "fstrim" / f"{name}.rc").read_text()), output.strip(),
                         int(match.group(1)) if match else 0, sectors)

    def mounts(self) -> list[str]:
        """Names of the lab's mounts (/lab/NAME)."""
        return sorted(path.stem for path in (self.folder / "fstrim").glob("*.rc"))

    def dm_table(self, name: str, *, fixed: bool = False) -> str:
        """The `dmsetup table` lines of one mapping (after the fixes with `fixed`)."""
        folder = self.folder / "fixed" if fixed else self.folder
        lines = (folder / "dmsetup-table.txt").read_text().splitlines()
        return "\n".join(line for line in lines if line.startswith(f"{name}: "))
