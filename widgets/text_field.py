"""A text field with one key rule: every printable key is typed into it, Esc leaves it."""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region
from textual.keys import REPLACED_KEYS, key_to_character
from textual.widgets import Input

from .fit_text import fit_end, path_ellipsis


def typed_character(key: str) -> str | None:
    """The character a key types: "/" for "slash" too, which Textual's `key_to_character` misses, so a
    focused field's footer listed "/ Filter" or "/ Directory" though the key types a slash there."""
    return key_to_character(REPLACED_KEYS.get(key, key))


def consumes(key: str, character: str | None) -> bool:
    """Whether a text field takes this key as typing (every printable character), so no screen key fires
    and the footer does not list it."""
    character = character or typed_character(key)
    return character is not None and character.isprintable()


class TextField(Input):
    """An Input whose Esc hands focus back to the screen, so the screen's keys work again at once.

    Textual already gives printable keys to the focused Input before any screen or app binding;
    this adds the way out, shown in the footer while the field has focus. A value too long for the field
    shows cut with an ellipsis while the field is not being edited, never silently.
    """

    BINDINGS = [Binding("escape", "leave", "Leave field",
                        tooltip="Leave the field; the screen's keys work again.")]

    def __init__(self, *args: Any, show_end: bool = False, **kwargs: Any) -> None:
        self.show_end = show_end
        """Whether a value too long for the field is cut in its middle when the field is not being edited,
        keeping its top folder and as much of its end as fits (a path's distinguishing part is its last
        folder); otherwise it is cut at its end."""
        super().__init__(*args, **kwargs)

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return consumes(key, character)

    def action_leave(self) -> None:
        """Blur the field (its value stays); the screen's footer keys come back."""
        self.screen.set_focus(None)

    @property
    def _value(self) -> Text:
        """The value as typed while it is edited; else cut to the field's width with an ellipsis
        ("/tmp/…3/mnt-ext4/data" for a path, "50,5…" for another value)."""
        width = self.scrollable_content_region.width
        if self.has_focus or self.password or not self.value or width <= 0:
            return super()._value
        fitted = path_ellipsis(self.value, width) if self.show_end else fit_end(self.value, width)
        return Text(fitted, no_wrap=True, overflow="ignore", end="")

    @property
    def content_width(self) -> int:
        """The width of the whole value and the cursor after it, fitted or not, so the field scrolls to
        the cursor as soon as editing starts."""
        if self.placeholder and not self.value:
            return cell_len(self.placeholder)
        return cell_len(self.value) + 1

    def _on_focus(self, event: events.Focus) -> None:
        """Editing: the whole value, scrolled to where the cursor is."""
        super()._on_focus(event)
        self.call_after_refresh(self._scroll_to_cursor)

    def _scroll_to_cursor(self) -> None:
        self.scroll_to_region(Region(self._cursor_offset, 0, 1, 1), force=True, animate=False, immediate=True)

    def _on_blur(self, event: events.Blur) -> None:
        """After editing: the value fitted to the field, from its first cell."""
        super()._on_blur(event)
        self._rest_view()

    def watch_value(self) -> None:
        """A value filled in from elsewhere (a filesystem picked) shows fitted as after editing."""
        if not self.has_focus:
            self.call_after_refresh(self._rest_view)

    def on_resize(self) -> None:
        if not self.has_focus:
            self.call_after_refresh(self._rest_view)

    def _rest_view(self) -> None:
        """Show the value fitted to the field from its first cell (the ellipsis says what is left out)."""
        self.scroll_to(0, animate=False, immediate=True)
        self.refresh()
