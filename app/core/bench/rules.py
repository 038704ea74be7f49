"""Benchmark verdicts as findings: the WAL p99 against its threshold, and the WAL under compaction."""

from __future__ import annotations

from collections.abc import Iterator

from diskdoctor.app.base.units import format_threshold
from diskdoctor.probes.host_text import shell_quote, shown, visible

from ..findings.finding import Evidence, Finding
from ..findings.registry import Scope, rule
from ..findings.vocabulary import Severity
from .context import BenchContext
from .rerun import rerun_command
from .uncertainty import FAIL, INCONCLUSIVE, PASS, settle_seconds
from .wal import ETCD_THRESHOLD_MS, format_ms, interval_from_json, interval_phrase

HEADROOM_SHARE = 0.2
"""A p99 above this share of the threshold passes with little headroom (2 ms of etcd's 10 ms: info)."""
COLLAPSE_RATIO = 3.0
"""Under compaction the p99 grew at least this many times: warn even when it still passes."""


def is_wal_result(result: object) -> bool:
    """A WAL result (`bench wal`, or a part of an interference run); a randwrite result has the same
    `sync_latency_us` but is not a write-ahead log, so etcd's verdicts do not apply to it."""
    return (isinstance(result, dict) and result.get("workload") in (None, "wal")
            and "sync_latency_us" in result)


def p99_ms(result: object) -> float | None:
    """The p99 of the durable call in ms from a WAL result (`sync_latency_us.p99`, in µs); None for
    anything else."""
    sync = result.get("sync_latency_us") if is_wal_result(result) else None
    value = sync.get("p99") if isinstance(sync, dict) else None
    return value / 1000.0 if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def threshold_of(result: object) -> tuple[float, str]:
    """The threshold (ms) the result was judged against and where it comes from (etcd's 10 ms by default)."""
    verdict = result.get("verdict") if isinstance(result, dict) else None
    if isinstance(verdict, dict) and isinstance(verdict.get("threshold_ms"), (int, float)):
        return float(verdict["threshold_ms"]), str(verdict.get("source") or "custom threshold")
    return ETCD_THRESHOLD_MS, "etcd docs threshold"


def subject_of(document: dict[str, object]) -> str:
    """The filesystem a result is about (its target's mountpoint), so it groups with that filesystem."""
    target = document.get("target")
    if isinstance(target, dict):
        for key in ("mountpoint", "dir"):
            if isinstance(target.get(key), str) and target[key]:
                return str(target[key])
    return "benchmark"


def _target_dir(document: dict[str, object]) -> str:
    target = document.get("target")
    directory = target.get("dir") if isinstance(target, dict) else None
    return shell_quote(shown(directory)) if isinstance(directory, str) else "DIR"


def outcome_in(result: object) -> tuple[str | None, str | None, str | None]:
    """The verdict's outcome ("pass", "fail", "inconclusive"; None: a document from before outcomes), its
    interval in words (None: it has none) and what would settle it, from a WAL result's `verdict`."""
    verdict = result.get("verdict") if isinstance(result, dict) else None
    if not isinstance(verdict, dict) or verdict.get("outcome") not in (PASS, FAIL, INCONCLUSIVE):
        return None, None, None
    interval = verdict.get("interval")
    shown = interval_phrase(interval_from_json(interval, None)) if isinstance(interval, dict) else None
    settle = verdict.get("settle")
    return str(verdict["outcome"]), shown, visible(settle) if isinstance(settle, str) else None


VALUE_MS_STEP = 0.001
"""A saved verdict's `value_ms` is rounded to 1 µs: 3.8748 ms saved as 3.875 read 3.88 ms on Advice beside the
Benchmark's 3.87 ms (newuser24 #9), so the headline p99 (µs to the ns) stands in for it when they agree."""


def judged_ms(result: object) -> float | None:
    """The judged p99 (ms): the verdict's own figure (the deciding load), else the headline p99."""
    verdict = result.get("verdict") if isinstance(result, dict) else None
    value = verdict.get("value_ms") if isinstance(verdict, dict) and "outcome" in verdict else None
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return p99_ms(result)
    headline = p99_ms(result)  # the same figure to the ns when the headline is the deciding load's
    same = headline is not None and abs(headline - value) <= VALUE_MS_STEP / 2
    return headline if same else float(value)


def _metric(result: dict[str, object]) -> str:
    verdict = result.get("verdict")
    if isinstance(verdict, dict) and verdict.get("metric"):
        return str(verdict["metric"])
    return "p99 fdatasync"


@rule("ETCD-FSYNC-P99", scope=Scope.BENCH, severity=Severity.CRIT,
      checks="the WAL benchmark's p99 durable-call latency against its threshold (etcd: 10 ms)",
      sources=("etcd FAQ: wal_fsync_duration_seconds p99 < 10ms",
               "IBM: using fio to tell whether your storage is fast enough for etcd",
               "Red Hat OpenShift etcd guidance (20 ms)"))
def wal_p99(bench: BenchContext) -> Iterator[Finding]:
    """ETCD-FSYNC-P99: the WAL benchmark verdict (alone, for an interference result) as a finding."""
    document = bench.document
    result = document.get("alone", document)
    p99 = judged_ms(result)
    if not isinstance(result, dict) or p99 is None:
        return
    threshold, source = threshold_of(result)
    outcome, interval, settle = outcome_in(result)
    path = "alone.verdict" if "alone" in document else "verdict"
    figure = f"{path}.value_ms" if outcome else \
        ("alone.sync_latency_us.p99" if "alone" in document else "sync_latency_us.p99")
    samples = result.get("samples")
    evidence = (Evidence(_metric(result), format_ms(p99), f"{bench.origin}: {figure}"),
                Evidence("threshold", format_threshold(threshold), source),
                Evidence("samples", f"{samples:,}" if isinstance(samples, int) else "?",
                         f"{bench.origin}: samples"),
                *([Evidence("confidence", interval, f"{bench.origin}: {path}.interval")] if interval else []))
    verify = (f"{rerun_command(document)}   # the same run again after the fix: compare",)
    subject = subject_of(document)
    if outcome == INCONCLUSIVE:
        yield inconclusive_finding("ETCD-FSYNC-P99", subject, f"WAL {_metric(result)} is {format_ms(p99)}",
                                   threshold, evidence, settle, document)
    elif outcome == FAIL or (outcome is None and p99 >= threshold):
        yield Finding(
            "ETCD-FSYNC-P99", Severity.CRIT, subject,
            f"WAL {_metric(result)} is {format_ms(p99)}, at or over the {format_threshold(threshold)} "
            "threshold", evidence,
            "etcd needs its WAL fdatasync p99 under 10 ms ('failed to send out heartbeat on time', leader "
            "elections follow); other write-ahead logs stall the same way. The disk, or what shares it, "
            "is too slow for this workload.",
            ("# put the WAL on a dedicated SSD/NVMe (etcd: --wal-dir), away from other writers",
             "# fix the configuration findings for this filesystem first (barriers, scheduler, swap...)",
             ("for pid in $(pgrep -x etcd); do ionice -c2 -n0 -p \"$pid\"; done   # etcd tuning guide: "
              "best-effort, highest priority (nothing where etcd does not run)")),
            "Moving the WAL means a maintenance window for that member.", verify)
    elif p99 >= threshold * HEADROOM_SHARE:
        yield Finding(
            "ETCD-FSYNC-P99", Severity.INFO, subject,
            f"WAL {_metric(result)} is {format_ms(p99)}: passes the {format_threshold(threshold)} threshold "
            "with little headroom", evidence,
            "A p99 over a fifth of the threshold leaves little room for a busier day, a compaction or a "
            "neighbour on the same disk (the interference benchmark shows how much).", (), None,
            (f"diskdoctor bench interference --dir {_target_dir(document)}   # what a compaction beside it "
             "costs",))


@rule("WAL-COMPACTION-P99", scope=Scope.BENCH, severity=Severity.CRIT,
      checks="the WAL p99 under a concurrent compaction-style writer against alone and the threshold",
      sources=("etcd FAQ (10 ms)", "RocksDB compaction I/O pattern (storage-facts 5.2)"))
def wal_under_compaction(bench: BenchContext) -> Iterator[Finding]:
    """WAL-COMPACTION-P99: the WAL collapses while a compaction writes on the same filesystem."""
    document = bench.document
    alone, under = document.get("alone"), document.get("under_compaction")
    alone_ms, under_ms = p99_ms(alone), p99_ms(under)
    if alone_ms is None or under_ms is None:
        return
    ratio = document.get("p99_ratio")
    ratio = float(ratio) if isinstance(ratio, (int, float)) else (under_ms / alone_ms if alone_ms else None)
    threshold, source = threshold_of(under if isinstance(under, dict) and "verdict" in under else alone)
    outcome, interval, settle = outcome_in(under)
    under_ms = judged_ms(under) or under_ms
    over = outcome == FAIL or (outcome is None and under_ms >= threshold)
    if outcome == INCONCLUSIVE:
        evidence = (Evidence("p99 under compaction", format_ms(under_ms),
                             f"{bench.origin}: under_compaction.verdict.value_ms"),
                    Evidence("p99 alone", format_ms(alone_ms), f"{bench.origin}: alone.sync_latency_us.p99"),
                    Evidence("threshold", format_threshold(threshold), source),
                    Evidence("confidence", interval or "none",
                             f"{bench.origin}: under_compaction.verdict.interval"))
        yield inconclusive_finding("WAL-COMPACTION-P99", subject_of(document),
                                   f"WAL p99 under compaction is {format_ms(under_ms)}", threshold, evidence,
                                   settle, document)
        return
    if not over and (ratio is None or ratio < COLLAPSE_RATIO):
        return
    times = f"{ratio:.1f}x" if ratio is not None else "?"
    evidence = (Evidence("p99 alone", format_ms(alone_ms), f"{bench.origin}: alone.sync_latency_us.p99"),
                Evidence("p99 under compaction", format_ms(under_ms),
                         f"{bench.origin}: under_compaction.sync_latency_us.p99"),
                Evidence("p99 ratio", times, f"{bench.origin}: p99_ratio"),
                Evidence("threshold", format_threshold(threshold), source))
    title = (f"WAL p99 goes from {format_ms(alone_ms)} to {format_ms(under_ms)} ({times}) while a compaction "
             "writes" + (f", over the {format_threshold(threshold)} threshold" if over else
                         f"; still under the {format_threshold(threshold)} threshold"))
    yield Finding(
        "WAL-COMPACTION-P99", Severity.CRIT if over else Severity.WARN, subject_of(document), title, evidence,
        "Large sequential compaction writes and their syncs fill the device queue and cache; every WAL "
        "fdatasync then waits behind them. Databases that compact (RocksDB, Ceph BlueStore, Elasticsearch "
        "merges) next to a latency-critical WAL see exactly this.",
        ("# keep the WAL on its own device (etcd --wal-dir, RocksDB wal_dir, BlueStore block.wal)",
         "# or pace compaction writes: RocksDB rate_limiter (rate_bytes_per_sec)",
         "# on a shared HDD use mq-deadline or bfq so the WAL's small writes do not wait behind large ones"),
        "Throttling compaction lets it fall behind under sustained writes (write stalls later).",
        (f"{rerun_command(document)}   # the same run again: compare the ratio",))


def inconclusive_finding(rule_id: str, subject: str, what: str, threshold: float,
                         evidence: tuple[Evidence, ...], settle: str | None,
                         document: dict[str, object]) -> Finding:
    """A verdict whose interval straddles the threshold: a warning to measure again, never the CRIT that
    sends the user to move the WAL (the run cannot tell whether the disk is too slow). The fix and its check
    are one command: the run long enough to settle it (repeating the inconclusive run would not)."""
    seconds = settle_seconds(settle)
    longer = rerun_command(document, seconds)
    if seconds is None and settle and "too close to the threshold" in settle:  # the same run would not help
        settle = ("the p99 sits on the threshold, so no longer run settles it: run it again at a quieter "
                  "moment, or judge it against your database's own limit (--threshold-ms)")
    return Finding(
        rule_id, Severity.WARN, subject,
        f"{what}: INCONCLUSIVE against the {format_threshold(threshold)} threshold (its confidence interval "
        "lies on both sides)", evidence,
        "The samples this run took cannot tell whether the p99 is under or over the threshold: its 95% "
        "interval reaches both sides. Changing hardware on this evidence could be a mistake either way.",
        (f"{longer}   # {settle or 'or at a quieter moment'}",),
        None, (f"{longer}   # settled when its verdict is PASS or FAIL, no longer INCONCLUSIVE",))
