"""A report in the format its file name asks for: JSON, Markdown or HTML (the CLI and the TUI dialog)."""

from __future__ import annotations

import json

from .html_report import html_report
from .json_report import report_document
from .markdown_report import markdown_report
from .model import Report


def render_report(report: Report, kind: str) -> str:
    """The report in one of the three formats."""
    if kind == "json":
        return json.dumps(report_document(report), indent=2) + "\n"
    return markdown_report(report) if kind == "markdown" else html_report(report)
