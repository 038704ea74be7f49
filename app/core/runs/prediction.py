"""The benchmark's prediction for a watched database: the latest saved WAL run on the same directory (or,
failing that, the same filesystem), so a watch shows what the benchmark said beside what the database does."""

from __future__ import annotations

from diskdoctor.probes.wal_target import Target

from .record import SavedRun
from .store import RunStore, RunStoreError

PREDICTING_KINDS = ("wal", "interference")


def prediction_for(target: Target, store: RunStore | None = None) -> SavedRun | None:
    """The newest saved WAL (or interference) run on `target`'s directory, else on its filesystem."""
    try:
        runs = (store or RunStore()).scan().runs
    except (RunStoreError, OSError):
        return None
    candidates = [run for run in runs if run.kind in PREDICTING_KINDS]
    directory = target.directory.rstrip("/")
    same_dir = [run for run in candidates if run.record.target.directory.rstrip("/") == directory]
    same_fs = [run for run in candidates if run.record.target.mountpoint == target.mountpoint
               and target.mountpoint not in ("/", "")]
    chosen = same_dir or same_fs
    return max(chosen, key=lambda run: run.saved_at) if chosen else None


def prediction_line(run: SavedRun) -> str:
    """One line: which run predicted what ("benchmark prediction: run ID, bench wal on DIR: p99 ...")."""
    verdict = run.verdict()
    judged = verdict.line if verdict is not None else "not judged"
    return (f"benchmark prediction: run {run.id} (bench {run.kind} on {run.record.target.directory}, "
            f"{run.when()}): {judged}")
