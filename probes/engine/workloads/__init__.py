"""The workload registry behind the one `_engine KIND` entry: each kind's parameters, result and loop."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...wal_params import ParamError
from . import compaction, interference, randwrite, rocksdb_store, wal
from .parallel import run_compaction


@dataclass(frozen=True)
class Workload:
    """One kind of benchmark: how its parameters and result travel as JSON, and the loop that runs it."""

    name: str
    params_type: type
    result_type: type
    run: Callable[[Any, Any], Any]


WORKLOADS = {
    "wal": Workload("wal", wal.WalParams, wal.WalResult, wal.run),
    "compaction": Workload("compaction", compaction.CompactionParams, compaction.CompactionResult,
                           run_compaction),
    "randwrite": Workload("randwrite", randwrite.RandwriteParams, randwrite.RandwriteResult, randwrite.run),
    "interference": Workload("interference", interference.InterferenceParams,
                             interference.InterferenceResult, interference.run),
    "rocksdb": Workload("rocksdb", rocksdb_store.StoreParams, rocksdb_store.StoreResult, rocksdb_store.run),
}
"""Imported statically, so the frozen binary holds every workload."""


def workload(name: str) -> Workload:
    """The registered workload `name`, or ParamError naming the known ones."""
    try:
        return WORKLOADS[name]
    except KeyError:
        raise ParamError(f"unknown workload {name!r} (choose from {', '.join(WORKLOADS)})") from None


def read_result(name: str, data: dict[str, Any]) -> Any:
    """The typed result of workload `name` from its JSON document (how a runner decodes `result` events)."""
    return workload(name).result_type.from_json(data)
