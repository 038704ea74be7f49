"""Each workload as saved runs see it: which figures are compared and charted, and its parameters as a
person reads them (labelled, sizes in KiB/MiB, durations in s, no internals: `runs show`, `runs compare`,
the Runs screen and the reports)."""

from __future__ import annotations

from dataclasses import replace

from diskdoctor.app.base.formatting import binary_size
from diskdoctor.probes.engine.sections import section_key
from diskdoctor.probes.engine.workloads.compaction import STREAM_LABELS
from diskdoctor.probes.engine.workloads.rocksdb_store import describe as describe_store
from diskdoctor.probes.engine.workloads.wal import WalResult
from diskdoctor.probes.latency_histogram import LatencyHistogram
from diskdoctor.probes.wal_params import SYNC_LABELS

from .finished import FinishedRun as BenchRecord
from .kind import LatencyCurve, Metric, Samples
from .profile_name import profile_title
from .wal import figure_label, summary_params_text

LABELS = {"bs": "bs", "size": "size", "duration_s": "duration", "sync": "sync", "prealloc": "preallocated",
          "inputs": "inputs", "file_size": "file size", "read_bs": "read bs", "write_bs": "write bs",
          "bytes_per_sync": "bytes per sync", "jobs": "jobs", "writes": "writes", "direct": "O_DIRECT",
          "profile": "profile", "rates": "loads", "arrival": "arrivals", "capacity": "capacity run",
          "level_s": "time per load", "format": "file layout", "commit_ms": "backend commit every",
          "segment_bytes": "WAL segment size"}
"""Field name → label; a field not listed shows with its underscores as spaces."""
SIZE_FIELDS = frozenset({"bs", "size", "file_size", "read_bs", "write_bs", "bytes_per_sync"})
SECONDS_FIELDS = frozenset({"duration_s", "level_s"})
HIDDEN_FIELDS = frozenset({"ready_barrier", "seed", "pids"})
"""Engine plumbing saved with the parameters but meaningless to a person (the seed only repeats Poisson
arrivals exactly), or different every time (the pids of a watched database: two watches of one etcd are
like for like)."""
LAYOUTS = {"etcd": "etcd's WAL segments", "raw": "one plain file"}
MISSING = "—"


def param_value(name: str, value: object) -> str:
    """One field's value: "2.25 KiB", "30 s", "yes", "4", "fdatasync", "50 and 500 writes/s", "—" unset."""
    if value is None:
        return MISSING
    if isinstance(value, bool):
        return "yes" if value else "no"
    if name in SIZE_FIELDS and isinstance(value, int):
        return binary_size(value)
    if name in SECONDS_FIELDS and isinstance(value, (int, float)):
        return f"{value:g} s"
    if name == "rates" and isinstance(value, (list, tuple)):
        return " and ".join(f"{rate:,g}" for rate in value) + " writes/s" if value else "none (closed loop)"
    if name == "commit_ms" and isinstance(value, (int, float)):
        return f"{value:g} ms" if value else "none"
    if name == "segment_bytes" and isinstance(value, int):
        return f"{value / 1e6:,g} MB" if value % 1_000_000 == 0 else binary_size(value)  # etcd's 64 MB
    if name == "format" and isinstance(value, str):
        return LAYOUTS.get(value, value)
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
        if name == "level_s" and params.get("duration_s"):
            continue  # --duration sets every load's time: the duration row says it
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


PERCENTILES = (("p50", 50.0, False), ("p90", 90.0, False), ("p99", 99.0, True), ("p99.9", 99.9, False))


def _ms(value: float | None) -> float | None:
    return None if value is None else value / 1e6


def latency_metrics(prefix: str, label: str, histogram: LatencyHistogram, *,
                    judged: bool = True, sections: SectionsOf = None) -> list[Metric]:
    """p50/p90/p99/p99.9/max of one call's latency in ms; the p99 is judged, with its samples (and the
    run's `sections`: None for a run saved before they were kept)."""
    metrics = [Metric(f"{prefix}_{name}", f"{name} {label}", "ms", _ms(histogram.percentile(percent)),
                      judged=judged and is_judged,
                      samples=Samples(histogram, percent, sections) if judged and is_judged else None)
               for name, percent, is_judged in PERCENTILES]
    metrics.append(Metric(f"{prefix}_max", f"max {label}", "ms", _ms(histogram.maximum)))
    return metrics


def wal_metrics(record: BenchRecord) -> list[Metric]:
    """`bench wal`: the durable call's percentiles, ops/s and the write p99."""
    result, label = record.result, SYNC_LABELS[record.params.sync]
    at, suffix = "", ""
    if result.model == "open loop":  # the judged load's figures, timed from when each write was due
        label = f"{label} from due at {result.load['text']}"
        # the load is part of every key: runs compare never matches 50/s figures against 500/s ones
        at, suffix = f" at {result.load['text']}", section_key("", "", result.load).removeprefix("/")
    elif result.levels:  # the capacity of a run with loads: each write and its sync, not the call alone
        label = figure_label(label, None)
    metrics = [*latency_metrics("sync", label, result.sync, sections=_wal_sections(record, result)),
               Metric("ops_per_s", f"ops/s{at}", "ops/s", result.ops_per_s, lower_is_better=False,
                      judged=True),
               Metric("write_p99", f"p99 write(){at}", "ms", _ms(result.write.percentile(99.0)))]
    return [replace(metric, key=metric.key + suffix) for metric in metrics]


SectionsOf = list[list[LatencyHistogram]] | None


def _wal_sections(record: BenchRecord, result: WalResult, phase: str = "run") -> SectionsOf:
    """The sections of a WAL result's headline figure (its judged level), [] when the run kept sections
    but none for it, None for a run saved before sections were kept."""
    sections = record.sections
    head = result.headline
    if sections is None:
        return None
    key = section_key(phase, "sync", head.load) if head is not None and head.rate is not None else None
    return sections.get(key or f"{phase}/sync", [])


def wal_curves(record: BenchRecord) -> list[LatencyCurve]:
    """The durable call, then write()."""
    return [LatencyCurve(SYNC_LABELS[record.params.sync], record.result.sync),
            LatencyCurve("write()", record.result.write)]


def wal_params_text(record: BenchRecord) -> str:
    """The profile and its parameters."""
    return f"{profile_title(record.params)}: {summary_params_text(record.params.to_json())}"


def _randwrite_judged(record: BenchRecord) -> tuple[str, LatencyHistogram]:
    if record.params.sync != "none":
        return record.params.sync, record.result.sync
    return "write()", record.result.write


def randwrite_metrics(record: BenchRecord) -> list[Metric]:
    """`bench randwrite`: the judged call's latency and ops/s."""
    label, histogram = _randwrite_judged(record)
    stream = "write" if histogram is record.result.write else "sync"  # runs compare matches by key
    sections = None if record.sections is None else record.sections.get(f"run/{stream}", [])
    return [*latency_metrics(stream, label, histogram, sections=sections),
            Metric("ops_per_s", "ops/s", "ops/s", record.result.ops_per_s, lower_is_better=False,
                   judged=True)]


def randwrite_curves(record: BenchRecord) -> list[LatencyCurve]:
    """The judged call, then write() when the judged call is the sync."""
    label, histogram = _randwrite_judged(record)
    curves = [LatencyCurve(label, histogram)]
    if histogram is not record.result.write:
        curves.append(LatencyCurve("write()", record.result.write))
    return curves


def plain_params_text(record: BenchRecord) -> str:
    """Every parameter of the run as one line."""
    return params_line(record.params.to_json())


def compaction_metrics(record: BenchRecord) -> list[Metric]:
    """`bench compaction`: MB/s read and written (judged), then each call's p50/p99/max."""
    result = record.result
    calls = [metric for name, label, histogram in _compaction_streams(record)
             for metric in latency_metrics(name, label, histogram, judged=False)
             if metric.key.endswith(("_p50", "_p99", "_max"))]
    return [Metric("write_mb_s", "write MB/s", "MB/s", result.write_mb_s, lower_is_better=False,
                   judged=True),
            Metric("read_mb_s", "read MB/s", "MB/s", result.read_mb_s, lower_is_better=False,
                   judged=True), *calls]


def _compaction_streams(record: BenchRecord) -> list[tuple[str, str, LatencyHistogram]]:
    """The per-call latencies `bench compaction` printed: file sync first (the call a WAL waits on)."""
    streams = record.result.streams
    return [(name, f"{STREAM_LABELS[name]}", streams[name])
            for name in ("file_sync", "range_sync", "write", "read") if streams.get(name)
            and streams[name].count]


def compaction_curves(record: BenchRecord) -> list[LatencyCurve]:
    """Every call's latency, file sync first."""
    return [LatencyCurve(label, histogram) for _, label, histogram in _compaction_streams(record)]


def interference_metrics(record: BenchRecord) -> list[Metric]:
    """`bench interference`: the WAL's durable call under compaction (judged), then alone."""
    result, label = record.result, SYNC_LABELS[record.params.wal.sync]
    return [*latency_metrics("under", f"{label} under compaction", result.under_compaction.sync,
                             sections=_wal_sections(record, result.under_compaction, "under_compaction")),
            *latency_metrics("alone", f"{label} alone", result.alone.sync, judged=False)]


def interference_curves(record: BenchRecord) -> list[LatencyCurve]:
    """Under compaction, then alone."""
    result, label = record.result, SYNC_LABELS[record.params.wal.sync]
    return [LatencyCurve(f"{label} under compaction", result.under_compaction.sync),
            LatencyCurve(f"{label} alone", result.alone.sync)]


def interference_params_text(record: BenchRecord) -> str:
    """The WAL profile and parameters, then the store's: real RocksDB's options, or the model's."""
    wal = record.params.wal
    head = f"{profile_title(wal)}: {summary_params_text(wal.to_json())}; "
    if record.params.aggressor == "rocksdb":
        return head + "beside real RocksDB: " + describe_store(record.params.store)
    return head + "compaction model " + params_line(record.params.compaction.to_json())
