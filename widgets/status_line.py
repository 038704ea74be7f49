"""A one-line status bar that keeps what matters most when the terminal is narrow."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static

from .fit_text import fit_parts


class StatusLine(Static):
    """Shows (text, priority) parts joined by " · "; the lowest priorities go first when it is too narrow."""

    DEFAULT_CSS = """
    StatusLine { height: 1; padding: 0 1; background: $panel; }
    """

    def __init__(self, text: str = "", *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)
        self.parts: tuple[tuple[str, int], ...] = ((text, 0),) if text else ()
        self.style = ""

    def say(self, *parts: tuple[str, int] | str, style: str = "") -> None:
        """Show these parts; a bare string has the highest priority."""
        self.parts = tuple((part, 0) if isinstance(part, str) else part for part in parts)
        self.style = style
        self.refresh()

    @property
    def plain(self) -> str:
        """Everything the status says, unfitted (for tests and the smoke check)."""
        return " · ".join(text for text, _ in self.parts if text)

    def render(self) -> Text:
        return Text(fit_parts(self.parts, max(self.content_size.width, 1)), style=self.style)

    def update_parts(self, parts: Sequence[tuple[str, int]]) -> None:
        """Same as `say` with a prepared sequence."""
        self.say(*parts)

    def update(self, content: object = "", *, layout: bool = True) -> None:
        """One part with the highest priority (a Text keeps its style)."""
        self.say(str(content), style=str(content.style) if isinstance(content, Text) else "")
