"""The one order every renderer shows findings in: grouped by subject, the most severe group first."""

from __future__ import annotations

from dataclasses import dataclass

from diskdoctor.probes.host import natural_key

from .finding import Finding, by_severity


@dataclass(frozen=True)
class FindingGroup:
    """The findings about one subject (a mountpoint, a device, the host or a benchmark run)."""

    subject: str
    findings: list[Finding]


def grouped(findings: list[Finding]) -> list[FindingGroup]:
    """Findings grouped by subject; groups with the worst severity first, then by subject name."""
    by_subject: dict[str, list[Finding]] = {}
    for finding in findings:
        by_subject.setdefault(finding.subject, []).append(finding)
    groups = [FindingGroup(subject, by_severity(items)) for subject, items in by_subject.items()]
    return sorted(groups, key=lambda g: (g.findings[0].severity.rank, natural_key(g.subject)))


def in_display_order(findings: list[Finding]) -> list[Finding]:
    """The findings as every renderer lists them (grouped by subject, most severe first)."""
    return [finding for group in grouped(findings) for finding in group.findings]
