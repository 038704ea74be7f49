"""etcd's backend commits at most its batch limit of puts at once; the db stays within the space check."""

from __future__ import annotations

import os
import time
from pathlib import Path

from diskdoctor.probes.engine.backend_commit import (
    BATCH_LIMIT,
    DB_GROW_BYTES,
    DB_START,
    BackendCommitter,
    batch_puts,
    leaf_bytes,
)
from diskdoctor.probes.wal_params import WalParams


def test_a_burst_of_puts_is_committed_in_batches_of_the_limit(tmp_path: Path) -> None:
    """25,000 puts pending at one tick (a closed loop on tmpfs) are three commits, as etcd makes them (its
    batch limit is 10,000 puts), and the db file stays within its bound."""
    db = tmp_path / "db"
    bs, max_bytes = 100, 8 << 20
    assert batch_puts(bs, max_bytes) == BATCH_LIMIT
    with BackendCommitter(str(db), bs, 50.0, os.fdatasync, max_bytes=max_bytes) as committer:
        committer.applied(2 * BATCH_LIMIT + 5_000)
        time.sleep(0.5)
        samples = committer.stop()
        size = db.stat().st_size
    assert sum(len(each) for each in samples.values()) == 2 * 3  # two fdatasyncs per commit
    assert size <= max(max_bytes, DB_START + leaf_bytes(BATCH_LIMIT, bs)) + DB_GROW_BYTES


def test_large_puts_commit_in_batches_that_fit_the_dbs_bound(tmp_path: Path) -> None:
    """64 KiB puts into a db bounded at 8 MiB: each commit's leaves fit the bound, so the db file stays
    within the space the run's check asks for (a WAL run with small segments on a small filesystem)."""
    bs, max_bytes = 64 << 10, 8 << 20
    assert batch_puts(bs, max_bytes) < BATCH_LIMIT
    db = tmp_path / "db"
    with BackendCommitter(str(db), bs, 50.0, os.fdatasync, max_bytes=max_bytes) as committer:
        committer.applied(500)
        time.sleep(0.5)
        committer.stop()
        size = db.stat().st_size
    assert size <= max_bytes + DB_GROW_BYTES
    params = WalParams(bs=bs, size=1 << 20, format="etcd", commit_ms=100.0, segment_bytes=max_bytes)
    assert params.db_bytes == max_bytes and params.scratch_bytes >= 2 * max_bytes + size
