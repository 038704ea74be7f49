"""Compare `diskdoctor devices --json` with real `lsblk --sysroot DIR -J -O -b` device by device.

lsblk lists a device once under each parent; both forests are flattened to one record per kernel name
with the set of its parents. A value counts as lsblk's only where lsblk read it from the tree: some
columns it takes from this machine under --sysroot, or prints as a constant when the file is missing
(misc-utils/lsblk.c, device_get_data), and those are left out of the comparison."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from support.cli_runner import run_cli

SHARED_COLUMNS: dict[str, tuple[str, ...]] = {
    "name": ("name",), "kname": ("kname",), "path": ("path",), "maj:min": ("maj_min",),
    "type": ("type",), "size": ("size_bytes",), "rota": ("rotational",), "sched": ("scheduler",),
    "ro": ("read_only",), "rm": ("removable",), "model": ("model",), "serial": ("serial",),
    "tran": ("transport",), "disc-gran": ("discard", "granularity_bytes"),
    "disc-max": ("discard", "max_bytes"), "disc-aln": ("discard", "alignment_bytes"),
    "fstype": ("fstype",), "mountpoints": ("mountpoints",),
}
"""lsblk's JSON key -> where devices --json keeps the same fact."""
FROM_THIS_MACHINE = {"owner", "group", "mode", "fsavail", "fssize", "fsused", "fsuse%"}
"""Columns lsblk reads from this machine's /dev nodes and mounts, whatever --sysroot says."""
CONSTANT_WHEN_MISSING = {
    "disc-aln": "queue/discard_granularity", "disc-zero": "queue/discard_granularity",
    "wsame": "queue/write_same_max_bytes", "zone-omax": "queue/max_open_zones",
    "zone-amax": "queue/max_active_zones", "mq": "mq",
    "rota": "queue/rotational", "rand": "queue/add_random", "dax": "queue/dax", "ro": "ro",
}
"""lsblk prints "0" (or "1" for mq) when this file is missing or discard is off, and its JSON shows a
boolean column it could not read as false (libsmartcols): such values were not read, but invented.
RO without a `ro` file comes from BLKROGET on this machine's /dev node (is_readonly_device)."""


@dataclass
class Record:
    """One device as a tool shows it: its fields and the names it is shown under."""

    fields: dict[str, Any]
    parents: set[str] = field(default_factory=set)


def lsblk_version() -> str:
    """`lsblk --version` of this machine, e.g. "lsblk from util-linux 2.38.1"."""
    return subprocess.run(["lsblk", "--version"], capture_output=True, text=True,
                          check=True).stdout.strip()


def _flatten(nodes: list[dict[str, Any]], kname_key: str, parent: str | None,
             out: dict[str, Record]) -> dict[str, Record]:
    for node in nodes:
        record = out.setdefault(node[kname_key], Record(node))
        if parent is not None:
            record.parents.add(parent)
        _flatten(node.get("children", []), kname_key, node[kname_key], out)
    return out


def lsblk_records(root: Path, *, all_devices: bool = False) -> dict[str, Record]:
    """lsblk's devices for `root` by kernel name (-J -O -b, and -a when `all_devices`).

    Without -a lsblk keeps an empty loop device when this machine's /dev/loopN has a backing file
    (ignore_empty -> loopdev_has_backing_file on the node, not the tree), so whether the tree's
    empty loopN shows depends on what else runs here; those are dropped, as the tree says "unused"."""
    argv = ["lsblk", "--sysroot", str(root), "-J", "-O", "-b"] + (["-a"] if all_devices else [])
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    records = _flatten(json.loads(done.stdout)["blockdevices"], "kname", None, {})
    if not all_devices:
        records = {kname: record for kname, record in records.items()
                   if not _unused_loop(root, record)}
    return records


def _unused_loop(root: Path, record: Record) -> bool:
    fields = record.fields
    return (fields["type"] == "loop" and fields["size"] == 0
            and not (_sysfs_dir(root, record) / "loop/backing_file").is_file())


def our_records(root: Path, *, all_devices: bool = False) -> dict[str, Record]:
    """diskdoctor's devices --json for `root` by kernel name."""
    result = run_cli("devices", "--json", "--sysroot", str(root), *(["--all"] if all_devices else []))
    assert result.code == 0, result.err
    return _flatten(json.loads(result.out)["devices"], "kname", None, {})


def _ours(record: Record, path: tuple[str, ...]) -> Any:
    value: Any = record.fields
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _empty(value: Any) -> bool:
    """lsblk's null, and its [null] for a device with no mountpoint or fsroot."""
    return value is None or (isinstance(value, list) and all(item is None for item in value))


def _sysfs_dir(root: Path, record: Record) -> Path:
    return root / "sys/dev/block" / record.fields["maj:min"]


def lsblk_read_it(root: Path, record: Record, column: str) -> bool:
    """Whether lsblk took this column's value from the tree (not from this machine, not a constant).

    Partitions' queue/ files are read from the disk (sysfs_blkdev_enoent_redirect); RO falls back to
    BLKROGET on this machine's /dev node when the tree has no `ro` file (is_readonly_device)."""
    if column in FROM_THIS_MACHINE:
        return False
    device = _sysfs_dir(root, record)
    queue_dir = device if (device / "queue").is_dir() else device.resolve().parent
    if column in CONSTANT_WHEN_MISSING:
        attr = CONSTANT_WHEN_MISSING[column]
        source = queue_dir / attr if attr.startswith("queue/") else device / attr
        if not source.exists():
            return False
        if attr == "queue/discard_granularity":
            return source.read_text().strip() not in ("", "0")
    return True


@dataclass
class Comparison:
    """How much of lsblk's output diskdoctor reproduces for one tree."""

    lsblk_only: list[str]
    ours_only: list[str]
    mismatches: list[str]
    all_values: int = 0
    all_matched: int = 0
    shared_values: int = 0
    shared_matched: int = 0
    not_from_tree: int = 0
    raw_values: int = 0
    raw_matched: int = 0

    @property
    def raw_fraction(self) -> float:
        """Share of every non-null value lsblk prints, its invented ones and this machine's included."""
        return self.raw_matched / self.raw_values if self.raw_values else 0.0

    @property
    def all_fraction(self) -> float:
        """Share of every non-null value lsblk read from the tree that we show too."""
        return self.all_matched / self.all_values if self.all_values else 0.0

    @property
    def shared_fraction(self) -> float:
        """Share of the values in columns devices --json has that we show the same."""
        return self.shared_matched / self.shared_values if self.shared_values else 0.0

    def summary(self) -> str:
        """One line for a test log or a report."""
        return (f"{self.all_matched}/{self.all_values} of lsblk's non-null values read from the tree "
                f"({self.all_fraction:.0%}); {self.shared_matched}/{self.shared_values} in the "
                f"columns both tools have ({self.shared_fraction:.0%}); counting also the "
                f"{self.not_from_tree} it took from this machine or printed as a constant: "
                f"{self.raw_matched}/{self.raw_values} ({self.raw_fraction:.0%})")


def _same(column: str, theirs: Any, ours: Any) -> bool:
    if column == "mountpoints":
        return sorted(p for p in theirs if p) == sorted(ours or [])
    return bool(theirs == ours)


def _match(mine: Record | None, column: str, value: Any) -> tuple[bool, Any]:
    """Whether our record shows lsblk's `value` for `column`, and what we show."""
    if mine is None:
        return False, None
    if column == "pkname":
        return mine.parents == value, mine.parents
    if column not in SHARED_COLUMNS:
        return False, None
    ours = _ours(mine, SHARED_COLUMNS[column])
    return _same(column, value, ours), ours


def compare(lsblk_root: Path, our_root: Path, *, all_devices: bool = False) -> Comparison:
    """Every device and non-null value lsblk shows for `lsblk_root` against ours for `our_root`."""
    theirs = lsblk_records(lsblk_root, all_devices=all_devices)
    ours = our_records(our_root, all_devices=all_devices)
    result = Comparison(sorted(set(theirs) - set(ours)), sorted(set(ours) - set(theirs)), [])
    for kname, record in sorted(theirs.items()):
        columns = [c for c in record.fields if c not in ("children", "pkname")]
        for column in columns + ["pkname"]:
            value = record.parents if column == "pkname" else record.fields[column]
            if column != "pkname" and _empty(value):
                continue
            matched, mine = _match(ours.get(kname), column, value)
            result.raw_values += 1
            result.raw_matched += matched
            if column != "pkname" and not lsblk_read_it(lsblk_root, record, column):
                result.not_from_tree += 1
                continue
            result.all_values += 1
            result.all_matched += matched
            if column in SHARED_COLUMNS or column == "pkname":
                result.shared_values += 1
                result.shared_matched += matched
                if not matched:
                    result.mismatches.append(f"{kname} {column}: lsblk {value!r}, ours {mine!r}")
    return result


def with_dev_block_index(tree: Path, dest: Path) -> Path:
    """A copy of a 2.6.18 tree with the /sys/dev/block links 2.6.26 added (../../block/<disk>[/<part>]):
    lsblk --sysroot finds devices only through that index, so on the tree as it is it lists none."""
    shutil.copytree(tree, dest, symlinks=True)
    index = dest / "sys/dev/block"
    index.mkdir(parents=True, exist_ok=True)
    for disk in sorted((dest / "sys/block").iterdir()):
        entries = [(disk.name, disk)] + [(f"{disk.name}/{sub.name}", sub) for sub in sorted(disk.iterdir())
                                         if sub.is_dir() and (sub / "start").is_file()]
        for rel, folder in entries:
            os.symlink(f"../../block/{rel}", index / (folder / "dev").read_text().strip())
    return dest
