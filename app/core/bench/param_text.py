"""A workload's parameters as a person reads them: labelled, sizes in KiB/MiB, durations in s, no internals.

The one formatter behind `runs show`, `runs compare`, the Runs screen and the reports.
"""

from __future__ import annotations

from diskdoctor.app.base.formatting import binary_size

LABELS = {"bs": "bs", "size": "size", "duration_s": "duration", "sync": "sync", "prealloc": "preallocated",
          "inputs": "inputs", "file_size": "file size", "read_bs": "read bs", "write_bs": "write bs",
          "bytes_per_sync": "bytes per sync", "jobs": "jobs", "writes": "writes", "direct": "O_DIRECT",
          "profile": "profile"}
"""Field name → label; a field not listed shows with its underscores as spaces."""
SIZE_FIELDS = frozenset({"bs", "size", "file_size", "read_bs", "write_bs", "bytes_per_sync"})
HIDDEN_FIELDS = frozenset({"ready_barrier"})
"""Engine plumbing saved with the parameters but meaningless to a person."""
MISSING = "—"


def param_value(name: str, value: object) -> str:
    """One field's value: "2.25 KiB", "30 s", "yes", "4", "fdatasync", "—" when unset."""
    if value is None:
        return MISSING
    if isinstance(value, bool):
        return "yes" if value else "no"
    if name in SIZE_FIELDS and isinstance(value, int):
        return binary_size(value)
    if name == "duration_s" and isinstance(value, (int, float)):
        return f"{value:g} s"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def param_rows(params: dict[str, object], *, keep_unset: bool = False,
               prefix: str = "") -> list[tuple[str, str]]:
    """(label, value) per field, nested parts flattened ("wal bs"); unset fields only with `keep_unset`."""
    rows: list[tuple[str, str]] = []
    for name, value in params.items():
        if name in HIDDEN_FIELDS or (value is None and not keep_unset):
            continue
        label = prefix + LABELS.get(name, name.replace("_", " "))
        if isinstance(value, dict):
            rows += param_rows(value, keep_unset=keep_unset, prefix=f"{label} ")
        else:
            rows.append((label, param_value(name, value)))
    return rows


def params_line(params: dict[str, object]) -> str:
    """All set fields on one line: "inputs 4, file size 64 MiB, read bs 2 MiB, ..."."""
    return ", ".join(f"{label} {value}" for label, value in param_rows(params))


def param_changes(before: dict[str, object], after: dict[str, object]) -> list[tuple[str, str, str]]:
    """(label, before, after) for every field whose shown value differs, nested parts flattened."""
    old, new = dict(param_rows(before, keep_unset=True)), dict(param_rows(after, keep_unset=True))
    return [(label, old.get(label, MISSING), new.get(label, MISSING)) for label in dict.fromkeys([*old, *new])
            if old.get(label, MISSING) != new.get(label, MISSING)]
