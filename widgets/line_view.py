"""A block of text lines that repaints only the lines that changed, for a pane redrawn every second (a
chart whose idle rows stay as they were costs nothing to draw again)."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget


def _look(line: Text) -> tuple[object, ...]:
    """What a line shows (Text's own == ignores its style)."""
    return line.plain, str(line.style), tuple(line.spans)


class LineView(Widget):
    """Lines of text, one a row; `show` repaints only the rows whose line changed."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._lines: list[Text] = []
        self._looks: list[tuple[object, ...]] = []

    @property
    def lines(self) -> list[Text]:
        """The lines shown now."""
        return self._lines

    def show(self, lines: list[Text]) -> None:
        """Show `lines`, repainting the rows that differ from what is shown."""
        looks = [_look(line) for line in lines]
        width = max(self.size.width, 1)
        old = self._looks
        changed = [row for row in range(max(len(old), len(looks)))
                   if row >= len(old) or row >= len(looks) or old[row] != looks[row]]
        self._lines, self._looks = lines, looks
        for row in changed:
            self.refresh(Region(0, row, width, 1))

    def render_line(self, y: int) -> Strip:
        width, style = self.size.width, self.rich_style
        if y >= len(self._lines):
            return Strip.blank(width, style)
        line = self._lines[y]
        strip = Strip(line.render(self.app.console), cell_len(line.plain))
        return strip.crop_extend(0, width, style).apply_style(style)
