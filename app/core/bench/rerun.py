"""The `diskdoctor bench` command that repeats a saved result like for like, for a finding's verify line:
the same directory, sizes, duration, sync call and threshold (a re-run with defaults would not compare)."""

from __future__ import annotations

from diskdoctor.probes.engine.workloads.interference import DEFAULT_COMPACTION, PHASE_S
from diskdoctor.probes.host_text import shell_join, shown
from diskdoctor.probes.wal_params import PROFILES, _fio_size

CUSTOM_THRESHOLD = "custom threshold"
"""The source word of a verdict judged against --threshold-ms (core/bench/wal.py)."""


def _dict(value: object) -> dict[str, object]:
    return value if isinstance(value, dict) else {}


def _threshold(result: dict[str, object]) -> list[str]:
    verdict = _dict(result.get("verdict"))
    limit = verdict.get("threshold_ms")
    if verdict.get("source") == CUSTOM_THRESHOLD and isinstance(limit, (int, float)):
        return ["--threshold-ms", f"{limit:g}"]
    return []


def _load_options(params: dict[str, object], base: object) -> list[str]:
    """--rate, --arrival and --no-capacity where a `bench wal` run's load differs from its profile's."""
    rates = params.get("rates")
    if not isinstance(rates, list):  # saved before the open loop: the closed loop was all there was
        return []
    options: list[str] = []
    if tuple(float(r) for r in rates) != getattr(base, "rates", ()) and rates:
        options += ["--rate", ",".join(f"{float(r):g}" for r in rates)]
    if params.get("arrival") not in (None, "steady"):
        options += ["--arrival", str(params["arrival"])]
    if params.get("capacity") is False:
        options.append("--no-capacity")
    return options


def _wal_options(params: dict[str, object], default_duration: float | None) -> list[str]:
    """The options that turn `bench wal`'s defaults (etcd's profile) into these parameters."""
    profile = params.get("profile")
    options: list[str] = []
    if isinstance(profile, str) and profile in PROFILES and profile != "etcd":
        options += ["--profile", profile]
    base = PROFILES.get(profile if isinstance(profile, str) else "", PROFILES["etcd"])
    if isinstance(params.get("bs"), int) and params["bs"] != base.bs:
        options += ["--bs", _fio_size(int(params["bs"]))]  # type: ignore[arg-type]
    duration = params.get("duration_s")
    if isinstance(duration, (int, float)) and duration != default_duration:
        options += ["--duration", f"{duration:g}s"]
    elif not duration and isinstance(params.get("size"), int) and params["size"] != base.size:
        options += ["--size", _fio_size(int(params["size"]))]  # type: ignore[arg-type]
    if params.get("sync") not in (None, "fdatasync"):
        options += ["--sync", str(params["sync"])]
    if params.get("prealloc") is False:
        options.append("--no-prealloc")
    return options


def _store_options(store: dict[str, object]) -> list[str]:
    """Real RocksDB's options as `bench interference` flags (the OPTIONS file by its path)."""
    options: list[str] = []
    path = store.get("options_file")
    if isinstance(path, str):
        options += ["--rocksdb-options", shown(path)]
    for option, key in (("--background-jobs", "background_jobs"), ("--bytes-per-sync", "bytes_per_sync"),
                        ("--rate-limit-mb-s", "rate_limit_mb_s"), ("--ingest-mb-s", "ingest_mb_s")):
        value = store.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            options += [option, f"{value:g}"]
    if store.get("direct_io") is True:
        options.append("--direct-io")
    return options


def _directory(document: dict[str, object]) -> str:
    directory = _dict(document.get("target")).get("dir")
    return shown(directory) if isinstance(directory, str) else "DIR"


def rerun_command(document: dict[str, object], duration_s: float | None = None) -> str:
    """`diskdoctor bench wal|interference --dir D ...` with every option this result ran with; a WAL run
    with `duration_s` runs that long per load instead (what would settle an inconclusive verdict)."""
    argv = ["diskdoctor", "bench"]
    if "alone" in document and "under_compaction" in document:
        params, alone = _dict(document.get("params")), _dict(document.get("alone"))
        compaction = _dict(params.get("compaction"))
        argv += ["interference", "--dir", _directory(document)]
        argv += _wal_options(_dict(params.get("wal")), PHASE_S)
        if params.get("aggressor") == "rocksdb":
            argv += _store_options(_dict(params.get("store")))
        else:  # the model, also for runs saved before real RocksDB was the default
            argv += ["--aggressor", "model"]
            for option, key, default in (("--jobs", "jobs", DEFAULT_COMPACTION.jobs),
                                         ("--inputs", "inputs", DEFAULT_COMPACTION.inputs)):
                if isinstance(compaction.get(key), int) and compaction[key] != default:
                    argv += [option, str(compaction[key])]
            size = compaction.get("file_size")
            if isinstance(size, int) and size != DEFAULT_COMPACTION.file_size:
                argv += ["--file-size", _fio_size(size)]
        argv += _threshold(alone)
    else:
        argv += ["wal", "--dir", _directory(document)]
        params = _dict(document.get("params"))
        if duration_s is not None:
            params = {**params, "duration_s": duration_s}
        profile = params.get("profile")
        base = PROFILES.get(profile if isinstance(profile, str) else "", PROFILES["etcd"])
        argv += _wal_options(params, None) + _load_options(params, base) + _threshold(document)
    return shell_join(argv)
