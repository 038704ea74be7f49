"""`--json` output: indented on a terminal or with `--pretty`, compact into a pipe (a fifth of the time)."""

from __future__ import annotations

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
        import json

        return json.dumps(document, indent=2)
    return compact_json(document)


def compact_json(document: object) -> str:
    """What `json.dumps(document, separators=(",", ":"))` returns, made by the C encoder that `json.dumps`
    itself uses for it, without importing the `json` package (its decoder and scanner: ~1 ms of every
    `--json` start-up into a pipe). Where that encoder is missing or takes other arguments, `json.dumps`."""
    try:
        from _json import encode_basestring_ascii, make_encoder

        # markers (check_circular), default, encoder, indent, separators, sort_keys, skipkeys, allow_nan
        encode = make_encoder({}, _not_serializable, encode_basestring_ascii, None, ":", ",",
                              False, False, True)
    except (ImportError, TypeError):  # pragma: no cover  (another interpreter's json)
        import json

        return json.dumps(document, separators=(",", ":"))
    if isinstance(document, str):  # as JSONEncoder.encode
        return encode_basestring_ascii(document)
    return "".join(encode(document, 0))


def _not_serializable(value: object) -> object:
    """JSONEncoder.default's error, word for word."""
    raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")
