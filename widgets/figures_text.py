"""Text whose figures stay whole when it wraps: a number is never split from its unit ("6.50 ms")."""

from __future__ import annotations

import re

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text
from textual.visual import RichVisual
from textual.widgets import Static

UNITS = ("ns|µs|us|ms|s|min|h|B|KiB|MiB|GiB|TiB|kB|MB|GB|TB|MB/s|GB/s|ops/s|writes/s|IOPS|%|samples?|"
         "writes")
FIGURE = re.compile(rf"(?<![\w.])[<>≤≥~]?\d[\d,.]*(?:[eE][-+]?\d+)?( )(?=(?:{UNITS})(?![\w/]))")
"""A number followed by one space and a unit: that space is not a place to wrap."""
GLUE = "\u2800"
"""Stands in for the space while the text is wrapped: one cell wide and not whitespace to the wrapper."""


def glued_spaces(plain: str) -> list[int]:
    """Offsets of the spaces between a number and its unit."""
    return [match.start(1) for match in FIGURE.finditer(plain)]


class KeepFigures:
    """A Rich renderable: `text` wrapped to the width given, never between a number and its unit."""

    def __init__(self, text: Text) -> None:
        self.text = text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        text = self.text.copy()
        spaces = glued_spaces(text.plain)
        if spaces:
            chars = list(text.plain)
            for offset in spaces:
                chars[offset] = GLUE
            text.plain = "".join(chars)
        lines = text.wrap(console, options.max_width, justify="left", overflow="fold", no_wrap=False)
        for line in lines:
            if GLUE in line.plain:
                line.plain = line.plain.replace(GLUE, " ")
        yield Text("\n").join(lines)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.text)


class FiguresVisual(RichVisual):
    """How Textual draws KeepFigures; as a string, the text it holds (what a user would read)."""

    def __str__(self) -> str:
        renderable = self._renderable
        return renderable.text.plain if isinstance(renderable, KeepFigures) else super().__str__()


class FiguresText(Static):
    """A Static for verdicts and figures: what it is given wraps between words, never inside a figure."""

    def update(self, content: object = "", *, layout: bool = True) -> None:  # type: ignore[override]
        if isinstance(content, str) and content:
            content = Text.from_markup(content)  # as Static reads a string
        if isinstance(content, Text) and content.plain:
            content = FiguresVisual(self, KeepFigures(content))
        super().update(content, layout=layout)  # type: ignore[arg-type]
