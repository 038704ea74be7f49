"""The run file format as a JSON Schema (docs/schemas/run.schema.json, shipped as `diskdoctor.schemas`):
every field of a saved run is checked by type before it is loaded, so a damaged file is named and skipped.

fastjsonschema compiles the schema to Python once per process (~70 ms) and then checks a run file in
0.3-3 ms; jsonschema cost 50-150 ms to import and 4-60 ms per run file (docs/figures.md).
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import math
import re
from collections.abc import Callable
from typing import Any, NoReturn

from diskdoctor.probes.host_text import visible

from ..bench.kinds import KINDS

SCHEMA_PACKAGE = "diskdoctor.schemas"
SCHEMA_FILE = "run.schema.json"
SHOWN_VALUE_CHARS = 40
"""A wrong value is quoted up to this many characters (a run file is untrusted and may hold anything)."""
SHOWN_FIELD_CHARS = 200
JSON_TYPES = {"number": "a number", "integer": "a whole number", "string": "text", "boolean": "true or false",
              "null": "null", "object": "an object", "array": "a list"}


def run_schema() -> dict[str, Any]:
    """The schema document, read from the package (or the one-file binary) with importlib.resources."""
    text = importlib.resources.files(SCHEMA_PACKAGE).joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def _no_remote_refs(uri: str) -> NoReturn:
    raise ValueError(f"the run schema refers to {uri}: only references inside the schema are followed")


def _compiled_form(schema: dict[str, Any]) -> dict[str, Any]:
    """The same schema with its root moved under $defs and referenced: fastjsonschema writes the schema of
    each rule into the code that raises its error, and the root's holds all of $defs (80 KB, twice), so
    compiling this form takes 70 ms instead of 160."""
    schema = dict(schema)
    defs = schema.pop("$defs", {})
    head = {key: schema.pop(key) for key in ("$schema", "$id") if key in schema}
    return {**head, "$ref": "#/$defs/run_file", "$defs": {**defs, "run_file": schema}}


def with_kinds(schema: dict[str, Any], records: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """`schema` also accepting the kinds in `records` (workloads the kinds table has and the file does not
    list), each run's record checked against its kind's record schema."""
    if not records:
        return schema
    kind = schema["properties"]["kind"]
    properties = {**schema["properties"], "kind": {**kind, "enum": [*kind["enum"], *records]}}
    rules = [{"if": {"required": ["kind"], "properties": {"kind": {"const": name}}},
              "then": {"properties": {"record": record}}} for name, record in records.items()]
    return {**schema, "properties": properties, "allOf": [*schema.get("allOf", []), *rules]}


@functools.cache
def _listed_kinds() -> frozenset[str]:
    return frozenset(run_schema()["properties"]["kind"]["enum"])


@functools.cache
def _validator(extra: tuple[str, ...] = ()) -> Callable[[object], object]:
    """The compiled validator, also for the `extra` kinds of the kinds table (fastjsonschema is imported
    only when a run file is read)."""
    import fastjsonschema

    records = {name: KINDS[name].record_schema or {"type": "object"} for name in extra}
    refuse = dict.fromkeys(("http", "https", "file", "ftp", ""), _no_remote_refs)  # never fetch anything
    compiled = _compiled_form(with_kinds(run_schema(), records))
    return fastjsonschema.compile(compiled, handlers=refuse)  # type: ignore[no-any-return]


def _field(name: str) -> str:
    """fastjsonschema's "data.record.verdict" as "record.verdict" ("data" alone is the whole file)."""
    field = re.sub(r"^data\.?", "", name or "data") or "the file"
    return field if len(field) <= SHOWN_FIELD_CHARS else field[:SHOWN_FIELD_CHARS] + "…"


def json_type(value: object) -> str:
    """"text", "a number", "null"... as the file holds it."""
    if isinstance(value, bool):
        return JSON_TYPES["boolean"]
    if isinstance(value, (int, float)):
        return JSON_TYPES["number"]
    names = {str: "string", dict: "object", list: "array", type(None): "null"}
    return JSON_TYPES[names.get(type(value), "object")]


def shown_value(value: object) -> str:
    """A wrong value for a one-line message: quoted text (made visible, cut short), a number, or its type."""
    if isinstance(value, str):
        text = visible(value)
        return repr(text if len(text) <= SHOWN_VALUE_CHARS else text[:SHOWN_VALUE_CHARS] + "…")
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, (int, float)):
        text = repr(value)
        return text if len(text) <= SHOWN_VALUE_CHARS else f"{text[:SHOWN_VALUE_CHARS]}…"
    return json_type(value)


def _types(definition: object) -> str:
    wanted = definition.get("type") if isinstance(definition, dict) else None
    names = wanted if isinstance(wanted, list) else [wanted]
    return " or ".join(JSON_TYPES.get(str(name), str(name)) for name in names)


def _bad_key(value: object, rule: object) -> str | None:
    """The first key of an object that its `propertyNames` rule refuses."""
    if not isinstance(value, dict) or not isinstance(rule, dict):
        return None
    for key in value:
        if "pattern" in rule and not re.search(str(rule["pattern"]).replace("$", r"\Z"), key):  # JSON's $
            return key
        if "enum" in rule and key not in rule["enum"]:
            return key
    return None


def explain(err: Any) -> str:
    """One line for a fastjsonschema error: the field, what it must be, and what the file holds."""
    field, value, rule = _field(err.name), err.value, err.rule
    definition = err.definition if isinstance(err.definition, dict) else {}
    if rule == "required" and isinstance(value, dict):
        missing = [key for key in definition.get("required", []) if key not in value]
        prefix = "" if field == "the file" else f"{field}."
        return f"missing field {visible(prefix + missing[0])!r}" if missing else f"{field} lacks a field"
    if rule == "type":
        return f"{field} must be {_types(definition)}, not {shown_value(value)}"
    if rule in ("enum", "const"):
        allowed = " or ".join(json.dumps(item) for item in definition.get("enum", [definition.get("const")]))
        return f"{field} must be {allowed}, not {shown_value(value)}"
    bounds = {"minimum": "at least", "exclusiveMinimum": "more than", "maximum": "at most",
              "exclusiveMaximum": "less than"}
    if rule in bounds:
        return f"{field} must be {bounds[rule]} {definition.get(rule):g}, not {shown_value(value)}"
    if rule == "pattern":
        return f"{field} is not in the expected form ({shown_value(value)})"
    if rule == "propertyNames":
        key = _bad_key(value, definition.get("propertyNames"))
        return f"{field} has an unexpected key {shown_value(key)}" if key is not None else \
            f"{field} has an unexpected key"
    if rule == "additionalProperties" and isinstance(value, dict):
        known = definition.get("properties", {})
        extra = [key for key in value if key not in known]
        return f"{field} has an unknown field {shown_value(extra[0]) if extra else ''}".rstrip()
    return visible(str(err.message).replace("data.", "", 1))


def non_finite(document: object) -> str | None:
    """The field holding NaN or Infinity (Python's json reads them, JSON has no such numbers), or None."""
    pending: list[tuple[str, object]] = [("", document)]
    while pending:
        path, value = pending.pop()
        if isinstance(value, float) and not math.isfinite(value):
            return path or "the file"
        if isinstance(value, dict):
            pending += [(f"{path}.{key}" if path else str(key), item) for key, item in value.items()]
        elif isinstance(value, list):
            pending += [(f"{path}[{index}]", item) for index, item in enumerate(value)]
    return None


def schema_problem(document: object) -> str | None:
    """Why `document` is not a run file of this format ("record.verdict.threshold_ms must be a number,
    not 's'"), or None when every field has its type."""
    import fastjsonschema

    try:
        _validator(tuple(name for name in KINDS if name not in _listed_kinds()))(document)
    except fastjsonschema.JsonSchemaValueException as err:
        return visible(explain(err))
    where = non_finite(document)
    return None if where is None else f"{visible(where)} is not a number (NaN or Infinity)"
