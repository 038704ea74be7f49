"""A finding: one problem with its evidence, the fix as exact commands, the risk, and how to verify."""

from __future__ import annotations

from dataclasses import dataclass

SEVERITIES = ("info", "warn", "crit")


@dataclass(frozen=True, slots=True)
class Finding:
    """A problem the advisor found; `fix` lines are shell commands or '# ...' instructions."""

    id: str
    severity: str
    text: str
    fix: tuple[str, ...] = ()
    risk: str | None = None
    verify: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        """The stable JSON shape: id, severity, text, fix (list of lines), risk, verify."""
        return {"id": self.id, "severity": self.severity, "text": self.text, "fix": list(self.fix),
                "risk": self.risk, "verify": list(self.verify)}
