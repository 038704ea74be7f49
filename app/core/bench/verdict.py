"""The verdict `bench wal` and `bench interference` print, as the advisor's findings (ETCD-FSYNC-P99,
WAL-COMPACTION-P99), so the CLI, the Advice screen and reports judge a run in one vocabulary."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..findings.finding import Finding
from ..findings.order import in_display_order
from .rules import BenchContext, wal_p99, wal_under_compaction

if TYPE_CHECKING:
    from .record import BenchRecord

THIS_RUN = "this run"
"""The origin the findings cite for a run just measured (a saved run cites its id)."""
JUDGED_KINDS = ("wal", "interference")
LABEL = "{:<9} "


def verdict_findings(kind: str, document: dict[str, object]) -> list[Finding]:
    """The findings the benchmark rules report for one result document, most severe first."""
    if kind not in JUDGED_KINDS:
        return []
    context = BenchContext(document, THIS_RUN)
    found = list(wal_p99(context))
    if kind == "interference":
        found = list(wal_under_compaction(context)) + found
    return in_display_order(found)


def finding_lines(finding: Finding) -> list[str]:
    """One finding in short, as plain lines: severity word, id and title, the evidence on one line (the
    figures, and where a threshold comes from), then every fix and verify line whole."""
    lines = [f"{finding.severity.value.upper():<5} {finding.id}  {finding.title}"]
    facts = [f"{item.what} {item.value}" + ("" if item.source.startswith(THIS_RUN) else f" ({item.source})")
             for item in finding.evidence]
    if facts:
        lines.append(LABEL.format("evidence") + "; ".join(facts))
    lines += [LABEL.format("fix") + line for line in finding.fix]
    lines += [LABEL.format("verify") + line for line in finding.verify]
    return lines


def verdict_lines(record: BenchRecord, findings: list[Finding]) -> list[str]:
    """The verdict at the top of the CLI summary: the run's own finding when it reports one (a failed run
    always does), else a PASS line with the figure and threshold; other findings follow in short."""
    verdict = record.verdict()
    headline = "WAL-COMPACTION-P99" if record.workload == "interference" else "ETCD-FSYNC-P99"
    lines = [] if any(f.id == headline for f in findings) else \
        [("PASS  " if verdict.passed else "FAIL  ") + verdict.line()]
    for finding in findings:
        lines += finding_lines(finding)
    return lines
