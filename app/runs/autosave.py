"""Save every finished benchmark run: fingerprint the live host and the target's stack, write the file."""

from __future__ import annotations

import datetime as dt

from diskdoctor.probes.host import read_host
from diskdoctor.probes.root import Root, live_root
from diskdoctor.probes.wal_target import Target

from ..host_fingerprint import host_fingerprint
from .record import SavedRun, new_run_id
from .stack_fingerprint import stack_fingerprint
from .store import RunStore, RunStoreError


def record_run(kind: str, params: object, result: object, target: Target,
               settings: dict[str, object] | None = None, root: Root | None = None) -> SavedRun:
    """A SavedRun for a result just measured on the live host (reads the host once for the fingerprints)."""
    root = root or live_root()
    host = read_host(root)
    saved_at = dt.datetime.now(dt.timezone.utc)
    return SavedRun(new_run_id(kind, saved_at), kind, saved_at, host_fingerprint(root, host),
                    stack_fingerprint(host, target), params, result, dict(settings or {}))


def save_run(kind: str, params: object, result: object, target: Target,
             settings: dict[str, object] | None = None,
             store: RunStore | None = None) -> tuple[SavedRun | None, str]:
    """Save a finished run; returns (the saved run, "saved as ID") or (None, one line saying why not)."""
    store = store or RunStore()
    try:
        run = store.save(record_run(kind, params, result, target, settings))
    except RunStoreError as err:
        return None, str(err)
    except OSError as err:  # reading the host for the fingerprint failed: still never lose the result
        return None, f"could not save the run: {err}"
    return run, f"saved as run {run.id} (diskdoctor runs show {run.id})"
