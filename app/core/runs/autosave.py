"""Save every finished benchmark run: fingerprint the live host and the target's stack, write the file."""

from __future__ import annotations

import datetime as dt

from diskdoctor.probes.host import read_host
from diskdoctor.probes.root import Root, live_root

from ..bench.record import BenchRecord
from .host_fingerprint import host_fingerprint
from .record import SavedRun, new_run_id
from .stack_fingerprint import stack_fingerprint
from .store import RunStore, RunStoreError


def record_run(record: BenchRecord, root: Root | None = None) -> SavedRun:
    """A SavedRun for a record just measured on the live host (reads the host once for the fingerprints)."""
    root = root or live_root()
    host = read_host(root)
    saved_at = dt.datetime.now(dt.timezone.utc)
    return SavedRun(new_run_id(record.workload, saved_at), record.workload, saved_at,
                    host_fingerprint(root, host), stack_fingerprint(host, record.target), record)


def save_run(record: BenchRecord, store: RunStore | None = None) -> tuple[SavedRun | None, str]:
    """Save a finished run: (the saved run, "saved as run ID ...") or (None, one line saying why not)."""
    try:
        store = store or RunStore()
        run = store.save(record_run(record))
    except RunStoreError as err:
        return None, str(err)
    except OSError as err:  # reading the host for the fingerprint failed: still never lose the result
        return None, f"could not save the run: {err}"
    return run, f"saved as run {run.id} (diskdoctor runs show {run.id})"
