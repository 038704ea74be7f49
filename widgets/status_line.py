"""A one-line status bar that keeps what matters most when the terminal is narrow."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static

from .fit_text import Part, fit_parts, part_text


class StatusLine(Static):
    """Shows (text, priority) parts joined by " · "; the lowest priorities go first when it is too narrow (a
    part given as a tuple of forms shortens before it goes)."""

    DEFAULT_CSS = """
    StatusLine { height: 1; padding: 0 1; background: $panel; }
    """

    def __init__(self, text: str = "", *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)
        self.parts: tuple[Part, ...] = ((text, 0),) if text else ()
        self.style = ""

    def say(self, *parts: Part | str, style: str = "") -> None:
        """Show these parts; a bare string has the highest priority."""
        self.parts = tuple((part, 0) if isinstance(part, str) else part for part in parts)
        self.style = style
        self.refresh()

    @property
    def plain(self) -> str:
        """Everything the status says, unfitted (for tests and the smoke check)."""
        return " · ".join(part_text(part) for part in self.parts if part_text(part))

    def render(self) -> Text:
        return Text(fit_parts(self.parts, max(self.content_size.width, 1)), style=self.style)

    def update_parts(self, parts: Sequence[Part]) -> None:
        """Same as `say` with a prepared sequence."""
        self.say(*parts)

    def update(self, content: object = "", *, layout: bool = True) -> None:
        """One part with the highest priority (a Text keeps its style)."""
        self.say(str(content), style=str(content.style) if isinstance(content, Text) else "")
