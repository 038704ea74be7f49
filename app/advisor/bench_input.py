"""Benchmark results handed to the advisor as files: `bench wal --json` or interference results."""

from __future__ import annotations

import json
import os

from ..errors import UsageError
from .contexts import BenchContext

MAX_RESULT_BYTES = 16 * 1024 * 1024


def is_bench_result(document: object) -> bool:
    """A WAL result (sync_latency_us) or an interference result (alone + under_compaction)."""
    return isinstance(document, dict) and ("sync_latency_us" in document or
                                           ("alone" in document and "under_compaction" in document))


def load_bench_result(path: str) -> BenchContext:
    """Read one result file, or UsageError with one line saying what is wrong with it."""
    try:
        if os.path.getsize(path) > MAX_RESULT_BYTES:
            raise UsageError(f"{path}: larger than {MAX_RESULT_BYTES:,} bytes, not a benchmark result")
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
    except OSError as err:
        raise UsageError(f"cannot read {path}: {err.strerror or err}") from err
    except (ValueError, UnicodeDecodeError) as err:
        raise UsageError(f"{path}: not JSON ({err})") from err
    if not is_bench_result(document):
        raise UsageError(f"{path}: not a `bench wal --json` or interference result "
                         "(no sync_latency_us, no alone/under_compaction)")
    return BenchContext(document, path)
