"""A finished run judged by the advisor's own bench rules (ETCD-FSYNC-P99, WAL-COMPACTION-P99): the findings
the Benchmark screen shows and the verdict `bench wal` and `bench interference` print, so the CLI, the
screens and reports judge a run in one vocabulary."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..findings.finding import Finding
from ..findings.order import in_display_order
from ..findings.registry import rule_for_id
from . import caveat_rules, rules  # noqa: F401  (registers the bench rules the kinds name)
from .context import BenchContext
from .kinds import kind_for, kind_of
from .wal import verdict_head

if TYPE_CHECKING:
    from .record import BenchRecord

THIS_RUN = "this run"
"""The origin the findings cite for a run just measured (a saved run cites its id)."""
LABEL = "{:<9} "


def _findings(kind: str, document: dict[str, object]) -> list[Finding]:
    """The bench rules' findings on one result document in rule order (WAL p99, then under compaction)."""
    known = kind_for(kind)
    if known is None or not known.judged:
        return []
    context = BenchContext(document, THIS_RUN)
    checks = [rule_for_id(rule_id) for rule_id in known.rules]
    return [finding for check in checks if check is not None for finding in check.run(context)]


def run_findings(record: BenchRecord) -> list[Finding]:
    """What `advise --bench` would say about this run's document, in rule order (the Benchmark screen)."""
    return _findings(record.workload, record.to_json())


def verdict_findings(kind: str, document: dict[str, object]) -> list[Finding]:
    """The findings the benchmark rules report for one result document: the run's own verdict first, then
    most severe first (the CLI)."""
    found = _findings(kind, document)
    headline = kind_of(kind).headline if found else None
    return in_display_order(sorted(found, key=lambda finding: finding.id != headline))


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
    headline = kind_of(record.workload).headline
    head = verdict_head(verdict)
    lines = [] if any(f.id == headline for f in findings) else \
        [head[0] + record.caveats().suffix(), *head[1:]]
    for finding in findings:
        lines += finding_lines(finding)
    return lines
