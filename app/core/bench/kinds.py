"""The kinds table: every benchmark workload, one row each, with every hook the app calls for it.

Adding a workload is one engine module (probes/engine/workloads/) and one row here; nothing else in the
app branches on a workload's name."""

from __future__ import annotations

from typing import Any

from diskdoctor.probes import fio_jobs, fio_run
from diskdoctor.probes.engine.workloads import WORKLOADS
from diskdoctor.probes.fio_jobs import FioThroughput
from diskdoctor.probes.fio_json import FioSyncStats

from . import compaction, form, interference, options, randwrite, run_metrics, wal, watch
from .kind import CliOptions, Form, WorkloadKind

CAVEAT_RULES = ("BENCH-NOT-DURABLE", "BENCH-HOST-BUSY")
"""The caveat findings (core/bench/caveat_rules.py) the judged kinds list after their own verdict rules."""


def _fio_pair(data: dict[str, Any]) -> tuple[FioSyncStats, FioSyncStats]:
    return FioSyncStats.from_json(data["alone"]), FioSyncStats.from_json(data["under_compaction"])


KINDS: dict[str, WorkloadKind] = {kind.name: kind for kind in (
    WorkloadKind(
        WORKLOADS["wal"], "WAL write + sync latency", wal.run_document, wal.run_verdict, wal.run_summary,
        run_metrics.wal_metrics, run_metrics.wal_curves, run_metrics.wal_params_text, FioSyncStats.from_json,
        CliOptions("write + fdatasync latency, as etcd's WAL does",
                   "Write as etcd's WAL does (framed records in preallocated 64 MB segments, the backend's "
                   "bbolt commit beside) at open-loop rates (50 and 500 writes/s: etcd's hardware guide), "
                   "timing each write from when it was due, then in a closed loop as the disk's capacity; "
                   "judge each rate's p99 by its 95% interval against the threshold: the run FAILs if "
                   "any rate does, else is INCONCLUSIVE if any rate is, else PASSes, citing that rate "
                   "(the highest p99 among them).",
                   options.wal_options, options.wal_params),
        Form((("etcd WAL", "etcd"), ("postgres WAL", "postgres-wal"), ("custom WAL", "custom")),
             form.wal_defaults, form.wal_params, form.sync_stream, form.wal_label, can_lengthen=True,
             uses_wal_fields=True),
        details=wal.run_details, rules=("ETCD-FSYNC-P99", *CAVEAT_RULES),
        headline="ETCD-FSYNC-P99", fio=fio_run.run_fio),
    WorkloadKind(
        WORKLOADS["compaction"], "compaction throughput", compaction.document, compaction.verdict,
        compaction.summary_lines, run_metrics.compaction_metrics, run_metrics.compaction_curves,
        run_metrics.plain_params_text, FioThroughput.from_json,
        CliOptions("LSM compaction: sequential reads, 1 MiB writes with range syncs",
                   "Lay out input files (evicted from the page cache), then merge them into new files as "
                   "RocksDB compaction does: 2 MiB reads, 1 MiB writes, sync_file_range every 1 MiB, "
                   "fdatasync per output file. Reports read and write MB/s and per-call latencies.",
                   options.compaction_options, options.compaction_params, threshold_option="min_write_mb_s"),
        Form((("compaction", "compaction"),), form.compaction_defaults, form.compaction_params,
             form.write_stream, form.compaction_label, progress_unit="reads", throughput=True),
        threshold_unit="MB/s", fio=fio_jobs.run_compaction_fio),
    WorkloadKind(
        WORKLOADS["randwrite"], "random write latency", randwrite.document, randwrite.verdict,
        randwrite.summary_lines, run_metrics.randwrite_metrics, run_metrics.randwrite_curves,
        run_metrics.plain_params_text, FioSyncStats.from_json,
        CliOptions("4 KiB random writes at queue depth 1 (gray-failure check)",
                   "Random writes into a preallocated file, O_DIRECT where supported, each followed by "
                   "fdatasync or not; reports p50/p99/p99.9 and the standard deviation.",
                   options.randwrite_options, options.randwrite_params),
        Form((("randwrite 4k", "randwrite"),), form.randwrite_defaults, form.randwrite_params,
             form.randwrite_stream, form.randwrite_label, can_lengthen=True, shows_write=False),
        fio=fio_jobs.run_randwrite_fio),
    WorkloadKind(
        WORKLOADS["interference"], "WAL latency under compaction", interference.document,
        interference.verdict, interference.summary_lines, run_metrics.interference_metrics,
        run_metrics.interference_curves, run_metrics.interference_params_text, _fio_pair,
        CliOptions("the WAL alone, then under compaction: how much worse is its p99?",
                   "Run the WAL benchmark alone, then again while real RocksDB (its defaults, or a store's "
                   "OPTIONS file) puts, flushes and compacts in another process on the same filesystem; "
                   "judge the p99 under compaction.",
                   options.interference_options, options.interference_params),
        Form((("WAL under compaction", "interference"),), form.interference_defaults,
             form.interference_params, form.sync_stream, form.wal_label, uses_wal_fields=True,
             series=form.INTERFERENCE_SERIES, phased=True),
        details=interference.detail_lines,
        rules=("ETCD-FSYNC-P99", "WAL-COMPACTION-P99", *CAVEAT_RULES),
        headline="WAL-COMPACTION-P99", fio=fio_jobs.run_interference_fio),
    WorkloadKind(
        watch.ENGINE, "sync latency of a running database", watch.document, watch.verdict,
        watch.summary_lines, watch.metrics, watch.curves, watch.params_text, lambda _data: None,
        CliOptions("traced calls of a running process (diskdoctor watch)", "Recorded by diskdoctor watch.",
                   lambda _parser: None, lambda _args: None),
        Form((), form.wal_defaults, lambda _values, _wal: None, lambda _params: "sync",
             lambda _params: "sync"),
        benchmark=False),
)}
"""Every workload, in the order the CLI, the form and the docs list them."""


def kind_for(name: str) -> WorkloadKind | None:
    """The kind called `name`, or None when this version of diskdoctor does not know it."""
    return KINDS.get(name)


def kind_of(name: str) -> WorkloadKind:
    """The kind called `name` (KeyError for an unknown one: a bug, the engine refused it first)."""
    return KINDS[name]


def kind_of_params(params: object) -> WorkloadKind:
    """The kind whose parameters `params` are."""
    return next(kind for kind in KINDS.values() if type(params) is kind.engine.params_type)


def judged_kinds() -> tuple[str, ...]:
    """The kinds the advisor's bench rules judge."""
    return tuple(name for name, kind in KINDS.items() if kind.judged)


def register(kind: WorkloadKind) -> None:
    """Add a kind to the table (and its engine workload to the engine's registry): a plug-in workload."""
    WORKLOADS[kind.name] = kind.engine
    KINDS[kind.name] = kind
