"""What a WAL benchmark run does: block size, amount, sync call, preallocation, and the fio equivalent."""

from __future__ import annotations

import re
import shlex
from dataclasses import asdict, dataclass, replace

SYNC_METHODS = ("fdatasync", "fsync", "dsync", "direct-fdatasync")
SYNC_LABELS = {"fdatasync": "fdatasync", "fsync": "fsync", "dsync": "O_DSYNC write",
               "direct-fdatasync": "fdatasync"}
"""How the durable call is named in a verdict ("p99 fdatasync 3.1 ms")."""
SIZE_UNITS = {"": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
MAX_BS = 64 << 20


class ParamError(ValueError):
    """A parameter the user gave cannot be used; the message is one line."""


@dataclass(frozen=True)
class WalParams:
    """One run: `size` bytes in `bs` writes (or `duration_s` s over a `size` file), each made durable."""

    profile: str = "etcd"
    bs: int = 2300
    size: int = 22 << 20
    duration_s: float | None = None
    sync: str = "fdatasync"
    prealloc: bool = True

    def to_json(self) -> dict[str, object]:
        """The `params` object of the JSON result."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, object]) -> WalParams:
        """Inverse of `to_json` (unknown keys are ignored)."""
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)  # type: ignore[arg-type]

    @property
    def scratch_bytes(self) -> int:
        """The most the run writes into its scratch directory."""
        return self.size

    @property
    def planned_writes(self) -> int | None:
        """How many writes a size-bound run makes (None when it runs for a duration)."""
        return None if self.duration_s else self.size // self.bs

    def validate(self) -> None:
        """Raise ParamError for values no run can use."""
        if self.sync not in SYNC_METHODS:
            raise ParamError(f"unknown sync method {self.sync!r} (choose from {', '.join(SYNC_METHODS)})")
        if not 1 <= self.bs <= MAX_BS:
            raise ParamError(f"block size {self.bs} is out of range (1 byte to 64m)")
        if self.size < self.bs:
            raise ParamError(f"size {self.size} is smaller than the block size {self.bs}")
        if self.duration_s is not None and not 0 < self.duration_s <= 86400:
            raise ParamError(f"duration {self.duration_s} s is out of range (0 to 86400)")
        if self.sync == "direct-fdatasync" and self.bs % 512:
            raise ParamError(f"O_DIRECT needs a block size that is a multiple of 512 (got {self.bs}); "
                             "try --bs 4k")


PROFILES = {
    "etcd": WalParams(),
    "postgres-wal": WalParams(profile="postgres-wal", bs=8192, size=16 << 20),
}
"""etcd: the IBM/etcd fio check (22 MiB in 2,300-byte writes). postgres-wal: 8 KiB pages, a 16 MiB segment."""


def profile_params(name: str, **overrides: object) -> WalParams:
    """A profile with the user's overrides; any override makes it a "custom" run."""
    if name not in PROFILES:
        raise ParamError(f"unknown profile {name!r} (choose from {', '.join(PROFILES)})")
    given = {k: v for k, v in overrides.items() if v is not None}
    params = PROFILES[name]
    changed = {k: v for k, v in given.items() if getattr(params, k) != v}
    if changed:
        params = replace(params, profile="custom", **changed)
    params.validate()
    return params


def parse_size(text: str, what: str = "size") -> int:
    """Bytes from "2300", "8k", "22m", "1g" (binary units, as fio reads them); `what` names the field."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([bkmgt]?)(?:i?b)?\s*", text.lower())
    if not match:
        raise ParamError(f"cannot read {what} {text!r} (use a number with an optional k, m or g suffix)")
    value = float(match.group(1)) * SIZE_UNITS[match.group(2)]
    if value < 1 or value != int(value):
        raise ParamError(f"{what} {text!r} must be a whole number of bytes, at least 1")
    return int(value)


def parse_duration(text: str) -> float:
    """Seconds from "30", "30s", "500ms", "2m" or "1h"."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*", text.lower())
    if not match:
        raise ParamError(f"cannot read duration {text!r} (use seconds, or a number with s, m or h)")
    seconds = float(match.group(1)) * {"ms": 0.001, "s": 1, "m": 60, "h": 3600, None: 1}[match.group(2)]
    if seconds <= 0:
        raise ParamError(f"duration {text!r} must be more than 0")
    return seconds


def fio_runtime(seconds: float) -> str:
    """fio's --runtime value: whole seconds as "30s", anything finer in ms ("500ms"; fio rejects "0.5s")."""
    if float(seconds).is_integer():
        return f"{int(seconds)}s"
    return f"{max(round(seconds * 1000), 1)}ms"


def fio_argv(params: WalParams, directory: str, *, json_output: bool = False) -> list[str]:
    """The fio job doing the same writes and syncs as `params` in `directory`."""
    argv = ["fio", "--rw=write", "--ioengine=sync"]
    if params.sync in ("fdatasync", "direct-fdatasync"):
        argv.append("--fdatasync=1")
    elif params.sync == "fsync":
        argv.append("--fsync=1")
    else:
        argv.append("--sync=dsync")
    if params.sync == "direct-fdatasync":
        argv.append("--direct=1")
    argv += [f"--directory={directory}", f"--size={_fio_size(params.size)}", f"--bs={_fio_size(params.bs)}"]
    if not params.prealloc:
        argv.append("--fallocate=none")
    if params.duration_s:
        argv += ["--time_based", f"--runtime={fio_runtime(params.duration_s)}"]
    argv.append("--name=mytest")
    if json_output:
        argv.append("--output-format=json")
    return argv


def fio_command(params: WalParams, directory: str) -> str:
    """`fio_argv` as one copyable shell line."""
    return shlex.join(fio_argv(params, directory))


def _fio_size(value: int) -> str:
    for suffix, unit in (("g", 1 << 30), ("m", 1 << 20), ("k", 1 << 10)):
        if value >= unit and value % unit == 0:
            return f"{value // unit}{suffix}"
    return str(value)
