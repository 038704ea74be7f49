"""`--json` output: indented on a terminal or with `--pretty`, compact into a pipe (a fifth of the time)."""

from __future__ import annotations

import json
import sys

TYPE_CHECKING = False  # not typing's, and argparse only for the hints: `devices --json` loads neither
if TYPE_CHECKING:
    import argparse

JSON_HELP = "print JSON (schema: man diskdoctor)"
PRETTY_HELP = "indent the JSON into a pipe or file too (compact there otherwise, indented on a terminal)"


def add_json_options(parser: argparse.ArgumentParser, help_text: str = JSON_HELP) -> None:
    """`--json` and its `--pretty`."""
    parser.add_argument("--json", action="store_true", help=help_text)
    parser.add_argument("--pretty", action="store_true", help=PRETTY_HELP)


def json_text(document: object, args: argparse.Namespace) -> str:
    """`document` as JSON for stdout: indented for a person, compact for a program reading a pipe."""
    if getattr(args, "pretty", False) or sys.stdout.isatty():
        return json.dumps(document, indent=2)
    return json.dumps(document, separators=(",", ":"))
