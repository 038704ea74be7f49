"""Which saved run a benchmark finding on Advice judges (the newest per kind and filesystem), on its card."""

from __future__ import annotations

import re
from dataclasses import replace

from ..core.findings.finding import Evidence, Finding

RUN_SOURCE = re.compile(r"^run (?P<id>[0-9A-Za-z][0-9A-Za-z-]*):")
"""An evidence source naming a saved run ("run 35b6: verdict.value_ms")."""
NEWEST_NOTE = "the newest run saved on this filesystem (older ones: 5 Runs)"
"""Why an older, worse run is not on Advice (newuser19: a newer run's finding replaced a FAIL's)."""


def judged_run(finding: Finding) -> str | None:
    """The id of the saved run `finding` judges, if its evidence comes from one."""
    found = next((RUN_SOURCE.match(e.source) for e in finding.evidence if RUN_SOURCE.match(e.source)), None)
    return found["id"] if found else None


def with_run_note(finding: Finding) -> Finding:
    """`finding` with an evidence line saying which run Advice judges, for a saved run's finding."""
    run = judged_run(finding)
    if run is None:
        return finding
    note = Evidence("judged", NEWEST_NOTE, f"run {run}")
    return replace(finding, evidence=(*finding.evidence, note))
