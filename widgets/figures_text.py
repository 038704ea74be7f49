"""Text whose figures stay whole when it wraps: a number is never split from its unit ("6.50 ms")."""

from __future__ import annotations

from .wrap_text import WordWrap, WrappedText, WrappedVisual, glued_spaces

__all__ = ["FiguresText", "FiguresVisual", "KeepFigures", "glued_spaces"]


class KeepFigures(WordWrap):
    """A Rich renderable: `text` wrapped to the width given, never between a number and its unit, a path only
    after a "/", and a line's wrapped lines hanging under its text ("note      …" under "…")."""


FiguresVisual = WrappedVisual
"""How Textual draws KeepFigures; as a string, the text it holds (what a user would read)."""


class FiguresText(WrappedText):
    """A Static for verdicts and figures: what it is given wraps between words, never inside a figure."""
