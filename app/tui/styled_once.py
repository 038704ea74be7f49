"""A top-level screen whose widgets are styled once before its first frame, not three times.

Textual styles each widget as it is mounted, then the whole screen again on the screen's first resume, and
again when the first resize gives the screen its width class (`-narrow`/`-wide`, the app's breakpoints).
For a screen just composed at the terminal's size neither pass changes a style: the widgets were styled
with every class and pseudo-class they have (a later change restyles what it touches, as always). Styling
was ~40% of the Stack screen's way from Textual's start to its first frame at 10 devices.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.message import Message
from textual.screen import Screen


def breakpoint_classes(width: int, height: int, horizontal: list[tuple[int, str]],
                       vertical: list[tuple[int, str]]) -> dict[str, bool]:
    """Each breakpoint class of a screen of `width` x `height`, and whether it applies: the same rule as
    Textual's resize (per direction, the class of the largest threshold the size reaches)."""
    classes = {name: False for _, name in [*horizontal, *vertical]}
    for size, points in ((width, horizontal), (height, vertical)):
        reached = [(threshold, name) for threshold, name in points if size >= threshold]
        if reached:
            classes[max(reached)[1]] = True
    return classes


class StyledOnceScreen(Screen[Any]):
    """A Screen that starts with its width classes and skips the restyle of its first resume."""

    _resumed = False

    def __init__(self, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name, id, classes)
        try:
            app = self.app
        except RuntimeError:  # made outside a running app: the first resize sets the classes
            return
        width, height = app.size
        horizontal = self.HORIZONTAL_BREAKPOINTS if self.HORIZONTAL_BREAKPOINTS is not None \
            else app.HORIZONTAL_BREAKPOINTS
        vertical = self.VERTICAL_BREAKPOINTS if self.VERTICAL_BREAKPOINTS is not None \
            else app.VERTICAL_BREAKPOINTS
        self.update_classes(breakpoint_classes(width, height, horizontal or [], vertical or []), update=False)

    def post_message(self, message: Message) -> bool:
        """The first ScreenResume keeps the styles the widgets were just mounted with (Textual would
        restyle every widget); a later one (back from another screen) restyles as Textual does."""
        if isinstance(message, events.ScreenResume) and not self._resumed:
            self._resumed = True
            if message.refresh_styles:
                message = events.ScreenResume(refresh_styles=False)
        return super().post_message(message)
