"""The options of each `bench KIND` beyond the common ones, and the workload parameters they make (the kinds
table hands them to the CLI)."""

from __future__ import annotations

import argparse
from dataclasses import replace

from diskdoctor.probes.engine.workloads.compaction import CompactionParams
from diskdoctor.probes.engine.workloads.interference import (
    AGGRESSORS,
    DEFAULT_COMPACTION,
    INTERFERENCE_RATE,
    PHASE_S,
    InterferenceParams,
)
from diskdoctor.probes.engine.workloads.randwrite import SYNC_CHOICES, RandwriteParams
from diskdoctor.probes.engine.workloads.rocksdb_store import StoreParams, rocksdb_available
from diskdoctor.probes.rocksdb_options import load_options
from diskdoctor.probes.wal_params import (
    ARRIVALS,
    LEVEL_S,
    PROFILES,
    SYNC_METHODS,
    ParamError,
    WalParams,
    parse_duration,
    parse_rates,
    parse_size,
    profile_params,
)

from .wal import ETCD_THRESHOLD_MS


def _wal_options(parser: argparse.ArgumentParser, *, log: bool) -> None:
    parser.add_argument("--profile", choices=sorted(PROFILES), default="etcd",
                        help="etcd: 2300-byte entries in etcd's WAL segments with its backend commit "
                             "beside (default); postgres-wal: 8k writes into one 16m file")
    parser.add_argument("--bs", metavar="N", help="bytes per write, e.g. 2300 or 8k")
    amount = parser.add_mutually_exclusive_group()
    amount.add_argument("--size", metavar="N",
                        help="total bytes to write, e.g. 22m (bench wal: in the capacity run)")
    amount.add_argument("--duration", metavar="S",
                        help="run this long instead (e.g. 30s, 2m; interference: 20s per phase by default)")
    parser.add_argument("--segment-size", metavar="N",
                        help="etcd profile: each preallocated WAL segment (default 64m, etcd's own); smaller "
                             "fits a small filesystem")
    parser.add_argument("--sync", choices=SYNC_METHODS, help="the durable call (default fdatasync)")
    parser.add_argument("--prealloc", action=argparse.BooleanOptionalAction, default=None,
                        help="preallocate the file with fallocate first, as fio and etcd do (default on)")
    if log:
        parser.add_argument("--latency-log", metavar="FILE",
                            help="also write every write/sync latency to FILE (CSV)")


def _compaction_options(parser: argparse.ArgumentParser, defaults: CompactionParams, *,
                        duration: bool, store: bool = False) -> None:
    parser.add_argument("--inputs", type=int, metavar="N", default=defaults.inputs,
                        help=f"input files per job (default {defaults.inputs})")
    parser.add_argument("--file-size", metavar="N", default=f"{defaults.file_size >> 20}m",
                        help=f"size of each input and output file (default {defaults.file_size >> 20}m)")
    parser.add_argument("--read-bs", metavar="N", default="2m", help="bytes per read (default 2m)")
    parser.add_argument("--write-bs", metavar="N", default="1m", help="bytes per write (default 1m)")
    if store:
        parser.add_argument("--bytes-per-sync", metavar="N",
                            help="RocksDB's bytes_per_sync: sync_file_range every N bytes of each file "
                                 "(default: the OPTIONS file's, else RocksDB's 0; the model's 1m)")
        parser.add_argument("--background-jobs", "--jobs", dest="jobs", type=int, metavar="N",
                            help="RocksDB's max_background_jobs (default: the OPTIONS file's, else 2); "
                                 "the model's parallel compaction processes")
        return
    parser.add_argument("--bytes-per-sync", metavar="N", default="1m",
                        help="sync_file_range(WRITE) after this many bytes, as RocksDB's bytes_per_sync")
    parser.add_argument("--jobs", type=int, metavar="N", default=defaults.jobs,
                        help=f"parallel compaction processes (default {defaults.jobs})")
    if duration:
        parser.add_argument("--duration", metavar="S",
                            help="keep compacting (the outputs become the next inputs) this long")


def wal_options(wal: argparse.ArgumentParser) -> None:
    """`bench wal`: the WAL's options, its open-loop loads, its latency log and its threshold."""
    _wal_options(wal, log=True)
    wal.add_argument("--rate", metavar="N[,N...]",
                     help="open-loop writes/s, each load its own level (default 50,500: etcd's hardware "
                          f"guide); every write is timed from when it was due; each level runs {LEVEL_S:g} s "
                          "or --duration")
    wal.add_argument("--arrival", choices=ARRIVALS, default=None,
                     help="steady: evenly spaced (default); poisson: independent clients, same mean rate")
    wal.add_argument("--capacity", action=argparse.BooleanOptionalAction, default=None,
                     help="also run the closed loop (the next write the moment the last sync returns) "
                          "as the disk's capacity figure, never the verdict (default on)")
    wal.add_argument("--threshold-ms", type=float, default=ETCD_THRESHOLD_MS, metavar="MS",
                     help="fail when the p99 sync latency reaches this (10: etcd docs; 20: vendor variant)")


def compaction_options(compaction: argparse.ArgumentParser) -> None:
    """`bench compaction`: the compaction's options and its minimum write MB/s."""
    _compaction_options(compaction, CompactionParams(), duration=True)
    compaction.add_argument("--min-write-mb-s", type=float, metavar="MB/S",
                            help="fail when the write throughput stays under this")


def randwrite_options(randwrite: argparse.ArgumentParser) -> None:
    """`bench randwrite`: block size, file size, how long, the sync call, O_DIRECT, the threshold."""
    randwrite.add_argument("--bs", metavar="N", default="4k", help="bytes per write (default 4k)")
    randwrite.add_argument("--size", metavar="N", default="256m", help="file size (default 256m)")
    amount = randwrite.add_mutually_exclusive_group()
    amount.add_argument("--duration", metavar="S", help="run this long (default 30s)")
    amount.add_argument("--writes", type=int, metavar="N", help="make this many writes instead")
    randwrite.add_argument("--sync", choices=SYNC_CHOICES, default="fdatasync",
                           help="fdatasync after each write (default) or none")
    randwrite.add_argument("--direct", action=argparse.BooleanOptionalAction, default=True,
                           help="open with O_DIRECT where the filesystem allows it (default on)")
    randwrite.add_argument("--threshold-ms", type=float, metavar="MS",
                           help="fail when the p99 latency (of fdatasync, or of the write) reaches this")


def interference_options(interference: argparse.ArgumentParser) -> None:
    """`bench interference`: the WAL's options, the compaction's, and the threshold under compaction."""
    _wal_options(interference, log=False)
    interference.add_argument("--rate", metavar="N[,N...]",
                              help=f"the WAL's open-loop writes/s, alone and beside the store (default "
                                   f"{INTERFERENCE_RATE:g}: etcd's heavier hardware-guide load); every write "
                                   "is timed from when it was due")
    interference.add_argument("--arrival", choices=ARRIVALS, default=None,
                              help="steady: evenly spaced (default); poisson: independent clients")
    interference.add_argument("--aggressor", choices=AGGRESSORS,
                              help="rocksdb: real RocksDB puts, flushes and compacts beside the WAL "
                                   "(default, calibrated against db_bench); model: the compaction model's "
                                   "jobs (the default where RocksDB for Python is not installed)")
    interference.add_argument("--rocksdb-options", metavar="FILE",
                              help="run the store with a RocksDB OPTIONS-NNNNNN file (from a store's data "
                                   "directory); the options below override it")
    interference.add_argument("--rate-limit-mb-s", type=float, metavar="MB/S",
                              help="RocksDB's rate limiter on flush and compaction writes")
    interference.add_argument("--direct-io", action="store_true", default=False,
                              help="use_direct_reads and use_direct_io_for_flush_and_compaction (O_DIRECT)")
    interference.add_argument("--ingest-mb-s", type=float, metavar="MB/S",
                              help="the store's put rate (default: as fast as one thread puts, as "
                                   "db_bench fillrandom)")
    _compaction_options(interference, DEFAULT_COMPACTION, duration=False, store=True)
    interference.add_argument("--threshold-ms", type=float, default=ETCD_THRESHOLD_MS, metavar="MS",
                              help="fail when the p99 sync latency under compaction reaches this (etcd: 10)")


def wal_params(args: argparse.Namespace) -> WalParams:
    """`bench wal`'s parameters: a profile and what the options change in it (rates, arrivals too)."""
    rate = getattr(args, "rate", None)
    return profile_params(args.profile, bs=parse_size(args.bs, "block size") if args.bs else None,
                          size=parse_size(args.size) if args.size else None,
                          duration_s=parse_duration(args.duration) if args.duration else None,
                          sync=args.sync, prealloc=args.prealloc,
                          segment_bytes=parse_size(args.segment_size, "segment size") if args.segment_size
                          else None,
                          rates=parse_rates(rate) if rate is not None else None,
                          arrival=getattr(args, "arrival", None), capacity=getattr(args, "capacity", None))


def _compaction_params(args: argparse.Namespace, base: CompactionParams, *,
                       store: bool = False) -> CompactionParams:
    """The model's parameters; beside a real store, bytes_per_sync 0 (RocksDB's "off") leaves the model's."""
    duration = getattr(args, "duration", None)
    per_sync = _bytes_per_sync(args)
    if per_sync is None or (store and per_sync == 0):
        per_sync = base.bytes_per_sync
    return replace(base, inputs=args.inputs, file_size=parse_size(args.file_size, "file size"),
                   read_bs=parse_size(args.read_bs, "read size"),
                   write_bs=parse_size(args.write_bs, "write size"),
                   bytes_per_sync=per_sync, jobs=base.jobs if args.jobs is None else args.jobs,
                   duration_s=parse_duration(duration) if duration else None)


def _bytes_per_sync(args: argparse.Namespace) -> int | None:
    """--bytes-per-sync in bytes (0 allowed: RocksDB's "off"), None when not given."""
    text = args.bytes_per_sync
    if text is None:
        return None
    return 0 if text.strip() == "0" else parse_size(text, "bytes per sync")


def aggressor(args: argparse.Namespace) -> str:
    """What runs beside the WAL: real RocksDB unless asked for the model or rocksdict is not installed."""
    if args.aggressor == "model":
        if args.rocksdb_options:
            raise ParamError("--rocksdb-options runs real RocksDB; it cannot go with --aggressor model")
        return "model"
    if rocksdb_available():
        return "rocksdb"
    if args.aggressor or args.rocksdb_options:
        raise ParamError("real RocksDB needs RocksDB for Python (pip install rocksdict), which is not "
                         "installed here; --aggressor model runs the compaction model instead")
    return "model"


def store_params(args: argparse.Namespace) -> StoreParams:
    """The real store's options: the OPTIONS file (checked here, one line if it is not one), the knobs."""
    path, text = args.rocksdb_options, None
    if path:
        text = load_options(path).text
    return StoreParams(background_jobs=args.jobs, bytes_per_sync=_bytes_per_sync(args),
                       rate_limit_mb_s=args.rate_limit_mb_s, direct_io=args.direct_io,
                       ingest_mb_s=args.ingest_mb_s, options_file=path, options_text=text)


def compaction_params(args: argparse.Namespace) -> CompactionParams:
    """`bench compaction`'s parameters."""
    return _compaction_params(args, CompactionParams())


def randwrite_params(args: argparse.Namespace) -> RandwriteParams:
    """`bench randwrite`'s parameters (30 s unless a duration or a number of writes is given)."""
    return RandwriteParams(bs=parse_size(args.bs, "block size"), size=parse_size(args.size),
                           duration_s=None if args.writes else
                           (parse_duration(args.duration) if args.duration else 30.0),
                           writes=args.writes, sync=args.sync, direct=args.direct)


def interference_params(args: argparse.Namespace) -> InterferenceParams:
    """`bench interference`'s parameters: each phase runs 20 s unless a size or a duration is given."""
    wal = wal_params(args)
    if args.rate is None:  # one load beside the store: etcd's heavier one
        wal = replace(wal, rates=(INTERFERENCE_RATE,))
    if not args.size and not args.duration:  # each phase runs 20 s, whatever the disk manages
        wal = replace(wal, duration_s=PHASE_S)
    model = _compaction_params(args, DEFAULT_COMPACTION, store=True)
    return InterferenceParams(wal, model, store_params(args), aggressor(args))
