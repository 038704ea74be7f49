"""Mutated copies of real saved run files (tests/fixtures/saved-runs): every field given a wrong type."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

SAVED_RUNS = Path(__file__).parent.parent / "fixtures" / "saved-runs"
"""One real file per kind, made by `diskdoctor bench wal|randwrite|compaction|interference --fio` on ext4
on a loop device (so the stack and the per-layer figures are filled in)."""
KINDS = ("wal", "randwrite", "compaction", "interference")
MISSING = object()
WRONG_VALUES: dict[str, object] = {
    "string": "s", "null": None, "list": [], "object": {}, "negative": -1, "huge": 10 ** 50,
    "nan": float("nan"), "infinity": float("inf"), "missing": MISSING,
}
"""What each field is replaced with (NaN and Infinity are written as Python's json writes them)."""
MAPS = frozenset({"counts", "percentiles", "percentiles_ns"})
"""Objects keyed by data (histogram buckets, percentiles): only their first entry is mutated."""

Path_ = tuple[str | int, ...]


def real_run(kind: str) -> dict[str, object]:
    """The real run file of `kind` as a JSON document."""
    [path] = SAVED_RUNS.glob(f"*-{kind}-*.json")
    return json.loads(path.read_text())  # type: ignore[no-any-return]


def field_name(path: Path_) -> str:
    """("record", "host", "top_io", 0, "pid") as "record.host.top_io[0].pid", as the warnings name it."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


def _shape(value: object) -> object:
    """The structure of a value (keys and types, maps of data reduced to one entry), to fuzz each once."""
    if isinstance(value, dict):
        return tuple(sorted((key, _shape(item)) for key, item in value.items()))
    if isinstance(value, list):
        return ("list", _shape(value[0]) if value else None)
    return type(value).__name__


def field_paths(document: object, seen: set[object] | None = None, path: Path_ = ()) -> Iterator[Path_]:
    """Every field (objects and lists too); lists by their first item, data maps by their first key; a
    part of the same structure as one already walked (histograms.write after histograms.sync) is mutated
    as a whole but not walked into again."""
    seen = set() if seen is None else seen
    if isinstance(document, dict):
        keys = list(document)[:1] if path and path[-1] in MAPS else list(document)
        items: list[tuple[str | int, object]] = [(key, document[key]) for key in keys]
    elif isinstance(document, list):
        items = [(0, document[0])] if document else []
    else:
        return
    for key, value in items:
        yield (*path, key)
        if isinstance(value, (dict, list)) and value:
            shape = (key if isinstance(key, str) else "[]", _shape(value))
            if shape not in seen:
                seen.add(shape)
                yield from field_paths(value, seen, (*path, key))


@dataclass(frozen=True)
class Mutation:
    """One real run file with one field set to a wrong value (or removed)."""

    kind: str
    path: Path_
    wrong: str
    document: dict[str, object]

    @property
    def field(self) -> str:
        return field_name(self.path)

    @property
    def file_name(self) -> str:
        """A unique run id (the file name is the id), sorting after the real run of the kind."""
        slug = "".join(ch if ch.isalnum() else "-" for ch in self.field)
        return f"20261125-150000-{self.kind}-{slug}--{self.wrong}.json"

    def text(self) -> str:
        """The file as written (NaN and Infinity as Python's json writes them)."""
        return json.dumps(self.document)


def mutate(document: dict[str, object], path: Path_, wrong: object) -> dict[str, object]:
    """A copy of `document` with the field at `path` replaced by `wrong` (or deleted for MISSING)."""
    copied = json.loads(json.dumps(document))
    parent: object = copied
    for part in path[:-1]:
        parent = parent[part]  # type: ignore[index]
    if wrong is MISSING:
        del parent[path[-1]]  # type: ignore[attr-defined]
    else:
        parent[path[-1]] = json.loads(json.dumps(wrong))  # type: ignore[index]  # a new [] or {} each time
    return copied


def mutations(kind: str) -> list[Mutation]:
    """Every field of the real `kind` run with every wrong value."""
    document = real_run(kind)
    return [Mutation(kind, path, name, mutate(document, path, wrong))
            for path in field_paths(document) for name, wrong in WRONG_VALUES.items()]
