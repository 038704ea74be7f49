"""A verdict's outcome in one word and one colour for every display (CLI, TUI, reports, saved runs), and a
run's sections as its result document carries them, so every place shows INCONCLUSIVE the same way."""

from __future__ import annotations

from typing import Any

from diskdoctor.probes.latency_histogram import LatencyHistogram

PASS, FAIL, INCONCLUSIVE = "pass", "fail", "inconclusive"
"""The outcomes (as uncertainty.py names them; kept here too so every display imports one small module)."""
WORDS = {PASS: "PASS", FAIL: "FAIL", INCONCLUSIVE: "INCONCLUSIVE"}
STYLES = {PASS: "green", FAIL: "red", INCONCLUSIVE: "yellow"}
"""The colour of each outcome (Rich style names; the TUI and the HTML report use the same three)."""

Sections = dict[str, list[list[LatencyHistogram]]]
"""A run's sections per figure key (probes.engine.sections.section_key): one list per repeat."""


def outcome_of_verdict(verdict: Any) -> str:
    """"pass", "fail" or "inconclusive" of any verdict object (it has `passed`, and `result` when it knows
    its interval)."""
    result = getattr(verdict, "result", None)
    if result in WORDS:
        return str(result)
    return PASS if verdict.passed else FAIL


def verdict_word(verdict: Any) -> str:
    """"PASS", "FAIL" or "INCONCLUSIVE"."""
    return WORDS[outcome_of_verdict(verdict)]


def verdict_style(verdict: Any) -> str:
    """"green", "red" or "yellow"."""
    return STYLES[outcome_of_verdict(verdict)]


def with_sections(document: dict[str, object], sections: Sections | None,
                  repeats: int = 1) -> dict[str, object]:
    """The document with the run's sections per figure (each repeat's in order) and its number of repeats;
    a run saved before sections existed is left as it was."""
    if sections is None:
        return document
    document["repeats"] = repeats
    document["sections"] = {key: [[part.to_json() for part in run] for run in runs]
                            for key, runs in sections.items()}
    return document


def sections_from_json(document: dict[str, object]) -> Sections | None:
    """The sections a result document carries (None: saved before them)."""
    data = document.get("sections")
    if not isinstance(data, dict):
        return None
    return {str(key): [[LatencyHistogram.from_json(part) for part in run] for run in runs]  # type: ignore[union-attr]
            for key, runs in data.items()}


def repeats_of(document: dict[str, object]) -> int:
    """How many runs the document merges (1 for a single run or one saved before repeats)."""
    repeats = document.get("repeats")
    return repeats if isinstance(repeats, int) and not isinstance(repeats, bool) and repeats > 0 else 1
