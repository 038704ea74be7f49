"""`diskdoctor advise` as text: findings grouped by subject, evidence with sources, fix, risk, verify."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from ..core.findings.finding import Finding
from ..core.findings.order import FindingGroup, grouped
from ..core.findings.vocabulary import Severity

LABEL_WIDTH = 9
INDENT = 4


def _hanging(console: Console, first: Text, body: Text, indent: int) -> None:
    """`first` then `body` wrapped to the console width, continuation lines indented by `indent`."""
    width = max(20, console.width - max(indent, first.cell_len))
    for number, line in enumerate(body.wrap(console, width, overflow="fold")):
        line.rstrip()
        prefix = first if number == 0 else Text(" " * indent)
        console.print(prefix + line, soft_wrap=True)


def _labelled(console: Console, label: str, body: Text) -> None:
    """A hanging-indent row: the label, then the body wrapped to the console width."""
    _hanging(console, Text(" " * INDENT + f"{label:<{LABEL_WIDTH}} ", "bold"), body, INDENT + LABEL_WIDTH + 1)


def _command(console: Console, label: str, line: str) -> None:
    """A command on one unwrapped line (copyable), a '# ...' note dimmed."""
    style = "dim" if line.startswith("#") else "bold"
    text = Text(" " * INDENT + f"{label:<{LABEL_WIDTH}} ", style="bold")
    text.append(line, style)
    console.print(text, soft_wrap=True)


def print_finding(console: Console, finding: Finding) -> None:
    """One finding: severity, id and title, then evidence, why, fix, risk and verify."""
    head = Text("  ")
    head.append(f" {finding.severity.value.upper()} ", finding.severity.badge_style)
    _hanging(console, head, Text.assemble((finding.id, "bold"), "  ", finding.title), INDENT)
    for item in finding.evidence:
        body = Text(f"{item.what}: ")
        body.append(item.value, "bold")
        body.append(f"  ({item.source})", "dim")
        _labelled(console, "evidence", body)
    if finding.why:
        _labelled(console, "why", Text(finding.why))
    for line in finding.fix:
        _command(console, "fix", line)
    if finding.risk:
        _labelled(console, "risk", Text(finding.risk))
    for line in finding.verify:
        _command(console, "verify", line)


def print_group(console: Console, group: FindingGroup) -> None:
    """A subject heading and its findings, most severe first."""
    console.print()
    console.print(f"[bold underline]{escape(group.subject)}[/]")
    for finding in group.findings:
        print_finding(console, finding)


def summary_line(findings: list[Finding]) -> str:
    """'3 findings: 1 crit, 1 warn, 1 info' (or 'no findings')."""
    if not findings:
        return "no findings: nothing in the catalog applies to this host"
    counts = [f"{sum(1 for f in findings if f.severity is s)} {s.value}" for s in Severity
              if any(f.severity is s for f in findings)]
    return f"{len(findings)} finding{'s' if len(findings) != 1 else ''}: {', '.join(reversed(counts))}"


def print_advice(console: Console, findings: list[Finding], header: str) -> None:
    """The whole report: a header, every group, and the count by severity."""
    console.print(Text(header, "bold"))
    for group in grouped(findings):
        print_group(console, group)
    console.print()
    console.print(summary_line(findings))
