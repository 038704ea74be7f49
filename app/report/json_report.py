"""The JSON report: the report model as one document (its JSON Schema: docs/schemas/report.schema.json)."""

from __future__ import annotations

import json

from ..core.runs.record import SavedRun
from ..core.runs.render_guard import RunRenderError, rendering
from ..core.stack.devices_json import devices_document
from ..core.trim.doctor import verdict_json
from .model import Report

FORMAT = "diskdoctor-report"
FORMAT_VERSION = 1


def run_json(run: SavedRun) -> dict[str, object]:
    """A run as a report shows it: identity, fingerprints, parameters, verdict, metrics, the result."""
    kind = run.kind_info
    verdict = run.verdict()
    return {"id": run.id, "kind": run.kind, "title": kind.title, "saved_at": run.saved_at.isoformat(),
            "host": run.host.to_json(), "stack": run.stack.to_json(),
            "params": run.params.to_json(),  # type: ignore[attr-defined]
            "params_text": kind.params_text(run.record), "threshold": run.threshold,
            "verdict": None if verdict is None else {"pass": verdict.passed, "outcome": verdict.result,
                                                     "line": verdict.line, "settle": verdict.settle,
                                                     "interval_note": verdict.interval_note},
            "caveats": run.record.caveats().to_json(),
            "metrics": [{"key": m.key, "label": m.label, "unit": m.unit,
                         "value": None if m.value is None else round(m.value, 4)}
                        for m in kind.metrics(run.record)],
            "result": run.record.to_json()}


def report_document(report: Report) -> dict[str, object]:
    """The whole report as JSON-ready data; a run that cannot be rendered is left out and named in the
    notes (the rest of the report is still written)."""
    runs, notes = [], list(report.notes)
    for run in report.runs:
        try:
            with rendering(f"run {run.id}"):
                entry = run_json(run)
                json.dumps(entry, allow_nan=False)  # NaN would make the whole file invalid JSON
                runs.append(entry)
        except RunRenderError as err:
            notes.append(str(err))
    return {"format": FORMAT, "format_version": FORMAT_VERSION,
            "generated_at": report.generated_at.isoformat(), "host": report.fingerprint.to_json(),
            "devices": devices_document(report.host)["devices"],
            "trim": [verdict_json(verdict) for verdict in report.verdicts],
            "findings": [finding.to_json() for finding in report.findings],
            "runs": runs, "notes": notes}
