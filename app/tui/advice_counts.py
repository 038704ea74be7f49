"""The Advice header's count: every finding by severity, or, narrowed, only the findings the list shows."""

from __future__ import annotations

from ..core.findings.finding import Finding
from ..core.findings.vocabulary import Severity
from ..text.advice import summary_line


def shown_findings(rows_findings: list[list[Finding]], covered: tuple[str, ...]) -> list[Finding]:
    """The findings the listed rows stand for (each row's own, given as a list), only those about a subject
    of `covered` when it names any (narrowed to one subject, a merged row shows that subject's finding)."""
    return [finding for own in rows_findings for finding in own if not covered or finding.subject in covered]


def count_phrase(shown: list[Finding], total: int) -> str:
    """'19 findings: 2 crit, 9 warn, 8 info' for every finding; for fewer, the shown ones' counts and the
    host's total once: '3 of 19 findings: 1 warn, 2 info' (newuser17 #14: the host's counts above a list
    narrowed to 3 rows read as if the 2 crit were among them)."""
    if len(shown) == total:
        return summary_line(shown)
    if not shown:
        return f"none of {total} findings"
    whole = summary_line(shown)
    return f"{len(shown)} of {total} findings{whole[whole.index(':'):]}"


def scope_label(label: str) -> str:
    """Where the findings come from, as the summary ends: "this host", not the root's "this host (/)", which
    read as the filesystem / beside a status line saying "only /tmp/x" (newuser19 #2)."""
    return label.removesuffix(" (/)")


def listed_last(shown: list[Finding]) -> str:
    """The findings listed after less severe rows (saved runs on filesystems not mounted now go last), by
    severity: "8 crit", "8 crit, 2 warn"; "" when none is (newuser24 #8: a reader counted 2 CRIT rows
    under "10 crit", the other 8 at the list's end)."""
    counts = []
    for severity in sorted(Severity, key=lambda severity: severity.rank):
        late = sum(f.history and f.severity is severity for f in shown)
        if late and any(not f.history and f.severity.rank > severity.rank for f in shown):
            counts.append(f"{late} {severity.value}")
    return ", ".join(counts)
