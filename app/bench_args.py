"""The options of each `bench KIND` and the workload parameters they make."""

from __future__ import annotations

import argparse
from dataclasses import replace

from diskdoctor.probes.engine.workloads.compaction import CompactionParams
from diskdoctor.probes.engine.workloads.interference import DEFAULT_COMPACTION, PHASE_S, InterferenceParams
from diskdoctor.probes.engine.workloads.randwrite import SYNC_CHOICES, RandwriteParams
from diskdoctor.probes.wal_params import (
    ARRIVALS,
    LEVEL_S,
    PROFILES,
    SYNC_METHODS,
    parse_duration,
    parse_rates,
    parse_size,
    profile_params,
)

from .wal_report import ETCD_THRESHOLD_MS


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dir", required=True, metavar="DIR", help="a directory on the filesystem to test")
    parser.add_argument("--json", action="store_true", help="print the JSON result (schema in README)")
    parser.add_argument("--fio", action="store_true", help="also run the equivalent fio job and compare")
    parser.add_argument("--plot", action="store_true",
                        help="also draw the run's intervals and percentiles as text charts (plotext)")
    parser.add_argument("--no-save", action="store_true",
                        help="do not save the run (runs are saved in $XDG_STATE_HOME/diskdoctor/runs)")


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
    parser.add_argument("--sync", choices=SYNC_METHODS, help="the durable call (default fdatasync)")
    parser.add_argument("--prealloc", action=argparse.BooleanOptionalAction, default=None,
                        help="preallocate the file with fallocate first, as fio and etcd do (default on)")
    if log:
        parser.add_argument("--latency-log", metavar="FILE",
                            help="also write every write/sync latency to FILE (CSV)")


def _compaction_options(parser: argparse.ArgumentParser, defaults: CompactionParams, *,
                        duration: bool) -> None:
    parser.add_argument("--inputs", type=int, metavar="N", default=defaults.inputs,
                        help=f"input files per job (default {defaults.inputs})")
    parser.add_argument("--file-size", metavar="N", default=f"{defaults.file_size >> 20}m",
                        help=f"size of each input and output file (default {defaults.file_size >> 20}m)")
    parser.add_argument("--read-bs", metavar="N", default="2m", help="bytes per read (default 2m)")
    parser.add_argument("--write-bs", metavar="N", default="1m", help="bytes per write (default 1m)")
    parser.add_argument("--bytes-per-sync", metavar="N", default="1m",
                        help="sync_file_range(WRITE) after this many bytes, as RocksDB's bytes_per_sync")
    parser.add_argument("--jobs", type=int, metavar="N", default=defaults.jobs,
                        help=f"parallel compaction processes (default {defaults.jobs})")
    if duration:
        parser.add_argument("--duration", metavar="S",
                            help="keep compacting (the outputs become the next inputs) this long")


def add_kinds(kinds: argparse._SubParsersAction) -> list[argparse.ArgumentParser]:
    """The four `bench` subcommands."""
    wal = kinds.add_parser("wal", help="write + fdatasync latency, as etcd's WAL does",
                           description="Write as etcd's WAL does (framed records in preallocated 64 MB "
                                       "segments, the backend's bbolt commit beside) at open-loop rates "
                                       "(50 and 500 writes/s: etcd's hardware guide), timing each write "
                                       "from when it was due, then in a closed loop as the disk's "
                                       "capacity; judge the worst p99 of the rates against the threshold.")
    _common(wal)
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

    compaction = kinds.add_parser(
        "compaction", help="LSM compaction: sequential reads, 1 MiB writes with range syncs",
        description="Lay out input files (evicted from the page cache), then merge them into new files as "
                    "RocksDB compaction does: 2 MiB reads, 1 MiB writes, sync_file_range every 1 MiB, "
                    "fdatasync per output file. Reports read and write MB/s and per-call latencies.")
    _common(compaction)
    _compaction_options(compaction, CompactionParams(), duration=True)
    compaction.add_argument("--min-write-mb-s", type=float, metavar="MB/S",
                            help="fail when the write throughput stays under this")

    randwrite = kinds.add_parser(
        "randwrite", help="4 KiB random writes at queue depth 1 (gray-failure check)",
        description="Random writes into a preallocated file, O_DIRECT where supported, each followed by "
                    "fdatasync or not; reports p50/p99/p99.9 and the standard deviation.")
    _common(randwrite)
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

    interference = kinds.add_parser(
        "interference", help="the WAL alone, then under compaction: how much worse is its p99?",
        description="Run the WAL benchmark alone, then again while compaction jobs run in other processes "
                    "on the same filesystem; judge the p99 under compaction.")
    _common(interference)
    _wal_options(interference, log=False)
    _compaction_options(interference, DEFAULT_COMPACTION, duration=False)
    interference.add_argument("--threshold-ms", type=float, default=ETCD_THRESHOLD_MS, metavar="MS",
                              help="fail when the p99 sync latency under compaction reaches this (etcd: 10)")
    return [wal, compaction, randwrite, interference]


def _wal_params(args: argparse.Namespace) -> object:
    rate = getattr(args, "rate", None)
    return profile_params(args.profile, bs=parse_size(args.bs, "block size") if args.bs else None,
                          size=parse_size(args.size) if args.size else None,
                          duration_s=parse_duration(args.duration) if args.duration else None,
                          sync=args.sync, prealloc=args.prealloc,
                          rates=parse_rates(rate) if rate is not None else None,
                          arrival=getattr(args, "arrival", None), capacity=getattr(args, "capacity", None))


def _compaction_params(args: argparse.Namespace, base: CompactionParams) -> CompactionParams:
    duration = getattr(args, "duration", None)
    return replace(base, inputs=args.inputs, file_size=parse_size(args.file_size, "file size"),
                   read_bs=parse_size(args.read_bs, "read size"),
                   write_bs=parse_size(args.write_bs, "write size"),
                   bytes_per_sync=parse_size(args.bytes_per_sync, "bytes per sync"), jobs=args.jobs,
                   duration_s=parse_duration(duration) if duration else None)


def params_from_args(args: argparse.Namespace) -> object:
    """The workload parameters the user asked for (ParamError for unusable values)."""
    kind = args.bench_kind
    if kind == "wal":
        return _wal_params(args)
    if kind == "compaction":
        return _compaction_params(args, CompactionParams())
    if kind == "randwrite":
        return RandwriteParams(bs=parse_size(args.bs, "block size"), size=parse_size(args.size),
                               duration_s=None if args.writes else
                               (parse_duration(args.duration) if args.duration else 30.0),
                               writes=args.writes, sync=args.sync, direct=args.direct)
    wal = _wal_params(args)
    if not args.size and not args.duration:  # each phase runs 20 s, whatever the disk manages
        wal = replace(wal, duration_s=PHASE_S)  # type: ignore[type-var]
    return InterferenceParams(wal, _compaction_params(args, DEFAULT_COMPACTION))  # type: ignore[arg-type]
