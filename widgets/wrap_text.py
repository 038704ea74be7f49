"""Text wrapped as a reader expects: between words, a path only after a "/", a figure never from its unit, and
every wrapped line hanging under the text of its first line (a label column, or two past the indent)."""

from __future__ import annotations

import re
from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text
from textual.visual import RichVisual
from textual.widgets import Static

UNITS = ("ns|µs|us|ms|s|min|h|B|KiB|MiB|GiB|TiB|kB|MB|GB|TB|MB/s|GB/s|ops/s|writes/s|IOPS|%|samples?|"
         "writes")
FIGURE = re.compile(rf"(?<![\w.])[<>≤≥~]?\d[\d,.]*(?:[eE][-+]?\d+)?( +)(?=(?:{UNITS})(?![\w/]))")
"""A number followed by spaces and a unit (more than one in an aligned column): no place to wrap."""
TAG = re.compile(r"\[[^\[\]\n]{1,40}\]")
"""A bracketed tag ("[host busy]", "[closed-loop model]"): one word, never broken across lines."""
NBSP = "\u00a0"
"""A non-breaking space: drawn as a space, never a place to wrap ("steal\u00a00%": no lone `0%)` line)."""
GLUE = "\u2800"
"""Stands in for a glued space while the breaks are found: one cell wide and not whitespace."""
WORD = re.compile(r"\s*\S+\s*")
LABEL = re.compile(r" *\S(?:.*?\S)? {2,}(?=\S)")
"""A line whose text starts with a label and a gap of two spaces or more ("note      …", "  nvme0n1p2   part
…", "  p99 write()   39.8 µs"): its wrapped lines go under the text after the gap, as a table's second
column."""
FIELD = re.compile(r" *\w[\w.()/-]*(?: [\w.()/-]+){0,2}: (?=\S)")
"""A line that starts with a short field name and a colon ("Discard mode: off …", "Why: …"): its wrapped
lines go under the value."""
FIELD_WIDTH = 16
"""The longest field name (with its colon and space) that its value hangs after."""
HANG = 2
"""How much further in than an indented line its wrapped lines go when it has no label column."""
MIN_ROOM = 20
"""A hanging indent never leaves less than this (nor more than half the width) for the text."""
WIDOW = 4
"""A last line this short or shorter (`0%)`) takes the word before it along: no lone fragment ends a text."""


def glued_spaces(plain: str, keep: tuple[str, ...] = ()) -> list[int]:
    """Offsets of the spaces between a number and its unit, inside a bracketed tag, the non-breaking spaces,
    and the spaces inside the phrases in `keep`."""
    spaces = [offset for match in FIGURE.finditer(plain) for offset in range(*match.span(1))]
    spaces += [offset for offset, char in enumerate(plain) if char == NBSP]
    spaces += [match.start() + index for match in TAG.finditer(plain)
               for index, char in enumerate(match.group()) if char == " "]
    for phrase in keep:
        for match in re.finditer(re.escape(phrase), plain):
            spaces += [match.start() + index for index, char in enumerate(phrase) if char == " "]
    return spaces


def path_pieces(word: str) -> list[str]:
    """A word split after each "/" that has text after it ("/sys/", "block/", "loop5")."""
    return [piece for piece in re.findall(r"/*[^/]*/+|/*[^/]+", word) if piece]


def hang_of(plain: str, width: int, paragraph: int = 0, fields: bool = True,
            labels: tuple[str, ...] = ()) -> int:
    """Where the wrapped lines of `plain` start: under its label column ("note      …", or one of `labels`
    and a single space: "host load BUSY …", a label as wide as the column), else after a short "Field: "
    label (unless not `fields`: text whose lines all hang alike), else two past its indent (`paragraph` for
    an unindented paragraph), never so far in that the text has no room."""
    indent = len(plain) - len(plain.lstrip(" "))
    column, field = LABEL.match(plain), FIELD.match(plain)
    candidates = [column.end()] if column else []
    candidates += [len(label) + 1 for label in labels if plain.startswith(label + " ") and
                   plain[len(label) + 1:len(label) + 2].strip()]
    if fields and field and field.end() - indent <= FIELD_WIDTH:
        candidates.append(field.end())
    if indent or paragraph:
        candidates.append(indent + HANG if indent else paragraph)
    limit = min(width // 2, width - MIN_ROOM)
    return next((hang for hang in candidates if hang <= limit), 0)


def _chop(piece: str, start: int, first: int, room: int) -> tuple[list[int], int]:
    """Offsets that cut a piece with nowhere better to break into chunks (the first `first` cells wide, the
    rest `room`), and the cells its last chunk takes."""
    offsets, used, limit = [], 0, first
    for index, char in enumerate(piece):
        if used and used + cell_len(char) > limit:
            offsets.append(start + index)
            used, limit = 0, room
        used += cell_len(char)
    return offsets, used


def break_offsets(plain: str, width: int, hang: int = 0, keep: tuple[str, ...] = ()) -> list[int]:
    """Where to break one line of `plain` so that every piece fits `width` cells, the pieces after the first
    being drawn after `hang` cells of indent: between words; inside a word too long for a line only after a
    "/"; mid-word only in a piece with no "/" that no line holds; never inside a phrase of `keep`."""
    chars = list(plain)
    for offset in glued_spaces(plain, keep):
        chars[offset] = GLUE
    room = max(width - hang, 1)
    offsets: list[int] = []
    used, limit = 0, width  # cells taken on the line being filled, and what it holds
    for match in WORD.finditer("".join(chars)):
        start, word = match.start(), match.group()
        length = cell_len(word.rstrip())
        if used + length <= limit:
            used += cell_len(word)
            continue
        if length <= room:  # a line of its own holds it
            offsets.append(start)
            used, limit = cell_len(word), room
            continue
        lead = len(word) - len(word.lstrip())
        position, used = start + lead, used + lead
        for piece in path_pieces(word.strip()):
            size = cell_len(piece)
            if used and used + size > limit:
                offsets.append(position)
                used, limit = 0, room
            if size > limit - used:
                cuts, used = _chop(piece, position, limit - used, room)
                offsets.extend(cuts)
                limit = room if cuts else limit
            else:
                used += size
            position += len(piece)
        used += cell_len(word) - cell_len(word.rstrip())
    return without_widow("".join(chars), [offset for offset in offsets if 0 < offset < len(plain)], room)


def without_widow(plain: str, offsets: list[int], room: int) -> list[int]:
    """`offsets` (breaks in `plain`, its glued spaces masked) with the last break one word earlier when the
    last line would hold only WIDOW cells or fewer (`0%)`), if it still fits and the line before keeps a
    word."""
    if not offsets or cell_len(plain[offsets[-1]:].strip()) > WIDOW:
        return offsets
    previous = offsets[-2] if len(offsets) > 1 else 0
    before = plain[previous:offsets[-1]].rstrip()
    start = previous + before.rfind(" ") + 1
    if start <= previous or not plain[previous:start].strip() or cell_len(plain[start:].rstrip()) > room:
        return offsets
    return [*offsets[:-1], start]


def wrap_lines(text: Text, width: int, hang: int | None = None, keep: tuple[str, ...] = (),
               paragraph: int = 0, fields: bool = True, labels: tuple[str, ...] = ()) -> list[Text]:
    """`text` wrapped to `width` cells, line by line, each wrapped line hanging (see hang_of; an unindented
    paragraph's by `paragraph`, a line opening with one of `labels` under its value), never inside a phrase
    of `keep`."""
    lines: list[Text] = []
    for line in text.split("\n", allow_blank=True):
        plain = line.plain
        if cell_len(plain.rstrip()) <= width:
            line.rstrip()
            lines.append(line)
            continue
        indent = hang_of(plain, width, paragraph, fields, labels) if hang is None else hang
        pieces = line.divide(break_offsets(plain, width, indent, keep))
        for number, piece in enumerate(pieces):
            piece.rstrip()
            if number:
                piece = Text(" " * indent) + piece
                piece.rstrip()
            lines.append(piece)
    return lines


class WordWrap:
    """A Rich renderable: `text` wrapped by wrap_lines at the width it is drawn in."""

    def __init__(self, text: Text, hang: int | None = None, keep: tuple[str, ...] = (),
                 paragraph: int = 0, fields: bool = True, labels: tuple[str, ...] = ()) -> None:
        self.text, self.hang, self.keep, self.paragraph, self.fields = text, hang, keep, paragraph, fields
        self.labels = labels

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Text("\n").join(self.lines(options.max_width))

    def lines(self, width: int) -> list[Text]:
        """The lines drawn at `width` cells."""
        return wrap_lines(self.text.copy(), max(width, 1), self.hang, self.keep, self.paragraph, self.fields,
                          self.labels)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.text)


class WrappedVisual(RichVisual):
    """How Textual draws WordWrap; as a string, the text it holds (what a user would read)."""

    def __str__(self) -> str:
        renderable = self._renderable
        return renderable.text.plain if isinstance(renderable, WordWrap) else super().__str__()


class WrappedText(Static):
    """A Static whose text wraps between words, a path after a "/", with hanging lines (wrap_lines)."""

    def __init__(self, content: object = "", *, keep: tuple[str, ...] = (), paragraph: int = 0,
                 labels: tuple[str, ...] = (), **kwargs: Any) -> None:
        self.keep = keep
        """Phrases never broken across lines (a marker such as "← blocks discard")."""
        self.paragraph = paragraph
        """How far the wrapped lines of an unindented line hang (0: at the left edge, as a paragraph)."""
        self.fields = True
        """Whether a line starting "Field: " hangs under its value (False: every unindented line hangs by
        `paragraph`, as a list of caveats whose names differ in length)."""
        self.labels = labels
        """Labels as wide as the label column, so one space follows them ("host load"): their lines' wrapped
        lines hang under the value, as a label with a gap of two does."""
        super().__init__(content, **kwargs)  # type: ignore[arg-type]

    def update(self, content: object = "", *, layout: bool = True) -> None:  # type: ignore[override]
        if isinstance(content, str) and content:
            content = Text.from_markup(content)  # as Static reads a string
        if isinstance(content, Text) and content.plain:
            content = WrappedVisual(self, WordWrap(content, keep=self.keep, paragraph=self.paragraph,
                                                   fields=self.fields, labels=self.labels))
        super().update(content, layout=layout)  # type: ignore[arg-type]
