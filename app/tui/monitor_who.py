""""Who does the I/O" drawn at the width its pane really has: its lines as they are, a paragraph (the page
cache's note) wrapped once between words there, its lines balanced so no word is left alone on one."""

from __future__ import annotations

from diskdoctor.widgets.wrap_text import WordWrap, wrap_lines
from rich.cells import cell_len
from rich.text import Text


def balanced_lines(text: Text, width: int) -> list[Text]:
    """`text` at `width` cells: a line that fits stays whole; a longer one is wrapped between words (a figure
    with its unit, "30 s", is one word) into as few lines as at `width`, each as narrow as that allows, so
    the last is not one word ("cache;" alone, newuser23 #6)."""
    width = max(width, 1)
    lines: list[Text] = []
    for line in text.split("\n", allow_blank=True):
        if cell_len(line.plain.rstrip()) <= width:
            lines.append(line)
            continue
        wrapped = wrap_lines(line.copy(), width, hang=0)
        for narrower in range(width - 1, width // 2, -1):
            fewer = wrap_lines(line.copy(), narrower, hang=0)
            if len(fewer) > len(wrapped) or any(cell_len(row.plain) > narrower for row in fewer):
                break
            wrapped = fewer
        lines.extend(wrapped)
    return lines


class WhoText(WordWrap):
    """The pane's text wrapped by balanced_lines at the width it is drawn in (a scrollbar that comes or a
    narrower pane wraps it afresh, never a second time over lines cut for another width)."""

    def __init__(self, text: Text) -> None:
        super().__init__(text, hang=0)

    def lines(self, width: int) -> list[Text]:
        """The lines drawn at `width` cells."""
        return balanced_lines(self.text, width)
