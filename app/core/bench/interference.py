"""A WAL-under-compaction run as the `bench interference` document, verdict and plain-text summary."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from diskdoctor.app.base.filesystem_words import filesystem_on
from diskdoctor.app.base.formatting import counted
from diskdoctor.probes.engine.workloads.interference import InterferenceParams, InterferenceResult
from diskdoctor.probes.engine.workloads.rocksdb_store import describe
from diskdoctor.probes.fio_jobs import interference_job_file
from diskdoctor.probes.wal_params import SYNC_LABELS, load_text

from .outcome import with_sections
from .uncertainty import FAIL, INCONCLUSIVE, PASS, Interval
from .wal import (
    Verdict,
    format_ms,
    host_lines,
    interval_phrase,
    job_text,
    layer_line,
    result_document,
    result_verdict,
    threshold_source,
    uncertainty_json,
    uncertainty_lines,
    verdict_head,
)

if TYPE_CHECKING:
    from .finished import FinishedRun as BenchRecord


OPTION_NAMES = ("max_background_jobs", "write_buffer_size", "max_bytes_for_level_base", "bytes_per_sync",
                "use_direct_io_for_flush_and_compaction", "compression")
"""The store's options in force that the summary names (the JSON has more)."""


@dataclass(frozen=True)
class InterferenceVerdict:
    """Pass/fail of the WAL's p99 under compaction, with the p99 alone beside it for the ratio."""

    passed: bool
    metric: str
    alone_ms: float
    under_ms: float
    threshold_ms: float
    source: str
    wal: Verdict | None = None
    """The WAL's verdict under compaction: its outcome, interval and what would settle it."""

    @property
    def result(self) -> str:
        """"pass", "fail" or "inconclusive" (the WAL's under compaction)."""
        return self.wal.result if self.wal is not None else (PASS if self.passed else FAIL)

    @property
    def interval(self) -> Interval | None:
        """The 95% interval of the p99 under compaction (ms)."""
        return self.wal.interval if self.wal is not None else None

    @property
    def settle(self) -> str | None:
        """What would settle an INCONCLUSIVE verdict."""
        return self.wal.settle if self.wal is not None else None

    @property
    def interval_note(self) -> str | None:
        """Why there is no interval."""
        return self.wal.interval_note if self.wal is not None else None

    @property
    def ratio(self) -> float | None:
        """How many times worse the p99 is under compaction."""
        return self.under_ms / self.alone_ms if self.alone_ms else None

    def line(self) -> str:
        """e.g. "WAL p99 fdatasync 1.2 ms alone → 14.8 ms under compaction (12×): fails the 10 ms ..."."""
        ratio = f" ({self.ratio:.1f}×)" if self.ratio else ""
        verb = {PASS: "passes", FAIL: "fails", INCONCLUSIVE: "neither passes nor fails"}[self.result]
        ci = f"; {interval_phrase(self.interval)}" if self.interval is not None else ""
        return (f"WAL {self.metric} {format_ms(self.alone_ms)} alone → {format_ms(self.under_ms)} under "
                f"compaction{ratio}: {verb} {self.threshold_ms:g} ms under compaction ({self.source}){ci}")

    def to_json(self) -> dict[str, object]:
        """The `verdict` object."""
        data: dict[str, object] = {"pass": self.passed, "metric": self.metric,
                                   "alone_ms": round(self.alone_ms, 3), "value_ms": round(self.under_ms, 3),
                                   "threshold_ms": self.threshold_ms, "source": self.source}
        if self.wal is not None:
            data.update(uncertainty_json(self.wal))
        return data


def verdict(record: BenchRecord) -> InterferenceVerdict:
    """Judge the p99 of the WAL's durable call under compaction."""
    result: InterferenceResult = record.result
    threshold = record.threshold or 10.0
    alone = (result.alone.sync.percentile(99.0) or 0.0) / 1e6
    under_result = replace(result.under_compaction, host=result.under_compaction.host or result.host)
    wal = result_verdict(record.params.wal, under_result, threshold, record.threshold_source, record.sections,
                         "under_compaction")
    headline_ms = (result.under_compaction.sync.percentile(99.0) or 0.0) / 1e6
    under = wal.value_ms if under_result.levels else headline_ms
    metric = wal.metric if under_result.levels else f"p99 {SYNC_LABELS[record.params.wal.sync]}"
    return InterferenceVerdict(wal.passed, metric, alone, under,
                               threshold, record.threshold_source or threshold_source(threshold), wal)


def document(record: BenchRecord) -> dict[str, object]:
    """`alone` and `under_compaction` (each a full `bench wal` result), `p99_ratio`, the compaction."""
    result: InterferenceResult = record.result
    figures = result.to_json()
    threshold = record.threshold or 10.0
    fio_alone, fio_under = record.fio if isinstance(record.fio, tuple) else (None, None)
    data: dict[str, object] = {
        "workload": "interference", "params": record.params.to_json(), "target": record.target.to_json(),
        "alone": result_document(record.params.wal, record.target, result.alone, threshold, fio_alone,
                                 record.threshold_source, record.sections, "alone"),
        "under_compaction": result_document(record.params.wal, record.target, result.under_compaction,
                                            threshold, fio_under, record.threshold_source, record.sections,
                                            "under_compaction"),
        "p99_ratio": figures["p99_ratio"], "compaction": figures["compaction"],
        "verdict": verdict(record).to_json(), "host": figures["host"], "notes": figures["notes"],
        "fio_equivalent": interference_job_file(record.params.wal, record.params.compaction,
                                                record.target.directory),
    }
    if fio_alone is not None and fio_under is not None:
        data["fio"] = {"alone": fio_alone.to_json(), "under_compaction": fio_under.to_json()}
    return with_sections(data, record.sections, record.repeats)


def beside_lines(params: InterferenceParams, compaction: dict[str, object]) -> list[str]:
    """What the store beside the WAL did: real RocksDB (its version, options and statistics) or the model."""
    rates = f"read {compaction['read_mb_s']:,.1f} MB/s and wrote {compaction['write_mb_s']:,.1f} MB/s"
    store = compaction.get("rocksdb")
    if compaction.get("aggressor") != "rocksdb":
        return [f"beside    the compaction model ({counted(int(compaction['jobs']), 'job')}, not calibrated "  # type: ignore[call-overload]
                f"against RocksDB) {rates} while the WAL ran"]
    lines = [f"beside    real RocksDB{'' if not isinstance(store, dict) else ' ' + str(store['version'])} "
             f"{rates} (flushes and compactions) while the WAL ran"]
    if isinstance(store, dict):
        seconds = float(store["seconds"]) or 1e-9
        opts = store.get("options")
        opts = opts if isinstance(opts, dict) else {}
        lines.append(f"store     {int(store['puts']) / seconds:,.0f} puts/s, its own WAL "
                     f"{int(store['wal_written']) / seconds / 1e6:,.1f} MB/s, write stalls "
                     f"{int(store['stall_us']) / 1e6:.1f} s; " + ", ".join(
                         f"{name} {opts[name]}" for name in OPTION_NAMES if name in opts))
    lines.append(f"store     {describe(params.store)}")
    return lines


def summary_lines(record: BenchRecord) -> list[str]:
    """The human summary: the PASS/FAIL verdict line, then the details (the TUI shows it)."""
    return [*verdict_head(verdict(record)), *detail_lines(record)]


def detail_lines(record: BenchRecord) -> list[str]:
    """Everything the summary says after its verdict (caveats.py adds its caveats): target, alone and under
    compaction, the compaction beside it, host, fio, layers and the fio job."""
    data, result, target = document(record), record.result, record.target
    compaction = data["compaction"]
    assert isinstance(compaction, dict)
    lines = uncertainty_lines(verdict(record))
    lines.append(f"target    {target.directory} ({filesystem_on(target.fstype, target.device)})")
    for name, part in (("alone", result.alone), ("under", result.under_compaction)):
        sync = part.sync
        shown = [(label, sync.percentile(p)) for label, p in (("p50", 50), ("p99", 99), ("p99.9", 99.9))]
        shown.append(("max", sync.maximum))
        head = part.levels[0] if part.levels else None
        load = (f"at {load_text(head.rate, head.arrival)}, from due" if head is not None and head.rate
                else "closed loop")
        lines.append(f"{name:<9} {part.samples:,} writes, {part.ops_per_s or 0:,.0f} ops/s ({load}); "
                     + "  ".join(f"{label} {format_ms((value or 0) / 1e6)}" for label, value in shown))
    lines += beside_lines(record.params, compaction)
    lines += host_lines(data.get("host"))
    fio = data.get("fio")
    if isinstance(fio, dict):
        alone_p99, under_p99 = fio["alone"]["p99"], fio["under_compaction"]["p99"]
        lines.append(f"fio       p99 {format_ms(alone_p99 / 1000)} alone → {format_ms(under_p99 / 1000)} "
                     "beside "
                     f"fio's compaction jobs")
    under_doc = data["under_compaction"]
    assert isinstance(under_doc, dict)
    lines += [layer_line(layer) for layer in under_doc["layers"]]
    lines.append("fio job   " + job_text(str(data["fio_equivalent"])))
    return lines
