"""The JSON Schema (draft 2020-12) of `diskdoctor report -o FILE.json`, the contract the README documents."""

from __future__ import annotations

_NULLABLE_STRING = {"type": ["string", "null"]}
_STRINGS = {"type": "array", "items": {"type": "string"}}

HOST = {
    "type": "object",
    "required": ["hostname", "kernel", "distribution", "tool_version", "source"],
    "properties": {"hostname": _NULLABLE_STRING, "kernel": _NULLABLE_STRING,
                   "distribution": _NULLABLE_STRING, "tool_version": {"type": "string"},
                   "source": {"type": "string", "description": '"live" or "capture NAME"'}},
    "additionalProperties": False,
}
FINDING = {
    "type": "object",
    "required": ["id", "severity", "subject", "title", "evidence", "why", "fix", "risk", "verify"],
    "properties": {
        "id": {"type": "string"}, "severity": {"enum": ["info", "warn", "crit"]},
        "subject": {"type": "string"}, "title": {"type": "string"},
        "evidence": {"type": "array", "items": {
            "type": "object", "required": ["what", "value", "source"],
            "properties": {"what": {"type": "string"}, "value": {"type": "string"},
                           "source": {"type": "string"}}, "additionalProperties": False}},
        "why": {"type": "string"}, "fix": _STRINGS, "risk": _NULLABLE_STRING, "verify": _STRINGS},
    "additionalProperties": False,
}
TRIM = {
    "type": "object",
    "required": ["mountpoint", "fstype", "verdict", "summary", "layers", "problems"],
    "properties": {"verdict": {"enum": ["ok", "blocked", "unsupported", "unscheduled", "unknown"]},
                   "mountpoint": {"type": "string"}, "summary": {"type": "string"},
                   "layers": {"type": "array"}, "problems": {"type": "array"}},
}
DEVICE = {
    "type": "object",
    "required": ["name", "kname", "type", "children"],
    "properties": {"name": {"type": "string"}, "type": {"type": "string"},
                   "children": {"type": "array", "items": {"$ref": "#/$defs/device"}}},
}
METRIC = {
    "type": "object", "required": ["key", "label", "unit", "value"],
    "properties": {"key": {"type": "string"}, "label": {"type": "string"},
                   "unit": {"enum": ["ms", "ops/s", "MB/s"]}, "value": {"type": ["number", "null"]}},
    "additionalProperties": False,
}
RUN = {
    "type": "object",
    "required": ["id", "kind", "title", "saved_at", "host", "stack", "params", "params_text", "threshold",
                 "verdict", "metrics", "result"],
    "properties": {
        "id": {"type": "string"}, "kind": {"type": "string"}, "title": {"type": "string"},
        "saved_at": {"type": "string", "format": "date-time"}, "host": HOST,
        "stack": {"type": "object", "required": ["target", "mount_options", "layers"]},
        "params": {"type": "object"}, "params_text": {"type": "string"},
        "threshold": {"type": ["number", "null"],
                      "description": "ms (MB/s for compaction); null: not judged"},
        "verdict": {"oneOf": [{"type": "null"}, {
            "type": "object", "required": ["pass", "line"],
            "properties": {"pass": {"type": "boolean"}, "line": {"type": "string"}}}]},
        "metrics": {"type": "array", "items": METRIC},
        "result": {"type": "object", "description": "the kind's own `bench KIND --json` document"}},
    "additionalProperties": False,
}
REPORT_SCHEMA: dict[str, object] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "diskdoctor report",
    "type": "object",
    "required": ["format", "format_version", "generated_at", "host", "devices", "trim", "findings", "runs",
                 "notes"],
    "properties": {
        "format": {"const": "diskdoctor-report"}, "format_version": {"const": 1},
        "generated_at": {"type": "string", "format": "date-time"}, "host": HOST,
        "devices": {"type": "array", "items": {"$ref": "#/$defs/device"}},
        "trim": {"type": "array", "items": TRIM}, "findings": {"type": "array", "items": FINDING},
        "runs": {"type": "array", "items": RUN}, "notes": _STRINGS},
    "additionalProperties": False,
    "$defs": {"device": DEVICE},
}
