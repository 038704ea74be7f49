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
    leaf_bytes,
)
from diskdoctor.probes.wal_params import WalParams


def test_a_burst_of_puts_is_committed_in_batches_of_the_limit(tmp_path: Path) -> None:
    """25,000 puts pending at one tick (a closed loop on tmpfs) are three commits, as etcd makes them, and
    the db file never grows past what the run's space check counts."""
    db = tmp_path / "db"
    max_bytes = 8 << 20
    with BackendCommitter(str(db), 2300, 50.0, os.fdatasync, max_bytes=max_bytes) as committer:
        committer.applied(2 * BATCH_LIMIT + 5_000)
        time.sleep(0.5)
        samples = committer.stop()
        size = db.stat().st_size
    assert sum(len(each) for each in samples.values()) == 2 * 3  # two fdatasyncs per commit
    assert size <= max(max_bytes, DB_START + leaf_bytes(BATCH_LIMIT, 2300)) + DB_GROW_BYTES


def test_the_space_check_counts_one_whole_batch_of_large_puts() -> None:
    """With 64 KiB puts one batch's leaves outgrow the db's usual bound; the space asked for covers them."""
    small = WalParams(bs=2300, size=1 << 20, format="etcd", commit_ms=100.0)
    large = WalParams(bs=64 << 10, size=1 << 20, format="etcd", commit_ms=100.0)
    assert large.scratch_bytes >= BATCH_LIMIT * ((64 << 10) + 64) * 2
    assert small.scratch_bytes < large.scratch_bytes
