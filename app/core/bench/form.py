"""Each workload on the Benchmark screen's form: the values it shows for a menu choice, the parameters the
typed values make, and which latency the live chart follows (the kinds table hands them to the TUI)."""

from __future__ import annotations

from dataclasses import replace

from diskdoctor.probes.engine.workloads.compaction import CompactionParams
from diskdoctor.probes.engine.workloads.interference import (
    DEFAULT_COMPACTION,
    INTERFERENCE_RATE,
    PHASE_S,
    InterferenceParams,
)
from diskdoctor.probes.engine.workloads.randwrite import SYNC_CHOICES, RandwriteParams
from diskdoctor.probes.engine.workloads.rocksdb_store import StoreParams, rocksdb_available
from diskdoctor.probes.wal_params import PROFILES, SYNC_LABELS, SYNC_METHODS, ParamError, WalParams

from .kind import FormDefaults, FormValues

COMPACTION_SYNC = "range+fdatasync"
INTERFERENCE_SERIES = (("p99 alone", "p99 alone", "chart--p90"),
                       ("p99 under compaction", "p99 under compaction", "chart--p99"))
"""The interference chart's two lines: the WAL's p99 alone, then under compaction."""


def wal_defaults(choice: str) -> FormDefaults:
    """A WAL profile keeps its own figures (custom starts from etcd's)."""
    wal = PROFILES.get(choice, PROFILES["etcd"])
    return FormDefaults(str(wal.bs), f"{wal.size >> 20}m", "", SYNC_METHODS, wal.sync, "prealloc", "2",
                        tooltips=_WAL_TIPS)


def interference_defaults(choice: str) -> FormDefaults:
    """The etcd WAL, each phase 20 s, two compaction jobs beside."""
    wal = PROFILES.get(choice, PROFILES["etcd"])
    return FormDefaults(str(wal.bs), f"{wal.size >> 20}m", f"{PHASE_S:g}", SYNC_METHODS, wal.sync, "jobs",
                        "2", tooltips=_WAL_TIPS)


_WAL_TIPS = {"size": "total bytes of each WAL run (or the file a timed run rewrites)",
             "bs": "bytes per write", "duration": "seconds of each WAL run"}


def compaction_defaults(_choice: str) -> FormDefaults:
    """64 MiB inputs, 1 MiB writes, one job."""
    return FormDefaults("1m", "64m", "", (COMPACTION_SYNC,), COMPACTION_SYNC, "jobs", "1", False,
                        {"size": "size of each of the 4 input and output files", "bs": "1 MiB writes",
                         "duration": "seconds: keep compacting (outputs become inputs)"})


def randwrite_defaults(_choice: str) -> FormDefaults:
    """4 KiB writes into a 256 MiB file for 30 s."""
    return FormDefaults("4k", "256m", "30", SYNC_CHOICES, "fdatasync", "direct",
                        tooltips={"size": "file size; writes go to random blocks in it",
                                  "bs": "bytes per write", "duration": "seconds"})


def _jobs(values: FormValues) -> int:
    try:
        return int(values.jobs)
    except ValueError:
        raise ParamError(f"jobs {values.jobs!r} is not a whole number") from None


def wal_params(_values: FormValues, wal_params: WalParams | None) -> WalParams | None:
    """The WAL run the WAL fields make."""
    return wal_params


def randwrite_params(values: FormValues, _wal: WalParams | None) -> RandwriteParams:
    """Block size, file size, seconds, the sync call and O_DIRECT as typed."""
    return RandwriteParams(bs=values.bs or 4096, size=values.size or 256 << 20,
                           duration_s=values.duration_s or 30.0, sync=values.sync, direct=values.direct)


def compaction_params(values: FormValues, _wal: WalParams | None) -> CompactionParams:
    """File size, jobs and seconds as typed."""
    jobs = _jobs(values)
    return CompactionParams(file_size=values.size or 64 << 20, jobs=jobs, duration_s=values.duration_s)


def interference_params(values: FormValues, wal_params: WalParams | None) -> InterferenceParams:
    """The WAL the WAL fields make, beside real RocksDB with the background jobs typed (the model's
    compaction jobs the same, for where RocksDB cannot load)."""
    jobs = _jobs(values)
    wal = replace(wal_params or PROFILES["etcd"], rates=(INTERFERENCE_RATE,))  # the form has no load row here
    return InterferenceParams(wal, replace(DEFAULT_COMPACTION, jobs=jobs),
                              StoreParams(background_jobs=jobs),
                              "rocksdb" if rocksdb_available() else "model")


def sync_stream(_params: object) -> str:
    """The durable call (wal, interference)."""
    return "sync"


def write_stream(_params: object) -> str:
    """The write itself (compaction)."""
    return "write"


def randwrite_stream(params: object) -> str:
    """fdatasync, or the write when writes are not synced."""
    return "sync" if getattr(params, "sync", "") != "none" else "write"


def wal_label(params: object) -> str:
    """The WAL's durable call (of the WAL beside compaction, for interference)."""
    wal = params.wal if isinstance(params, InterferenceParams) else params
    return SYNC_LABELS[wal.sync]  # type: ignore[union-attr]


def compaction_label(_params: object) -> str:
    """The output writes."""
    return "1 MiB write"


def randwrite_label(params: object) -> str:
    """fdatasync, or the 4k write when writes are not synced."""
    return "fdatasync" if getattr(params, "sync", "") != "none" else "4k write"
