"""A judged run's findings (core/bench/verdict.py) in the Advice screen's words: the severity badge, the
finding's id and title, and the first fix, so the two screens never disagree."""

from __future__ import annotations

from rich.text import Text

from ..core.findings.finding import Finding


def advice_text(findings: list[Finding]) -> Text:
    """Each finding as a badge, its id and title, and its first fix; a line saying so when there is none."""
    text = Text("Advisor: ", style="bold")
    if not findings:
        text.append("no finding: the p99 leaves ample headroom under the threshold (key 4 for the host's "
                    "other findings)", style="dim")
        return text
    text.append("as `diskdoctor advise --bench` judges this run (key 4: the host's findings)\n", style="dim")
    for finding in findings:
        text.append(f" {finding.severity.value.upper()} ", style=finding.severity.badge_style)
        text.append(f" {finding.id}  ", style="bold")
        text.append(finding.title + "\n")
        if finding.fix:
            text.append("  fix  ", style="dim")
            text.append(finding.fix[0] + "\n")
    text.rstrip()
    return text
