"""A finding: one problem, its evidence as facts with sources, why it matters, the fix, risk and verify."""

from __future__ import annotations

from dataclasses import dataclass, field

from diskdoctor.probes.facts import Fact
from diskdoctor.probes.host_text import CONTROL_NOTE, spells_control_characters

from .vocabulary import Severity


@dataclass(frozen=True, slots=True)
class Evidence:
    """One fact a finding rests on: what was looked at, the value seen, and where it was read."""

    what: str
    value: str
    source: str

    @classmethod
    def of(cls, what: str, fact: Fact[object]) -> Evidence:
        """Evidence from a probe Fact (an unknown value says why)."""
        value = "unknown: " + (fact.why_unknown or "not read") if fact.value is None else _shown(fact.value)
        return cls(what, value, fact.source)

    def to_json(self) -> dict[str, str]:
        """{"what", "value", "source"}."""
        return {"what": self.what, "value": self.value, "source": self.source}


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


@dataclass(frozen=True)
class Finding:
    """A problem the advisor found about `subject` (a mountpoint, device or benchmark run).

    `fix` lines are shell commands (names through host_text.shell_quote) or '# ...' instructions;
    `verify` lines say how to check that the fix worked. A command that spells a name with control
    characters as $'...' gets a '# ...' line saying so."""

    id: str
    severity: Severity
    subject: str
    title: str
    evidence: tuple[Evidence, ...] = ()
    why: str = ""
    fix: tuple[str, ...] = ()
    risk: str | None = None
    verify: tuple[str, ...] = field(default=())
    history: bool = False
    """About a saved run whose filesystem is not mounted now (its title says so): listed after the rest."""

    def __post_init__(self) -> None:
        commands = (*self.fix, *self.verify)
        if CONTROL_NOTE not in commands and any(map(spells_control_characters, commands)):
            object.__setattr__(self, "fix", (*self.fix, CONTROL_NOTE))

    @property
    def text(self) -> str:
        """Title and explanation as one paragraph (the TRIM report's `text`)."""
        title = self.title if self.title.endswith((".", ":", "!", "?")) else self.title + "."
        return f"{title} {self.why}".strip()

    def to_json(self) -> dict[str, object]:
        """The documented shape: id, severity, subject, title, evidence, why, fix, risk, verify."""
        return {"id": self.id, "severity": self.severity.value, "subject": self.subject, "title": self.title,
                "evidence": [item.to_json() for item in self.evidence], "why": self.why,
                "fix": list(self.fix), "risk": self.risk, "verify": list(self.verify)}


def by_severity(findings: list[Finding]) -> list[Finding]:
    """Most severe first, stable within a severity."""
    return sorted(findings, key=lambda finding: finding.severity.rank)
