"""Check a RocksDB `OPTIONS-NNNNNN` file (the INI file every RocksDB since 4.3 writes into its data directory)
before `bench interference --rocksdb-options` hands its text to real RocksDB, and read what it says.

This runs in the CLI (RocksDB itself is loaded only in the store's engine child), so a file that is not an
OPTIONS file is one line and exit 2 before anything is written; RocksDB's own parser then loads the text.

The format (RocksDB's examples/rocksdb_option_file_example.ini): a [Version] section with rocksdb_version
and options_file_version, one [DBOptions], one or more [CFOptions "name"] and [TableOptions/... "name"];
statements `name=value`, `#` comments. Only the options that shape background I/O are read back (from
DBOptions and the "default" column family, or the first one), to name them in the record. The rate limiter
is an object, never written to the file, so it stays a command-line option.
"""

from __future__ import annotations

import configparser
import os
import stat
from dataclasses import dataclass, field

from .wal_params import ParamError

MAX_BYTES = 4 << 20
"""OPTIONS files are tens of KiB; anything larger is not one."""
_TRUE, _FALSE = ("true", "1"), ("false", "0")

DB_FIELDS = {
    "max_background_jobs": "jobs", "bytes_per_sync": "bytes_per_sync",
    "wal_bytes_per_sync": "wal_bytes_per_sync", "strict_bytes_per_sync": "strict_bytes_per_sync",
    "compaction_readahead_size": "read_bs", "writable_file_max_buffer_size": "write_bs",
    "use_direct_reads": "direct_reads", "use_direct_io_for_flush_and_compaction": "direct_writes",
    "advise_random_on_open": "advise_random",
}
CF_FIELDS = {
    "write_buffer_size": "write_buffer_size", "max_write_buffer_number": "max_write_buffers",
    "target_file_size_base": "file_size", "max_bytes_for_level_base": "level_base",
    "max_bytes_for_level_multiplier": "level_multiplier",
    "level0_file_num_compaction_trigger": "level0_trigger", "level0_stop_writes_trigger": "level0_stop",
}
BOOL_FIELDS = frozenset({"strict_bytes_per_sync", "direct_reads", "direct_writes", "advise_random"})
FLOAT_FIELDS = frozenset({"level_multiplier"})
BLOCK = 4096
DEFAULT_BLOCK_SIZE = 4096
"""BlockBasedTable block_size default: a compaction reads one block at a time without readahead."""


class RocksdbOptionsError(ParamError):
    """The file is not a usable RocksDB OPTIONS file; the message is one line naming it."""


@dataclass(frozen=True)
class RocksdbOptions:
    """What the file says about background I/O, its text, and what the store does not mirror."""

    path: str
    version: str
    values: dict[str, object]
    column_family: str
    notes: list[str] = field(default_factory=list)
    text: str = ""
    db: dict[str, str] = field(default_factory=dict)
    """Every [DBOptions] statement as written."""


def _read_text(path: str) -> str:
    """The file's text: a regular file, at most MAX_BYTES, UTF-8; never follows a link at the last step."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError as err:
        raise RocksdbOptionsError(f"cannot read RocksDB options file {path}: {err.strerror}") from err
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise RocksdbOptionsError(f"{path} is not a RocksDB OPTIONS file (not a regular file)")
        if info.st_size > MAX_BYTES:
            raise RocksdbOptionsError(f"{path} is not a RocksDB OPTIONS file ({info.st_size:,} bytes; "
                                      f"they are far under {MAX_BYTES >> 20} MiB)")
        data = os.read(fd, MAX_BYTES + 1)
    except OSError as err:
        raise RocksdbOptionsError(f"cannot read RocksDB options file {path}: {err.strerror}") from err
    finally:
        os.close(fd)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RocksdbOptionsError(f"{path} is not a RocksDB OPTIONS file (not text)") from None


def _parser(path: str, text: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(delimiters=("=",), comment_prefixes=("#",),
                                       inline_comment_prefixes=("#",), interpolation=None, strict=False,
                                       default_section="\x00none")
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    try:
        parser.read_string(text, source=path)
    except configparser.Error as err:
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise RocksdbOptionsError(f"{path} is not a RocksDB OPTIONS file ({first})") from None
    return parser


def _number(path: str, name: str, raw: str, target: str) -> object:
    text = raw.strip()
    if target in BOOL_FIELDS:
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
    else:
        try:
            value = float(text) if target in FLOAT_FIELDS else int(text)
        except ValueError:
            pass
        else:
            if value >= 0 or name == "max_background_jobs":
                return value
    raise RocksdbOptionsError(f"{path}: {name}={text[:40]!r} is not a value RocksDB writes for it")


def parse_options_text(path: str, text: str) -> RocksdbOptions:
    """Parse OPTIONS text (`path` only names it in messages and the record)."""
    parser = _parser(path, text)
    if not parser.has_section("Version") or not parser.has_option("Version", "rocksdb_version"):
        raise RocksdbOptionsError(f"{path} is not a RocksDB OPTIONS file (no [Version] section with "
                                  "rocksdb_version)")
    if not parser.has_section("DBOptions"):
        raise RocksdbOptionsError(f"{path} is not a RocksDB OPTIONS file (no [DBOptions] section)")
    families = [s for s in parser.sections() if s.startswith("CFOptions")]
    if not families:
        raise RocksdbOptionsError(f"{path} is not a RocksDB OPTIONS file (no [CFOptions \"...\"] section)")
    family = 'CFOptions "default"' if 'CFOptions "default"' in families else families[0]
    name = family[len("CFOptions"):].strip().strip('"')
    values: dict[str, object] = {}
    for section, fields in (("DBOptions", DB_FIELDS), (family, CF_FIELDS)):
        for option, target in fields.items():
            if parser.has_option(section, option):
                values[target] = _number(path, option, parser.get(section, option), target)
    notes = _normalise(parser, family, values)
    if parser.get(family, "disable_auto_compactions", fallback="false").strip() == "true":
        raise RocksdbOptionsError(f"{path}: disable_auto_compactions is true, so the store would never "
                                  "compact beside the WAL")
    if len(families) > 1:
        notes.append(f"{len(families)} column families in the file; the store writes only {name!r}")
    version = parser.get("Version", "rocksdb_version").strip()[:20]
    return RocksdbOptions(path, version, values, name, notes, text, dict(parser["DBOptions"]))


def _int_or(text: str | None, fallback: int) -> int:
    try:
        return int(str(text).strip())
    except ValueError:
        return fallback


def _normalise(parser: configparser.ConfigParser, family: str, values: dict[str, object]) -> list[str]:
    """Turn RocksDB's conventions (0 = unset, -1 = derived) into plain values and say what is not mirrored."""
    notes = []
    db = parser["DBOptions"]
    jobs = values.get("jobs")
    extra = [_int_or(db.get(k, "-1"), -1) for k in ("max_background_compactions", "max_background_flushes")]
    if any(v > 0 for v in extra):  # RocksDB: either set means jobs = compactions + flushes (-1 counts 1)
        values["jobs"] = sum(max(v, 1) for v in extra)
    elif not isinstance(jobs, int) or jobs < 1:
        values.pop("jobs", None)
    values["jobs"] = min(int(values.get("jobs", 2)), 16)  # type: ignore[call-overload]
    if values.get("read_bs") == 0:
        table = f"TableOptions/BlockBasedTable {family[len('CFOptions'):].strip()}"
        block = parser.get(table, "block_size", fallback=str(DEFAULT_BLOCK_SIZE)).strip()
        values["read_bs"] = int(block) if block.isdigit() and int(block) > 0 else DEFAULT_BLOCK_SIZE
    for name in ("read_bs", "write_bs", "file_size", "write_buffer_size", "level_base", "bytes_per_sync",
                 "wal_bytes_per_sync"):
        value = values.get(name)
        if isinstance(value, int) and value % BLOCK:
            rounded = max(BLOCK, round(value / BLOCK) * BLOCK) if value else 0
            values[name] = rounded
    values["read_bs"] = min(int(values.get("read_bs", 2 << 20)), 256 << 20)  # type: ignore[call-overload]
    values["write_bs"] = min(int(values.get("write_bs", 1 << 20)), 256 << 20)  # type: ignore[call-overload]
    compression = parser.get(family, "compression", fallback="kNoCompression").strip()
    if compression not in ("kNoCompression", ""):
        notes.append(f"compression {compression}: the store's values are random bytes, which do not "
                     "compress")
    return notes


def load_options(path: str) -> RocksdbOptions:
    """Parse the OPTIONS file at `path` (RocksdbOptionsError, one line, for anything else)."""
    return parse_options_text(path, _read_text(path))
