"""The typed words every screen, report and the CLI share (severity, verdicts), with one style map."""

from __future__ import annotations

from enum import Enum


class Word(str, Enum):
    """A vocabulary word: compares equal to its plain string value and prints as it."""

    def __str__(self) -> str:
        return str(self.value)

    @property
    def style(self) -> str:
        """The Rich style every screen and the CLI use for this word."""
        return STYLES.get(self.value, "bold")

    @property
    def badge_style(self) -> str:
        """The style of a word shown as a badge (inverse block, e.g. on a finding card)."""
        return BADGE_STYLES.get(self.value, "reverse")


class Severity(Word):
    """How bad a finding is: info (no action needed), warn (costs performance), crit (risks data)."""

    INFO = "info"
    WARN = "warn"
    CRIT = "crit"

    @property
    def rank(self) -> int:
        """0 for crit, 1 for warn, 2 for info: sort key, most severe first."""
        return {"crit": 0, "warn": 1, "info": 2}[self.value]

    @property
    def fails_check(self) -> bool:
        """Whether `advise` exits 1 because of it (warn and crit do)."""
        return self is not Severity.INFO


class TrimOutcome(Word):
    """The TRIM verdict for one filesystem."""

    OK = "ok"
    BLOCKED = "blocked"
    UNSUPPORTED = "unsupported"
    UNSCHEDULED = "unscheduled"
    UNKNOWN = "unknown"


class BenchOutcome(Word):
    """The verdict of a benchmark against its threshold."""

    PASS = "pass"
    FAIL = "fail"


STYLES = {
    "crit": "bold red", "warn": "bold yellow", "info": "cyan",
    "ok": "bold green", "blocked": "bold red", "unsupported": "yellow", "unscheduled": "bold yellow",
    "unknown": "magenta", "pass": "bold green", "fail": "bold red",
}
BADGE_STYLES = {"crit": "bold white on red", "warn": "bold black on yellow", "info": "bold black on cyan",
                "pass": "bold black on green", "fail": "bold white on red"}
