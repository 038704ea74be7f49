"""The WAL benchmark as a saved-run kind: WalParams and WalResult, p50-p99.9 and ops/s, the p99 verdict."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from diskdoctor.probes.wal_params import SYNC_LABELS, WalParams
from diskdoctor.probes.wal_run import WalResult

from ..wal_report import ETCD_THRESHOLD_MS, result_document, summary_params_text, verdict_for
from .kinds import LatencyCurve, Metric, RunVerdict

if TYPE_CHECKING:
    from .record import SavedRun

PERCENTILE_METRICS = (("p50", 50.0, False), ("p90", 90.0, False), ("p99", 99.0, True),
                      ("p99.9", 99.9, False))


class WalKind:
    """etcd-style write + sync latency runs (`bench wal`)."""

    name = "wal"
    title = "WAL write + sync latency"

    def decode_params(self, data: dict[str, object]) -> WalParams:
        params = WalParams.from_json(data)
        params.validate()
        return params

    def decode_result(self, data: dict[str, object]) -> WalResult:
        return WalResult.from_json(data)

    @staticmethod
    def _typed(run: SavedRun) -> tuple[WalParams, WalResult]:
        assert isinstance(run.params, WalParams) and isinstance(run.result, WalResult)
        return run.params, run.result

    def metrics(self, run: SavedRun) -> list[Metric]:
        params, result = self._typed(run)
        label = SYNC_LABELS[params.sync]
        metrics = []
        for name, percent, judged in PERCENTILE_METRICS:
            value = result.sync.percentile(percent)
            metrics.append(Metric(f"sync_{name}", f"{name} {label}", "ms",
                                  None if value is None else value / 1e6, judged=judged))
        maximum = result.sync.maximum
        metrics.append(Metric("sync_max", f"max {label}", "ms", None if maximum is None else maximum / 1e6))
        metrics.append(Metric("ops_per_s", "ops/s", "ops/s", result.ops_per_s, lower_is_better=False,
                              judged=True))
        write_p99 = result.write.percentile(99.0)
        metrics.append(Metric("write_p99", "p99 write()", "ms",
                              None if write_p99 is None else write_p99 / 1e6))
        return metrics

    def curves(self, run: SavedRun) -> list[LatencyCurve]:
        params, result = self._typed(run)
        return [LatencyCurve(SYNC_LABELS[params.sync], result.sync), LatencyCurve("write()", result.write)]

    def params_text(self, run: SavedRun) -> str:
        params, _ = self._typed(run)
        return f"{params.profile}: {summary_params_text(params.to_json())}"

    @staticmethod
    def _threshold(run: SavedRun) -> tuple[float, str | None]:
        threshold = run.settings.get("threshold_ms")
        source = run.settings.get("threshold_source")
        if not isinstance(threshold, (int, float)) or not 0 < threshold < math.inf:
            return ETCD_THRESHOLD_MS, None
        return float(threshold), str(source) if source else None

    def verdict(self, run: SavedRun) -> RunVerdict:
        params, result = self._typed(run)
        verdict = verdict_for(params, result.sync, *self._threshold(run))
        return RunVerdict(verdict.passed, verdict.line())

    def document(self, run: SavedRun) -> dict[str, object]:
        params, result = self._typed(run)
        threshold, source = self._threshold(run)
        document = result_document(params, run.stack.target, result, threshold)
        document["verdict"] = verdict_for(params, result.sync, threshold, source).to_json()
        return document
