"""What a WAL benchmark run does: the load (open-loop rates and arrivals, the closed-loop capacity), block
size, amount, sync call, preallocation, the file model (etcd's segments or one plain file), and the fio
equivalent."""

from __future__ import annotations

import math
import re
import shlex
from dataclasses import asdict, dataclass, replace

SYNC_METHODS = ("fdatasync", "fsync", "dsync", "direct-fdatasync")
SYNC_LABELS = {"fdatasync": "fdatasync", "fsync": "fsync", "dsync": "O_DSYNC write",
               "direct-fdatasync": "fdatasync"}
"""How the durable call is named in a verdict ("p99 fdatasync 3.1 ms")."""
SIZE_UNITS = {"": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
MAX_BS = 64 << 20
ARRIVALS = ("steady", "poisson")
"""How the open-loop writes arrive: evenly spaced, or independent clients (exponential gaps, same mean)."""
FORMATS = ("etcd", "raw")
"""etcd: its WAL's 64 MB preallocated segments, framed records and the backend's bbolt commits beside;
raw: `bs`-byte writes into one preallocated file (fio's etcd job)."""
ETCD_RATES = (50.0, 500.0)
"""etcd's hardware guide: "50 sequential IOPS" is required, "500 sequential IOPS" for heavily loaded
clusters (op-guide/hardware.md)."""
MAX_RATE = 100_000.0
"""The most writes/s an open-loop level may ask for: above it the schedule itself is the bottleneck."""
LEVEL_S = 20.0
"""How long each open-loop level runs by default: 1,000 writes at 50/s, enough for a p99 (and a p99.9 at
500/s)."""
ETCD_SEGMENT_BYTES = 64_000_000
"""etcd's wal.SegmentSizeBytes (64 * 1000 * 1000): each segment file is preallocated to this."""
COMMIT_MS = 100.0
"""etcd's backend batch interval: pending writes are committed to bbolt every 100 ms."""


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
    rates: tuple[float, ...] = ()
    """Open-loop levels in writes/s, each run `level_s` (or `duration_s`); none: the closed loop only (runs
    saved before the open loop existed, and the WAL inside `bench interference`)."""
    arrival: str = "steady"
    capacity: bool = True
    """Also run the closed loop (each write the moment the last sync returned): the disk's capacity."""
    level_s: float = LEVEL_S
    format: str = "raw"
    commit_ms: float = 0.0
    """The backend commit interval beside the WAL (etcd format only; 0: none)."""
    seed: int = 1
    """Seeds the Poisson arrivals, so a run can be repeated exactly."""
    segment_bytes: int = ETCD_SEGMENT_BYTES

    def to_json(self) -> dict[str, object]:
        """The `params` object of the JSON result."""
        data = asdict(self)
        data["rates"] = list(self.rates)
        return data

    @classmethod
    def from_json(cls, data: dict[str, object]) -> WalParams:
        """Inverse of `to_json` (unknown keys are ignored; a run saved before the open loop has no rates)."""
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        if "rates" in known:
            known["rates"] = tuple(float(r) for r in known["rates"] or ())  # type: ignore[union-attr]
        return cls(**known)  # type: ignore[arg-type]

    @property
    def model(self) -> str:
        """"open loop" when rates drive the writes (the verdict comes from them), else "closed loop"."""
        return "open loop" if self.rates else "closed loop"

    @property
    def scratch_bytes(self) -> int:
        """The space the run needs in its scratch directory: the plain file, or etcd's current and next
        segment (at least `size`, what the closed loop writes, as etcd keeps segments until it purges
        them) plus the backend's db file with the growth bbolt allocates past it."""
        if self.format == "etcd":
            from .engine.backend_commit import DB_GROW_BYTES

            db = self.db_bytes + DB_GROW_BYTES if self.commit_ms else 0  # its pages and bbolt's growth
            return max(self.size, 2 * self.segment_bytes) + db
        return self.size

    @property
    def db_bytes(self) -> int:
        """The most the backend's db file holds before its pages are reused: 64 MiB, or the WAL's segment
        size when that is smaller (at least 4 MiB), so a small run fits a small filesystem."""
        from .engine.backend_commit import DB_BYTES_MAX, DB_MIN

        return min(DB_BYTES_MAX, max(DB_MIN, self.segment_bytes))

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
        for rate in self.rates:
            check_rate(rate)
        if not self.rates and not self.capacity:
            raise ParamError("nothing to run: give a --rate, or keep the capacity run")
        if self.arrival not in ARRIVALS:
            raise ParamError(f"unknown arrival model {self.arrival!r} (choose from {', '.join(ARRIVALS)})")
        if self.format not in FORMATS:
            raise ParamError(f"unknown WAL format {self.format!r} (choose from {', '.join(FORMATS)})")
        if self.format == "etcd" and self.sync not in ("fdatasync", "fsync"):
            raise ParamError(f"etcd's WAL syncs with fdatasync; --sync {self.sync} needs the raw format "
                             "(--profile postgres-wal)")
        if not 0 < self.level_s <= 86400:
            raise ParamError(f"level duration {self.level_s} s is out of range (0 to 86400)")
        if not 0 <= self.commit_ms <= 60_000:
            raise ParamError(f"commit interval {self.commit_ms} ms is out of range (0 to 60000)")
        if self.format == "etcd" and self.segment_bytes < 1 << 20:
            raise ParamError(f"segment size {self.segment_bytes} is under 1 MiB")


def check_rate(rate: float) -> None:
    """ParamError unless `rate` is a usable open-loop rate (more than 0, at most MAX_RATE writes/s)."""
    if not isinstance(rate, (int, float)) or math.isnan(rate) or not 0 < rate <= MAX_RATE:
        raise ParamError(f"rate {rate:g} writes/s is out of range (more than 0, at most {MAX_RATE:,.0f})")


def parse_rates(text: str) -> tuple[float, ...]:
    """Open-loop rates from "500", "50,500" or "1.5k" (writes/s); ParamError for anything else."""
    rates = []
    for part in text.split(","):
        match = re.fullmatch(r"\s*(\d+(?:\.\d+)?(?:e\d+)?)\s*(k?)\s*(?:/s)?\s*", part.lower())
        if not match:
            if not part.strip():
                raise ParamError(f"empty rate in {text.strip()!r} (writes per second, e.g. 500 or 50,500)")
            if re.fullmatch(r"\s*-\s*\d[\d.]*\s*k?\s*(?:/s)?\s*", part.lower()):
                raise ParamError(f"rate {part.strip()} is below zero: give writes per second above 0")
            raise ParamError(f"cannot read rate {part.strip()!r} (writes per second, e.g. 500 or 50,500)")
        rate = float(match.group(1)) * (1000 if match.group(2) else 1)
        check_rate(rate)
        rates.append(rate)
    return tuple(rates)


def rate_text(rate: float) -> str:
    """A rate as a person writes it: "100,000", "1,234", "50", "2.5" (never "1e+05")."""
    return f"{rate:,.0f}" if rate >= 100 else f"{rate:,.4g}"


def load_text(rate: float | None, arrival: str) -> str:
    """A load in words: "500 writes/s, steady", "50 writes/s, Poisson", "closed loop (capacity)"."""
    if rate is None:
        return "closed loop (capacity)"
    return f"{rate_text(rate)} writes/s, {'Poisson' if arrival == 'poisson' else arrival}"


PROFILES = {
    "etcd": WalParams(rates=ETCD_RATES, format="etcd", commit_ms=COMMIT_MS),
    "postgres-wal": WalParams(profile="postgres-wal", bs=8192, size=16 << 20, rates=ETCD_RATES),
}
"""etcd: puts at 50 and 500 writes/s into etcd's WAL segments with the backend commit beside, then the
closed loop over 22 MiB in 2,300-byte writes (the IBM/etcd fio check) as the capacity figure.
postgres-wal: 8 KiB pages at the same rates into one 16 MiB file."""


LOAD_FIELDS = frozenset({"rates", "arrival", "capacity", "level_s", "seed", "segment_bytes"})
"""Overrides that change the load, not what is written: the profile keeps its name."""


def profile_params(name: str, **overrides: object) -> WalParams:
    """A profile with the user's overrides; an override of what is written makes it a "custom" run (the
    load, rates and arrivals, does not). A sync call etcd's WAL never makes moves it to the raw format."""
    if name not in PROFILES:
        raise ParamError(f"unknown profile {name!r} (choose from {', '.join(PROFILES)})")
    given = {k: v for k, v in overrides.items() if v is not None}
    params = PROFILES[name]
    if params.format == "etcd" and given.get("sync") in ("dsync", "direct-fdatasync"):
        given.update(format="raw", commit_ms=0.0)
    changed = {k: v for k, v in given.items() if getattr(params, k) != v}
    if changed:
        custom = {} if set(changed) <= LOAD_FIELDS else {"profile": "custom"}
        params = replace(params, **custom, **changed)
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
