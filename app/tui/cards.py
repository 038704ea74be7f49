"""A finding as the values a FindingCard draws (the one TUI rendering of findings)."""

from __future__ import annotations

from diskdoctor.widgets import CardContent

from ..core.findings.finding import Finding

CUT_NOTE = "… cut at the edge: c copies the whole command"
"""Under a fix command too wide for its card (TRIM and Advice both copy the fixes with `c`)."""

VERIFY_CUT_NOTE = "… cut at the edge: the report (w) has it whole"
"""Under a verify command too wide for its card: `c` copies only the fixes, the report every command whole
(newuser22 #15: `too wide to show whole here` left a user with only a cut path)."""


def card_content(finding: Finding) -> CardContent:
    """Title, evidence with sources, why, fix, risk and verify of one finding."""
    return CardContent(finding.id, finding.severity.value, finding.title, finding.fix, finding.risk,
                       finding.verify, tuple((e.what, e.value, e.source) for e in finding.evidence),
                       finding.why, finding.severity.badge_style, cut_note=CUT_NOTE,
                       verify_cut_note=VERIFY_CUT_NOTE)
