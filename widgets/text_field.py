"""A text field with one key rule: every printable key is typed into it, Esc leaves it."""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.widgets import Input


class TextField(Input):
    """An Input whose Esc hands focus back to the screen, so the screen's keys work again at once.

    Textual already gives printable keys to the focused Input before any screen or app binding;
    this adds the way out, shown in the footer while the field has focus.
    """

    BINDINGS = [Binding("escape", "leave", "Leave field",
                        tooltip="Leave the field; the screen's keys work again.")]

    def __init__(self, *args: Any, show_end: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.show_end = show_end
        """Whether a value too long for the field shows its end when the field is not being edited (a
        path's distinguishing part is its last folder); otherwise its start."""

    def action_leave(self) -> None:
        """Blur the field (its value stays); the screen's footer keys come back."""
        self.screen.set_focus(None)

    def _on_blur(self, event: object) -> None:
        """Show the start of the value after editing (its end for a path), so a short field never shows
        only the part that says least."""
        super()._on_blur(event)  # type: ignore[arg-type]
        self._rest_view()

    def watch_value(self) -> None:
        """A value filled in from elsewhere (a filesystem picked) shows the same part as after editing."""
        if not self.has_focus:
            self.call_after_refresh(self._rest_view)

    def on_resize(self) -> None:
        if not self.has_focus:
            self.call_after_refresh(self._rest_view)

    def _rest_view(self) -> None:
        """Scroll to the part of the value shown while the field is not being edited."""
        end = max(self.content_width - self.content_size.width, 0) if self.show_end else 0
        self.scroll_to(end, animate=False, immediate=True)
