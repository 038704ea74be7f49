"""Real RocksDB as the aggressor: a store that puts random keys (db_bench `fillrandom`'s pattern) until
stopped, while RocksDB's own C++ background threads flush and compact (they run without Python's GIL).

It runs through rocksdict (RocksDB bundled in a wheel), imported only here, in the engine child that runs
the store, never by the CLI, the TUI or the other workloads. Its options are RocksDB's defaults, or an
OPTIONS file loaded by RocksDB's own parser, then the user's knobs on top. What it did to the disk comes
from RocksDB's statistics: bytes written by flushes and compactions, bytes read by compactions, stalls.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import random
import re
import select
import time
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from ...rocksdb_options import parse_options_text
from ...wal_params import ParamError
from ...wal_target import TargetError
from ..protocol import Interval
from ..runtime import EXIT_ERROR, Stopped, emit

if TYPE_CHECKING:
    from ..runtime import EngineContext

MIB = 1 << 20
KEY_BYTES = 16
VALUE_BYTES = 100
"""db_bench's fillrandom: 16-byte keys, 100-byte values."""
MAX_JOBS = 16
RUN_S = 20.0
"""A store that runs until stopped is sized for this long (bench interference's WAL phase)."""
PUT_MB_S = 16.0
"""About what one Python thread puts (~100,000 puts/s of 116 bytes, with RocksDB's own WAL beside)."""
BATCH = 1000
"""Puts per WriteBatch while the store is being filled up to its first compaction."""
FIRST_COMPACTION_S = 180.0
"""The fill-up must have finished a compaction by then (a store at RocksDB's defaults needs ~256 MiB)."""
PACE_EVERY = 100
OPTIONS_NAME = "OPTIONS-000001"
STATS = {"compact.read.bytes": "compact_read", "compact.write.bytes": "compact_written",
         "flush.write.bytes": "flush_written", "wal.bytes": "wal_written", "stall.micros": "stall_us",
         "number.keys.written": "puts"}
_STAT_LINE = re.compile(r"^rocksdb\.([a-z.]+) COUNT : (\d+)$", re.MULTILINE)


class RocksdbUnavailable(ParamError):
    """rocksdict (RocksDB for Python) cannot be loaded on this host."""


@dataclass(frozen=True)
class StoreParams:
    """RocksDB's options that shape background I/O (None: the OPTIONS file's value, else RocksDB's default),
    the put rate, and the OPTIONS file to start from."""

    background_jobs: int | None = None
    bytes_per_sync: int | None = None
    rate_limit_mb_s: float | None = None
    direct_io: bool = False
    ingest_mb_s: float | None = None
    write_buffer_size: int | None = None
    target_file_size_base: int | None = None
    max_bytes_for_level_base: int | None = None
    options_file: str | None = None
    """The OPTIONS file's path, for the record (its text travels in `options_text`)."""
    options_text: str | None = None
    duration_s: float | None = None
    ready_barrier: bool = False
    """Internal: after the fill-up, wait for "go" on stdin (the WAL starts once the store is compacting)."""

    def to_json(self) -> dict[str, object]:
        """The `params` object of the engine's configuration."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, object]) -> StoreParams:
        """Inverse of `to_json` (unknown keys ignored)."""
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})  # type: ignore[arg-type]

    def validate(self) -> None:
        """Raise ParamError for values no store can use."""
        if self.background_jobs is not None and not 1 <= self.background_jobs <= MAX_JOBS:
            raise ParamError(f"background jobs {self.background_jobs} is out of range (1 to {MAX_JOBS})")
        for name in ("rate_limit_mb_s", "ingest_mb_s"):
            value = getattr(self, name)
            if value is not None and not 0.1 <= value <= 100_000:
                raise ParamError(f"{name.replace('_', '-')} {value:g} is out of range (0.1 to 100000 MB/s)")
        for name in ("write_buffer_size", "target_file_size_base", "max_bytes_for_level_base"):
            value = getattr(self, name)
            if value is not None and not MIB <= value <= 4096 * MIB:
                raise ParamError(f"{name} {value} is out of range (1 MiB to 4 GiB)")
        if self.bytes_per_sync is not None and not 0 <= self.bytes_per_sync <= 1024 * MIB:
            raise ParamError(f"bytes per sync {self.bytes_per_sync} is out of range (0 to 1 GiB)")

    @property
    def scratch_bytes(self) -> int:
        """The engine's free-space check for the store's own run (until stopped: as beside a 20 s WAL); none
        for the store `bench interference` starts beside its WAL, whose own check counted it for the WAL's
        phase (a short walkthrough run would otherwise be refused for a 20 s store)."""
        return 0 if self.ready_barrier else self.bytes_after(self.duration_s or RUN_S)

    def bytes_after(self, seconds: float) -> int:
        """A bound of the store's size `seconds` after its first compaction: L0 and the memtables' WALs,
        L1 twice (a compaction's inputs and outputs), and every byte put since (random keys: little is
        overwritten)."""
        base, memtable = self.max_bytes_for_level_base, self.write_buffer_size
        if self.options_text is not None and (base is None or memtable is None):
            try:  # the OPTIONS file's sizes (the CLI checked it; a bad one fails later, in one line)
                values = parse_options_text(self.options_file or "OPTIONS", self.options_text).values
            except ParamError:
                values = {}
            base = base or values.get("level_base")  # type: ignore[assignment]
            memtable = memtable or values.get("write_buffer_size")  # type: ignore[assignment]
        base, memtable = base or 256 * MIB, memtable or 64 * MIB
        return 2 * base + 8 * memtable + int((self.ingest_mb_s or PUT_MB_S) * 1e6 * seconds)


@dataclass
class StoreResult:
    """What RocksDB did over the run (from its statistics), and the options it ran with."""

    seconds: float
    puts: int
    flush_written: int
    compact_written: int
    compact_read: int
    wal_written: int
    stall_us: int
    version: str
    options: dict[str, object] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        """Plain JSON."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, object]) -> StoreResult:
        """Inverse of `to_json`."""
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})  # type: ignore[arg-type]


def rocksdb_available() -> bool:
    """Whether rocksdict is installed (found without importing it: the CLI and the TUI never load it)."""
    try:
        return importlib.util.find_spec("rocksdict") is not None
    except (ImportError, ValueError):
        return False


def load_rocksdict() -> Any:
    """The rocksdict module, or RocksdbUnavailable in one line."""
    try:
        import rocksdict  # only the store's engine child pays for RocksDB
    except ImportError as err:
        raise RocksdbUnavailable(f"RocksDB for Python (rocksdict) cannot be loaded here: {err}") from None
    return rocksdict


def rocksdb_options(params: StoreParams, rocksdict: Any) -> Any:
    """RocksDB Options: the OPTIONS file (parsed by RocksDB itself) or RocksDB's defaults, then the knobs."""
    if params.options_text is not None:
        os.mkdir("options")
        with open(os.path.join("options", OPTIONS_NAME), "x", encoding="utf-8") as handle:
            handle.write(params.options_text)
        try:
            db_options, families = rocksdict.Options.load_latest("options", rocksdict.Env(), True,
                                                                 rocksdict.Cache(8 * MIB))
        except Exception as err:  # rocksdict raises plain Exception with RocksDB's status text
            name = params.options_file or "the OPTIONS file"
            raise ParamError(f"RocksDB cannot use {name}: {_first_line(err)}") from None
        # RocksDB's loader gives the DBOptions and each column family's apart: the store opens with the
        # default family's (or the first), and the DBOptions that shape its I/O are set on them
        options = families.get("default") or next(iter(families.values()), db_options)
        apply_db_options(options, params.options_text)
    else:
        options = rocksdict.Options(raw_mode=True)
    options.create_if_missing(True)
    options.enable_statistics()
    if params.background_jobs is not None:
        options.set_max_background_jobs(params.background_jobs)
    if params.bytes_per_sync is not None:
        options.set_bytes_per_sync(params.bytes_per_sync)
    if params.rate_limit_mb_s is not None:
        options.set_ratelimiter(int(params.rate_limit_mb_s * 1e6), 100_000, 10)
    if params.direct_io:
        options.set_use_direct_reads(True)
        options.set_use_direct_io_for_flush_and_compaction(True)
    if params.write_buffer_size is not None:
        options.set_write_buffer_size(params.write_buffer_size)
    if params.target_file_size_base is not None:
        options.set_target_file_size_base(params.target_file_size_base)
    if params.max_bytes_for_level_base is not None:
        options.set_max_bytes_for_level_base(params.max_bytes_for_level_base)
    return options


DB_SETTERS = {"bytes_per_sync": "set_bytes_per_sync", "wal_bytes_per_sync": "set_wal_bytes_per_sync",
              "compaction_readahead_size": "set_compaction_readahead_size",
              "writable_file_max_buffer_size": "set_writable_file_max_buffer_size",
              "use_direct_reads": "set_use_direct_reads",
              "use_direct_io_for_flush_and_compaction": "set_use_direct_io_for_flush_and_compaction",
              "advise_random_on_open": "set_advise_random_on_open",
              "max_subcompactions": "set_max_subcompactions", "max_total_wal_size": "set_max_total_wal_size",
              "db_write_buffer_size": "set_db_write_buffer_size", "use_fsync": "set_use_fsync"}
"""The [DBOptions] that shape a store's I/O, and rocksdict's setter for each."""


def apply_db_options(options: Any, text: str) -> None:
    """Set the OPTIONS text's DBOptions (DB_SETTERS, and the background jobs as RocksDB derives them)."""
    found = parse_options_text("OPTIONS", text)
    options.set_max_background_jobs(int(found.values.get("jobs", 2)))  # type: ignore[call-overload]
    for name, setter in DB_SETTERS.items():
        raw = found.db.get(name)
        if raw is None:
            continue
        value = _value(raw)
        if isinstance(value, (bool, int)):
            getattr(options, setter)(value)


def statistics(options: Any) -> dict[str, int]:
    """The counters this workload reports, from RocksDB's statistics dump."""
    found = {STATS[name]: int(value) for name, value in _STAT_LINE.findall(options.get_statistics() or "")
             if name in STATS}
    return {key: found.get(key, 0) for key in STATS.values()}


def effective_options() -> tuple[str, dict[str, object]]:
    """RocksDB's version and the options in force that shape its I/O (from the OPTIONS file it wrote)."""
    wanted = {"max_background_jobs", "max_background_compactions", "max_background_flushes",
              "bytes_per_sync", "wal_bytes_per_sync", "use_direct_reads",
              "use_direct_io_for_flush_and_compaction", "compaction_readahead_size", "write_buffer_size",
              "max_write_buffer_number", "target_file_size_base", "max_bytes_for_level_base",
              "level0_file_num_compaction_trigger", "level0_stop_writes_trigger", "compression",
              "compaction_style"}
    version, found = "", {}
    names = sorted(n for n in os.listdir("db") if n.startswith("OPTIONS-"))
    if names:
        with open(os.path.join("db", names[-1]), encoding="utf-8", errors="replace") as handle:
            section = ""
            for line in handle:
                text = line.strip()
                if text.startswith("["):
                    section = text
                elif "=" in text and (section in ("[DBOptions]", "[Version]")
                                      or section == '[CFOptions "default"]'):
                    name, _, value = text.partition("=")
                    if name == "rocksdb_version":
                        version = value
                    elif name in wanted:
                        found[name] = _value(value)
    return version, found


def _first_line(err: BaseException) -> str:
    """RocksDB's status text, one line, bounded."""
    return (str(err).strip().splitlines() or [type(err).__name__])[0][:200]


def _value(text: str) -> object:
    """An OPTIONS value as JSON: integers and booleans as such, the rest as RocksDB wrote it."""
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        return text[:80]


class Store:
    """The open store, its key/value source and its pace."""

    def __init__(self, params: StoreParams, ctx: EngineContext) -> None:
        self.rocksdict = load_rocksdict()
        self.params, self.ctx = params, ctx
        self.options = rocksdb_options(params, self.rocksdict)
        try:
            self.db = self.rocksdict.Rdict("db", self.options)
        except Exception as err:  # RocksDB's status text, e.g. O_DIRECT refused by the filesystem
            raise TargetError(f"RocksDB cannot open a store here: {_first_line(err)}") from None
        self.keys = random.Random(1)
        self.values = os.urandom(MIB + VALUE_BYTES)
        self.offset = 0

    def _put(self) -> None:
        self.offset = (self.offset + VALUE_BYTES + 7) % MIB
        self.db.put(self.keys.getrandbits(8 * KEY_BYTES).to_bytes(KEY_BYTES, "big"),
                    self.values[self.offset:self.offset + VALUE_BYTES])

    def fill_until_compacting(self) -> None:
        """Batched puts until RocksDB has finished its first compaction (the store is in steady state)."""
        try:
            self._fill()
        except (Stopped, ParamError):
            raise
        except Exception as err:
            raise TargetError(f"RocksDB stopped writing: {_first_line(err)}") from None

    def _fill(self) -> None:
        deadline = time.monotonic() + FIRST_COMPACTION_S
        while not statistics(self.options)["compact_written"]:
            batch = self.rocksdict.WriteBatch(raw_mode=True)
            for _ in range(BATCH):
                self.offset = (self.offset + VALUE_BYTES + 7) % MIB
                batch.put(self.keys.getrandbits(8 * KEY_BYTES).to_bytes(KEY_BYTES, "big"),
                          self.values[self.offset:self.offset + VALUE_BYTES])
            self.db.write(batch)
            self.ctx.watch.check()
            if time.monotonic() > deadline:
                raise ParamError(f"RocksDB ran no compaction within {FIRST_COMPACTION_S:g} s of puts")

    def run(self) -> StoreResult:
        """Put one key at a time (at `ingest_mb_s`, else as fast as one thread puts), streaming intervals;
        a write RocksDB refuses (a full filesystem) is one line."""
        try:
            return self._run()
        except Stopped:
            raise
        except Exception as err:
            raise TargetError(f"RocksDB stopped writing: {_first_line(err)}") from None

    def _run(self) -> StoreResult:
        params, ctx = self.params, self.ctx
        per_put = 1.0 / (params.ingest_mb_s * 1e6 / (KEY_BYTES + VALUE_BYTES)) if params.ingest_mb_s else 0.0
        before = last = statistics(self.options)
        start = previous = time.monotonic()
        end = start + params.duration_s if params.duration_s else None
        puts = 0
        while end is None or time.monotonic() < end:
            for _ in range(PACE_EVERY):
                self._put()
            puts += PACE_EVERY
            now = time.monotonic()
            if per_put and puts * per_put > now - start:
                time.sleep(puts * per_put - (now - start))
                now = time.monotonic()
            if now - previous >= ctx.config.interval_s:
                stats = statistics(self.options)
                written = (stats["flush_written"] + stats["compact_written"]
                           - last["flush_written"] - last["compact_written"])
                emit(Interval(ctx.phase_name, now - start, puts,
                              0.0 if end is None else (now - start) / (end - start), {},
                              stats["compact_read"] - last["compact_read"], written, now - previous,
                              ctx.disks.interval(), ctx.config.job, {}))
                last, previous = stats, now
                if self._told_to_stop():
                    break
        stats = statistics(self.options)
        version, options = effective_options()
        return StoreResult(round(time.monotonic() - start, 4), puts,
                           *(stats[k] - before[k] for k in ("flush_written", "compact_written",
                                                            "compact_read", "wal_written", "stall_us")),
                           version, options)

    def _told_to_stop(self) -> bool:
        """Whether the parent asked the store to finish (a line on stdin); a dead parent raises Stopped."""
        watch = self.ctx.watch
        if os.getppid() != watch.parent:
            raise Stopped("the parent process exited", EXIT_ERROR)
        if not watch.stdin_is_pipe or not select.select([0], [], [], 0)[0]:
            return False
        if not os.read(0, 64):
            raise Stopped("the parent closed the pipe", EXIT_ERROR)
        return True

    def close(self) -> None:
        """Stop the background jobs and close, so the scratch dir can be removed whole."""
        self.db.cancel_all_background(True)
        with contextlib.suppress(Exception):  # "Shutdown in progress": the jobs were cancelled, as asked
            self.db.close()


def describe(params: StoreParams) -> str:
    """One line: which RocksDB options the store runs with."""
    parts = [f"options of {params.options_file}" if params.options_file else "RocksDB's defaults"]
    if params.background_jobs is not None:
        parts.append(f"{params.background_jobs} background jobs")
    if params.bytes_per_sync is not None:
        parts.append(f"bytes_per_sync {params.bytes_per_sync}")
    if params.rate_limit_mb_s is not None:
        parts.append(f"rate limiter {params.rate_limit_mb_s:g} MB/s")
    if params.direct_io:
        parts.append("direct I/O for reads, flushes and compactions")
    parts.append(f"puts at {params.ingest_mb_s:g} MB/s" if params.ingest_mb_s
                 else "puts as fast as one thread")
    return ", ".join(parts)


def run(params: StoreParams, ctx: EngineContext) -> StoreResult:
    """Open the store, fill it until it compacts, then put (until stopped or for `duration_s`)."""
    ctx.phase("prepare", f"real RocksDB ({describe(params)}) filling up to its first compaction")
    store = Store(params, ctx)
    try:
        store.fill_until_compacting()
        if params.ready_barrier:
            ctx.phase("ready", "RocksDB is compacting; waiting for the WAL")
            if not select.select([0], [], [], None)[0] or not os.read(0, 16):
                raise Stopped("the parent closed the pipe", EXIT_ERROR)
        ctx.phase("run", "real RocksDB putting, flushing and compacting")
        return store.run()
    finally:
        store.close()
