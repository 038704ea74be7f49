"""The HTML report: one self-contained file (no network, no scripts), host strings escaped, SVG charts."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from ..core.findings.finding import Finding
from ..core.findings.order import grouped
from ..core.runs.render_guard import RunRenderError, rendering
from ..text.chart import Series
from ..text.latency_charts import CHART_PERCENTILES, band_counts, percentile_points_ms
from .sections import STACK_COLUMNS, fingerprint_rows, run_rows, run_title, severity_counts, stack_rows
from .svg_charts import histogram_svg, percentile_svg

if TYPE_CHECKING:
    from ..core.runs.record import SavedRun
    from .model import Report

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
"""Nothing may be fetched and nothing may run, even if a host string were to slip through unescaped."""
STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 72em; padding: 0 1em;
       color: #1b1f24; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #d0d7de; padding-bottom: .2em; margin-top: 2em; }
table { border-collapse: collapse; margin: .5em 0 1em; }
th, td { border: 1px solid #d0d7de; padding: .25em .6em; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
table.stack td { font-family: ui-monospace, monospace; white-space: pre; border: none; padding: 0 .8em 0 0; }
table.stack th { border: none; background: none; padding: 0 .8em 0 0; }
pre { white-space: pre; background: #f6f8fa; padding: .6em .8em; overflow-x: auto; border-radius: 4px; }
.finding { border-left: 4px solid #d0d7de; padding: .2em 1em; margin: 1em 0; }
.sev { font-weight: bold; padding: 0 .4em; border-radius: 3px; color: #fff; }
.sev-crit { background: #cf222e; } .finding.sev-crit { border-left-color: #cf222e; background: none; }
.sev-warn { background: #9a6700; } .finding.sev-warn { border-left-color: #d4a72c; background: none; }
.sev-info { background: #0969da; } .finding.sev-info { border-left-color: #0969da; background: none; }
.verdict-ok, .pass { color: #1a7f37; font-weight: bold; }
.verdict-blocked, .fail { color: #cf222e; font-weight: bold; }
.verdict-unscheduled, .verdict-unsupported, .verdict-unknown { color: #9a6700; font-weight: bold; }
svg.chart { display: block; margin: .5em 0; max-width: 100%; height: auto; font: 11px sans-serif; }
.plot-area { fill: #fff; stroke: #d0d7de; } .grid { stroke: #eaeef2; }
.tick, .legend, .count { fill: #57606a; } .chart-title { font-weight: bold; fill: #1b1f24; }
.limit { stroke: #cf222e; stroke-dasharray: 6 4; } .limit-label { fill: #cf222e; }
.bar { fill: #1f6feb; }
.muted { color: #57606a; }
"""


def _table(rows: list[tuple[str, str]], header: tuple[str, ...] | None = None) -> str:
    head = "" if header is None else "<tr>" + "".join(f"<th>{escape(h)}</th>" for h in header) + "</tr>"
    body = "".join("<tr>" + f"<th>{escape(label)}</th><td>{escape(value)}</td>" + "</tr>"
                   for label, value in rows)
    return f"<table>{head}{body}</table>"


def _finding(finding: Finding) -> str:
    severity = finding.severity.value
    parts = [f'<div class="finding sev-{severity}">',
             f'<h4><span class="sev sev-{severity}">{escape(severity.upper())}</span> '
             f'{escape(finding.title)} <code>{escape(finding.id)}</code></h4>']
    if finding.why:
        parts.append(f"<p>{escape(finding.why)}</p>")
    if finding.evidence:
        rows = "".join(f"<tr><td>{escape(e.what)}</td><td>{escape(e.value)}</td>"
                       f"<td>{escape(e.source)}</td></tr>" for e in finding.evidence)
        parts.append(f"<table><tr><th>evidence</th><th>value</th><th>source</th></tr>{rows}</table>")
    if finding.fix:
        # never wrapped (a long line scrolls sideways): a wrapped comment would read as a command
        parts.append(f'<p><b>Fix:</b></p><pre class="commands"><code>{escape(chr(10).join(finding.fix))}'
                     "</code></pre>")
    if finding.risk:
        parts.append(f"<p><b>Risk:</b> {escape(finding.risk)}</p>")
    if finding.verify:
        steps = escape(chr(10).join(finding.verify))
        parts.append(f'<p><b>Verify:</b></p><pre class="commands"><code>{steps}</code></pre>')
    parts.append("</div>")
    return "\n".join(parts)


def _findings(report: Report) -> str:
    parts = [f"<h2>Findings ({escape(severity_counts(report))})</h2>"]
    if not report.findings:
        parts.append("<p>No findings: nothing the advisor checks is wrong here.</p>")
    for group in grouped(report.findings):
        parts.append(f"<h3>{escape(group.subject)}</h3>")
        parts += [_finding(finding) for finding in group.findings]
    return "\n".join(parts)


def _trim(report: Report) -> str:
    if not report.verdicts:
        return "<h2>TRIM</h2><p>No mounted filesystem on a block device.</p>"
    rows = "".join(f"<tr><td>{escape(v.mountpoint)}</td><td>{escape(v.fstype)}</td>"
                   f'<td class="verdict-{escape(v.verdict.value)}">{escape(v.verdict.value.upper())}</td>'
                   f"<td>{escape(v.summary)}</td></tr>" for v in report.verdicts)
    return ("<h2>TRIM</h2><table><tr><th>filesystem</th><th>type</th><th>verdict</th><th>why</th></tr>"
            f"{rows}</table>")


def _stack(report: Report) -> str:
    head = "".join(f"<th>{escape(column)}</th>" for column in STACK_COLUMNS)
    rows = "".join("<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>"
                   for row in stack_rows(report.host))
    return f'<h2>Storage stack</h2><table class="stack"><tr>{head}</tr>{rows}</table>'


def _run(run: SavedRun) -> str:
    """A run's section; one that cannot be rendered says so and why, and the report goes on."""
    try:
        with rendering(f"run {run.id}"):
            return _run_section(run)
    except RunRenderError as err:
        return (f'<h3>Run {escape(run.id)}: damaged, not shown</h3>\n'
                f'<p class="fail">{escape(str(err))}</p>')


def _run_section(run: SavedRun) -> str:
    parts = [f"<h3>{escape(run_title(run))}</h3>", _table(run_rows(run))]
    curves = run.kind_info.curves(run.record)
    if curves:
        limit = run.latency_threshold
        labels = [label for label, _ in CHART_PERCENTILES]
        series = [Series(curve.label, percentile_points_ms(curve.histogram)) for curve in curves]
        parts.append(percentile_svg(labels, series, title="latency percentiles", threshold_ms=limit))
        parts.append(histogram_svg(band_counts(curves[0].histogram),
                                   title=f"{curves[0].label} latency histogram (whole run)"))
    return "\n".join(parts)


def html_report(report: Report) -> str:
    """The whole report as one HTML document."""
    name = report.fingerprint.hostname or "unknown host"
    runs = [_run(run) for run in report.runs] or [
        "<p>No saved benchmark run of this host was included (<code>diskdoctor report --run ID</code>).</p>"]
    notes = "".join(f"<li>{escape(note)}</li>" for note in report.notes)
    body = [f"<h1>diskdoctor report: {escape(name)}</h1>", _table(fingerprint_rows(report)),
            _findings(report), _trim(report), _stack(report), "<h2>Benchmark runs</h2>", *runs]
    if notes:
        body.append(f"<h2>Notes</h2><ul>{notes}</ul>")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>diskdoctor report: {escape(name)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")
