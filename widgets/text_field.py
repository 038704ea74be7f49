"""A text field with one key rule: every printable key is typed into it, Esc leaves it."""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import Input


class TextField(Input):
    """An Input whose Esc hands focus back to the screen, so the screen's keys work again at once.

    Textual already gives printable keys to the focused Input before any screen or app binding;
    this adds the way out, shown in the footer while the field has focus.
    """

    BINDINGS = [Binding("escape", "leave", "Leave field",
                        tooltip="Leave the field; the screen's keys work again.")]

    def action_leave(self) -> None:
        """Blur the field (its value stays); the screen's footer keys come back."""
        self.screen.set_focus(None)

    def _on_blur(self, event: object) -> None:
        """Show the start of the value after editing, so a short field never shows only its tail."""
        super()._on_blur(event)  # type: ignore[arg-type]
        self.scroll_to(0, animate=False, immediate=True)
