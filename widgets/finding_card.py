"""A card for one finding: severity, what is wrong, the fix as commands, the risk, and how to verify."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.widgets import Static

SEVERITY_STYLES = {"crit": "bold white on red", "warn": "bold black on yellow", "info": "bold black on cyan"}


@dataclass(frozen=True, slots=True)
class CardContent:
    """What a card shows; the caller turns its own finding type into this."""

    id: str
    severity: str
    text: str
    fix: tuple[str, ...] = ()
    risk: str | None = None
    verify: tuple[str, ...] = ()
    evidence: tuple[tuple[str, str, str], ...] = ()
    """(what, value, source) of each fact the finding rests on."""
    why: str = ""
    badge_style: str | None = None
    """The severity badge's style from the caller's vocabulary (else this module's default)."""


def _evidence(text: Text, evidence: tuple[tuple[str, str, str], ...]) -> None:
    text.append("Evidence:\n", "bold magenta")
    for what, value, source in evidence:
        text.append(f"  {what}: ")
        text.append(value, "bold")
        text.append(f"  {source}\n", "dim")


def card_text(content: CardContent) -> Text:
    """The card body as Rich text (commands in bold so they stand out for copying)."""
    text = Text()
    badge = content.badge_style or SEVERITY_STYLES.get(content.severity, "reverse")
    text.append(f" {content.severity.upper()} ", badge)
    text.append(f" {content.id}\n", "bold")
    text.append(content.text + "\n", "bold" if content.why else "")
    if content.evidence:
        _evidence(text, content.evidence)
    if content.why:
        text.append("Why: ", "bold")
        text.append(content.why + "\n")
    if content.fix:
        text.append("Fix:\n", "bold green")
        for line in content.fix:
            text.append(f"  {line}\n", "dim" if line.startswith("#") else "bold")
    if content.risk:
        text.append("Risk: ", "bold red")
        text.append(content.risk + "\n")
    if content.verify:
        text.append("Verify:\n", "bold cyan")
        for line in content.verify:
            text.append(f"  {line}\n")
    text.rstrip()
    return text


class FindingCard(Static):
    """One finding, drawn from the values it is given."""

    DEFAULT_CSS = """
    FindingCard {
        border: round $primary 50%;
        padding: 0 1;
        margin: 0 0 1 0;
        height: auto;
    }
    FindingCard.-warn { border: round $warning; }
    FindingCard.-crit { border: round $error; }
    """

    def __init__(self, content: CardContent, *, id: str | None = None) -> None:
        super().__init__(card_text(content), classes=f"-{content.severity}", id=id)
        self.card = content

    def show(self, content: CardContent) -> None:
        """Draw another finding in this card."""
        self.card = content
        self.set_classes(f"-{content.severity}")
        self.update(card_text(content))
