"""Benchmark results handed to the advisor as files: `bench wal --json` or interference results."""

from __future__ import annotations

import json
import os

from diskdoctor.app.base.errors import UsageError
from diskdoctor.app.base.formatting import with_article
from diskdoctor.probes.host_text import visible

from ..bench.context import BenchContext
from ..bench.kinds import kind_for
from ..bench.rules import is_wal_result

MAX_RESULT_BYTES = 16 * 1024 * 1024
RUN_FORMAT = "diskdoctor-run"
"""The `format` of a saved run file (app/runs/record.py), accepted as well as a bare result."""


def is_bench_result(document: object) -> bool:
    """A WAL result (sync_latency_us; not a randwrite's) or an interference result (alone +
    under_compaction)."""
    return is_wal_result(document) or (isinstance(document, dict) and "alone" in document
                                       and "under_compaction" in document)


def _saved_run(document: object, name: str) -> BenchContext:
    """A saved run file (`runs show ID --json`, the runs folder): its result document, named by its id."""
    from ..runs.record import RunFormatError, run_from_json
    from ..runs.render_guard import RunRenderError, rendering

    try:
        run = run_from_json(document, name)
        with rendering(f"run {visible(name)}"):
            result = run.record.to_json()
    except (RunFormatError, RunRenderError) as err:
        raise UsageError(f"{visible(name)}: {err}") from err
    if not is_bench_result(result):
        raise UsageError(f"{name}: {with_article(run.kind)} run; the advisor judges wal and interference "
                         "runs")
    run_id = document.get("id") if isinstance(document, dict) else None
    return BenchContext(result, f"run {visible(str(run_id or name))}")


def _run_by_id(reference: str) -> BenchContext:
    from ..runs.render_guard import RunRenderError, rendering
    from ..runs.store import RunStore, RunStoreError

    try:
        store = RunStore()
        run = store.find(reference)
    except RunStoreError as err:
        raise UsageError(f"--bench {reference}: no such file, and {err}") from err
    try:
        with rendering(f"run {run.id}"):
            document = run.to_json()
    except RunRenderError as err:
        raise UsageError(str(err)) from err
    return _saved_run(document, run.id)


def load_bench_result(path: str) -> BenchContext:
    """Read one result or saved-run file, or a saved run by id; UsageError with one line when unusable."""
    if not os.path.exists(path) and os.sep not in path:
        return _run_by_id(path)
    try:
        if os.path.getsize(path) > MAX_RESULT_BYTES:
            raise UsageError(f"{path}: larger than {MAX_RESULT_BYTES:,} bytes, not a benchmark result")
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
    except OSError as err:
        raise UsageError(f"cannot read {path}: {err.strerror or err}") from err
    except (ValueError, UnicodeDecodeError) as err:
        raise UsageError(f"{path}: not JSON ({err})") from err
    if isinstance(document, dict) and document.get("format") == RUN_FORMAT:
        return _saved_run(document, path)
    if not is_bench_result(document):
        kind = document.get("workload") if isinstance(document, dict) else None
        known = kind_for(kind) if isinstance(kind, str) else None
        if known is not None and not known.judged:
            raise UsageError(f"{path}: {with_article(kind)} result; the advisor judges wal and "
                             "interference results")
        raise UsageError(f"{path}: not a `bench wal --json` or interference result "
                         "(no sync_latency_us, no alone/under_compaction)")
    return BenchContext(document, path)
