"""The saved benchmark runs the advisor judges beside a host, gathered once for `diskdoctor report` and the
Advice screen, so both show the same findings for the same host and runs folder."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..bench.context import BenchContext
from ..runs.render_guard import RunRenderError, rendering

if TYPE_CHECKING:  # the store is imported when runs are read (a report module's import stays shallow)
    from diskdoctor.probes.host import Host

    from ..runs.record import SavedRun
    from ..runs.store import RunListing, RunStore


@dataclass(frozen=True)
class SavedRunsInput:
    """The runs chosen, their result documents for the bench rules, and what to tell the reader."""

    runs: list[SavedRun]
    bench: tuple[BenchContext, ...]
    notes: list[str] = field(default_factory=list)
    """Why a run or the folder was left out ("saved runs not read: ...", "runs directory: skipped ...")."""
    skipped: int = 0
    """Files of the runs folder that were skipped (damaged or foreign)."""
    stamp: int | None = None
    """The runs folder's change time before it was read (RunStore.stamp), when it was read."""


def newest_runs(listing: RunListing, hostname: str | None) -> list[SavedRun]:
    """The newest run of each kind on each filesystem of this host (what "the results" usually means)."""
    newest: dict[tuple[str, str], SavedRun] = {}
    for run in listing.runs:  # oldest first: later ones replace earlier ones
        if hostname is not None and run.host.hostname == hostname:
            newest[(run.kind, run.stack.target.mountpoint)] = run
    return sorted(newest.values(), key=lambda run: (run.saved_at, run.id))


def mounted_now(host: Host) -> frozenset[str] | None:
    """The mountpoints of `host`'s filesystems now (None: its mounts could not be read)."""
    return None if host.mounts_unknown else frozenset(mounted.mount.mountpoint for mounted in host.mounts)


def run_contexts(runs: list[SavedRun], notes: list[str] | None = None,
                 mounted: frozenset[str] | None = None) -> list[BenchContext]:
    """Each run's result document, for the advisor's benchmark rules (a run that cannot give one is
    left out, with a note); a run on a filesystem not in `mounted` is marked as history."""
    contexts = []
    for run in runs:
        try:
            with rendering(f"run {run.id}"):
                context = BenchContext(run.record.to_json(), f"run {run.id}")
                if mounted is not None and run.stack.target.mountpoint not in mounted:
                    context = replace(context, not_mounted=True)
                contexts.append(context)
        except RunRenderError as err:
            if notes is not None:
                notes.append(str(err))
    return contexts


def saved_runs_input(hostname: str | None, *, runs: list[SavedRun] | None = None,
                     listing: RunListing | None = None, store: RunStore | None = None,
                     mounted: frozenset[str] | None = None) -> SavedRunsInput:
    """The runs to judge: `runs` when given, else the newest per kind and filesystem of `hostname` from
    `listing` or a scan of the runs folder (an unreadable folder is a note, never an error); those on a
    filesystem not in `mounted` (mounted_now) are judged as history."""
    from ..runs.store import RunListing, RunStore, RunStoreError

    notes: list[str] = []
    stamp = None
    if listing is None and runs is None:
        try:
            store = store or RunStore()
            stamp = store.stamp()
            listing = store.scan()
        except RunStoreError as err:
            listing = RunListing()
            notes.append(f"saved runs not read: {err}")
    if listing is not None:
        notes += [f"runs directory: {warning}" for warning in listing.warnings()]
    if runs is None:
        runs = newest_runs(listing or RunListing(), hostname)
    bench = tuple(run_contexts(runs, notes, mounted))
    return SavedRunsInput(runs, bench, notes, len(listing.skipped) if listing else 0, stamp)


def beside_saved(given: Iterable[BenchContext], saved: SavedRunsInput) -> list[BenchContext]:
    """The runs the Advice screen and a walkthrough judge: `given` (a walkthrough's own), then each saved
    run that is not one of them (a walkthrough's runs are saved runs too)."""
    given = list(given)
    origins = {context.origin for context in given}
    return [*given, *(context for context in saved.bench if context.origin not in origins)]
