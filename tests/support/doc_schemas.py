"""The JSON Schemas under docs/schemas/ (the one source of every JSON output's structure), for tests to
validate real outputs against: `validate("devices", document)`, or `validate_cli_output(argv, stdout)`."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import jsonschema
from referencing import Registry, Resource

SCHEMAS = Path(__file__).resolve().parent.parent.parent / "docs" / "schemas"
SUFFIX = ".schema.json"
BENCH_KINDS = ("wal", "compaction", "randwrite", "interference")


@cache
def registry() -> Registry:
    """Every schema file, under its file name, so relative `$ref`s between the files resolve."""
    resources = [(path.name, Resource.from_contents(json.loads(path.read_text())))
                 for path in sorted(SCHEMAS.glob(f"*{SUFFIX}"))]
    return Registry().with_resources(resources)


def schema_names() -> list[str]:
    """`devices`, `trim`, ... : one per file."""
    return [path.name.removesuffix(SUFFIX) for path in sorted(SCHEMAS.glob(f"*{SUFFIX}"))]


@cache
def validator(name: str) -> jsonschema.Draft202012Validator:
    """A validator for `docs/schemas/NAME.schema.json` (formats checked where jsonschema can)."""
    schema = registry().contents(f"{name}{SUFFIX}")
    return jsonschema.Draft202012Validator(schema, registry=registry(),
                                           format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)


def validate(name: str, document: object) -> None:
    """Raise AssertionError naming the first violation (its path and message) when `document` does not fit."""
    error = jsonschema.exceptions.best_match(validator(name).iter_errors(document))
    if error is not None:
        where = "/".join(str(part) for part in error.absolute_path) or "(top)"
        raise AssertionError(f"output does not fit docs/schemas/{name}{SUFFIX} at {where}: {error.message}")


def schema_for(argv: tuple[str, ...]) -> str | None:
    """Which schema a `diskdoctor ARGV` command's standard output follows, if it prints JSON."""
    words = [word for index, word in enumerate(argv)
             if not word.startswith("-") and (index == 0 or argv[index - 1] != "--sysroot")]
    command, action = (words + [None, None])[:2]
    if command in ("monitor", "watch") and "--json-lines" in argv:
        return command
    if "--json" not in argv:
        return None
    if command in ("devices", "advise") or (command == "trim" and "--run" not in argv):
        return command
    if command == "bench" and action in BENCH_KINDS:
        return f"bench-{action}"
    if command == "runs" and action in ("list", "compare"):
        return f"runs-{action}"
    if command == "runs" and action == "show" and (SCHEMAS / f"run{SUFFIX}").exists():
        return "run"
    return None


def validate_cli_output(argv: tuple[str, ...], stdout: str) -> None:
    """Validate the JSON a command printed with exit 0, 1 or 3; each line for monitor --json-lines."""
    name = schema_for(argv)
    if name is None or not stdout.strip():
        return
    lines = name in ("monitor", "watch")
    documents = ([json.loads(line) for line in stdout.splitlines() if line.strip()] if lines
                 else [json.loads(stdout)])
    for document in documents:
        validate(name, document)
