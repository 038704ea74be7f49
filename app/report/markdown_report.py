"""The Markdown report: renders in a ticket system, plotext charts in code blocks, host text escaped."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..core.findings.finding import Finding
from ..core.findings.order import grouped
from ..core.runs.render_guard import RunRenderError, rendering
from ..text.latency_charts import histogram_text_chart, percentile_text_chart
from .sections import (
    STACK_COLUMNS,
    fingerprint_rows,
    run_rows,
    run_title,
    severity_counts,
    stack_rows,
)

if TYPE_CHECKING:
    from ..core.runs.record import SavedRun
    from .model import Report

_INLINE_SPECIAL = re.compile(r"([\\`*_\[\]|~])")
"""Characters that start emphasis, code, links, tables or strikethrough anywhere in a line."""
_LINE_START_SPECIAL = re.compile(r"^(\s*)([#+\-=>])")
_ORDERED_ITEM = re.compile(r"^(\s*\d+)([.)])(?=\s|$)")
"""What makes a line a heading, list, rule or quote when it starts it."""


def md_text(text: str) -> str:
    """Host text as literal Markdown: markup characters backslash-escaped, HTML characters as entities."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\n", " ")
    text = _INLINE_SPECIAL.sub(r"\\\1", text)
    text = _LINE_START_SPECIAL.sub(lambda m: m[1] + "\\" + m[2], text)
    return _ORDERED_ITEM.sub(lambda m: m[1] + "\\" + m[2], text)


def md_code(text: str) -> str:
    """Inline code that no backtick inside can end early."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    padded = f" {text} " if text.startswith("`") or text.endswith("`") else text
    return f"{fence}{padded}{fence}"


def md_block(text: str, info: str = "text") -> list[str]:
    """A fenced code block whose fence is longer than any backtick run in `text`."""
    longest = max((len(run) for run in re.findall(r"`{3,}", text)), default=2)
    fence = "`" * (longest + 1)
    return [fence + info, text.rstrip("\n"), fence, ""]


def md_table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    """A pipe table with every cell escaped."""
    lines = ["| " + " | ".join(md_text(cell) for cell in header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(md_text(cell) or " " for cell in row) + " |" for row in rows]
    return lines + [""]


def _finding(finding: Finding) -> list[str]:
    lines = [f"#### {finding.severity.value.upper()}: {md_text(finding.title)} ({md_code(finding.id)})", ""]
    if finding.why:
        lines += [md_text(finding.why), ""]
    if finding.evidence:
        lines += md_table(("evidence", "value", "source"),
                          [(item.what, item.value, item.source) for item in finding.evidence])
    if finding.fix:
        lines += ["**Fix:**", ""] + md_block("\n".join(finding.fix), "sh")
    if finding.risk:
        lines += [f"**Risk:** {md_text(finding.risk)}", ""]
    if finding.verify:
        lines += ["**Verify:**", ""] + [f"- {md_code(step)}" for step in finding.verify] + [""]
    return lines


def _findings(report: Report) -> list[str]:
    lines = [f"## Findings ({severity_counts(report)})", ""]
    if not report.findings:
        return lines + ["No findings: nothing the advisor checks is wrong here.", ""]
    for group in grouped(report.findings):
        lines += [f"### {md_text(group.subject)}", ""]
        for finding in group.findings:
            lines += _finding(finding)
    return lines


def _trim(report: Report) -> list[str]:
    lines = ["## TRIM", ""]
    if not report.verdicts:
        return lines + ["No mounted filesystem on a block device.", ""]
    rows = [(v.mountpoint, v.fstype, v.verdict.value.upper(), v.summary) for v in report.verdicts]
    return lines + md_table(("filesystem", "type", "verdict", "why"), rows)


def _run(run: SavedRun) -> list[str]:
    """A run's section; one that cannot be rendered says so and why, and the report goes on."""
    try:
        with rendering(f"run {run.id}"):
            return _run_section(run)
    except RunRenderError as err:
        return [f"### Run {md_text(run.id)}: damaged, not shown", "", md_text(str(err)), ""]


def _run_section(run: SavedRun) -> list[str]:
    lines = [f"### {md_text(run_title(run))}", ""]
    lines += md_table(("", ""), run_rows(run))
    curves = run.kind_info.curves(run.record)
    if curves:
        limit = run.latency_threshold
        chart = percentile_text_chart(f"{curves[0].label} latency", [(run.id, curves[0].histogram)], limit)
        lines += md_block(chart)
        lines += md_block(histogram_text_chart(f"{curves[0].label} latency histogram", curves[0].histogram))
    return lines


def markdown_report(report: Report) -> str:
    """The whole report as Markdown (CommonMark with pipe tables)."""
    name = report.fingerprint.hostname or "unknown host"
    lines = [f"# diskdoctor report: {md_text(name)}", ""]
    lines += md_table(("", ""), fingerprint_rows(report))
    lines += _findings(report)
    lines += _trim(report)
    lines += ["## Storage stack", ""] + md_table(STACK_COLUMNS, stack_rows(report.host))
    lines += ["## Benchmark runs", ""]
    if not report.runs:
        lines += ["No saved benchmark run of this host was included (`diskdoctor report --run ID`).", ""]
    for run in report.runs:
        lines += _run(run)
    if report.notes:
        lines += ["## Notes", ""] + [f"- {md_text(note)}" for note in report.notes] + [""]
    return "\n".join(lines).rstrip("\n") + "\n"
