"""A judged run's findings (core/bench/verdict.py) in the Advice screen's words: the severity badge, the
finding's id and title, the first advice and the first fix command, so the two screens never disagree."""

from __future__ import annotations

from rich.text import Text

from ..core.findings.finding import Finding


def advice_text(findings: list[Finding]) -> Text:
    """Each finding as a badge, its id and title, its first advice and first command; a line when none."""
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
        for label, line in first_advice_and_command(finding.fix):
            text.append(f"  {label}  ", style="dim")
            text.append(line + "\n")
    text.rstrip()
    return text


def first_advice_and_command(fix: tuple[str, ...] | list[str]) -> list[tuple[str, str]]:
    """The first piece of advice ("do ", a `#` line in words) and the first command ("fix") of a fix block,
    so the short form never shows a shell comment where a command is expected."""
    advice = next((line.lstrip("# ").strip() for line in fix if line.lstrip().startswith("#")), None)
    command = next((line for line in fix if not line.lstrip().startswith("#")), None)
    return [(label, line) for label, line in (("do ", advice), ("fix", command)) if line]
