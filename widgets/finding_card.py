"""A card for one finding: severity, what is wrong, the fix as commands, the risk, and how to verify."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from diskdoctor.app.base.shell_wrap import wrap_shell_line
from rich.cells import cell_len, set_cell_size
from rich.console import Console, ConsoleOptions, Group
from rich.measure import Measurement
from rich.text import Text
from textual.widgets import Static

from .wrap_text import WordWrap, path_pieces, wrap_lines

SEVERITY_STYLES = {"crit": "bold white on red", "warn": "bold black on yellow", "info": "bold black on cyan"}


CUT_NOTE = "… cut at the edge: too wide to show whole here"
"""What a card says under a command it had to cut (the caller names its copy key where it has one)."""


@dataclass(frozen=True, slots=True)
class CardContent:
    """What a card shows; the caller turns its own finding type into this."""

    id: str
    severity: str
    text: str
    fix: tuple[str, ...] = ()
    risk: str | None = None
    verify: tuple[str, ...] = ()
    evidence: tuple[tuple[str, str, str], ...] = ()
    """(what, value, source) of each fact the finding rests on."""
    why: str = ""
    badge_style: str | None = None
    """The severity badge's style from the caller's vocabulary (else this module's default)."""
    id_shown: bool = True
    """Whether the card names the id (False where the pane above the card names it already)."""
    cut_note: str = CUT_NOTE
    """What the card says under a fix command too wide for it (cut at the edge, never broken inside a
    word)."""
    verify_cut_note: str = CUT_NOTE
    """The same under a verify command (where the caller has it whole: newuser22 #15)."""


EVIDENCE_INDENT = 2
"""An evidence line's indent; its continuation lines hang two further in, under its text."""


Token = tuple[str, str, str]
"""A word that is never broken (a figure with its unit is one), its style, and the space before it."""


class HangingLines:
    """Lines of words drawn at an indent, each wrapped between words with its continuation lines hanging
    further in, so that a long evidence source never runs back to column 0 and a figure never splits."""

    def __init__(self, lines: list[list[Token]], indent: int = EVIDENCE_INDENT,
                 hang: int = EVIDENCE_INDENT) -> None:
        self.lines, self.indent, self.hang = lines, indent, hang

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        for tokens in self.lines:
            yield from self._wrapped(tokens, options.max_width)

    def _wrapped(self, tokens: list[Token], width: int) -> Iterator[Text]:
        line, start = Text(" " * self.indent), self.indent
        for word, style, gap in tokens:
            room = width - self.indent - self.hang
            pieces = path_pieces(word) if cell_len(word) > room and "/" in word.strip("/") else [word]
            for index, piece in enumerate(pieces):  # a path longer than a line breaks only after a "/"
                joiner = gap if index == 0 else ""
                if line.cell_len > start and line.cell_len + len(joiner) + cell_len(piece) > width:
                    yield line
                    line = Text(" " * (self.indent + self.hang))
                    start = line.cell_len
                elif line.cell_len > start:
                    line.append(joiner)
                line.append(piece, style)
        yield line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        longest = max((cell_len(self._plain(tokens)) + self.indent for tokens in self.lines), default=0)
        return Measurement(min(longest, options.max_width), longest)

    @staticmethod
    def _plain(tokens: list[Token]) -> str:
        return "".join((gap if index else "") + word for index, (word, _, gap) in enumerate(tokens))

    @property
    def plain(self) -> str:
        return "\n".join(" " * self.indent + self._plain(tokens) for tokens in self.lines)


def _evidence(evidence: tuple[tuple[str, str, str], ...]) -> HangingLines:
    lines = []
    for what, value, source in evidence:
        tokens: list[Token] = [(word, "", " ") for word in f"{what}:".split(" ")]
        tokens += [(word, "bold", " ") for word in _value_words(value)]  # "963 ms" never splits
        tokens += [(word, "dim", "  " if index == 0 else " ") for index, word in enumerate(source.split(" "))]
        lines.append(tokens)
    return HangingLines(lines)


NUMBER = re.compile(r"[<>≤≥~±+-]?\d[\d.,]*%?")
"""A word that is a figure: it stays on one line with the unit after it."""


def _value_words(value: str) -> list[str]:
    """An evidence value's words, each figure joined to its unit ("9.80 ms"), so that a value longer than
    a line wraps between words and hangs under its text instead of running back to column 0."""
    words: list[str] = []
    for word in value.split(" "):
        if words and NUMBER.fullmatch(words[-1]) and word and word[0].isalpha():
            words[-1] += f" {word}"
        else:
            words.append(word)
    return words


class ShellBlock:
    """Commands indented by two, wrapped at the width they are drawn in so that each piece still runs when
    pasted: a comment goes on as `# ` at its indent, a command breaks between words with a backslash. A word
    longer than the line (a long quoted path) is never broken, which would paste as another path: it runs to
    the edge, cut with `…`, and a line under the block says so (`cut_note`)."""

    def __init__(self, lines: tuple[str, ...], style_of: Callable[[str], str],
                 cut_note: str = CUT_NOTE) -> None:
        self.lines, self.style_of, self.cut_note = lines, style_of, cut_note

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        width, cut = options.max_width, False
        for line in self.lines:
            style = self.style_of(line)
            for piece in wrap_shell_line(f"  {line}", width):
                if cell_len(piece) > width:  # one word wider than the line: at the edge, cut, and said
                    piece, cut = set_cell_size(piece, max(width - 1, 0)) + "…", True
                yield Text(piece, style=style)
        if cut:
            yield from wrap_lines(Text(f"  ({self.cut_note})", style="italic"), width, 2)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        longest = max((len(line) + 2 for line in self.lines), default=0)
        return Measurement(min(longest, options.max_width), longest)


def _fix_style(line: str) -> str:
    return "dim" if line.startswith("#") else "bold"


def card_text(content: CardContent) -> Group:
    """The card body (commands in bold so they stand out for copying, wrapped so they still paste)."""
    head = Text()
    badge = content.badge_style or SEVERITY_STYLES.get(content.severity, "reverse")
    head.append(f" {content.severity.upper()} ", badge)
    head.append(f" {content.id}\n" if content.id_shown else " ", "bold")  # no id: the text follows
    head.append(content.text + "\n", "bold" if content.why else "")
    parts: list[Text | ShellBlock | HangingLines] = [head]
    if content.evidence:
        head.append("Evidence:", "bold magenta")
        parts.append(_evidence(content.evidence))
        head = Text()
        parts.append(head)  # why and the fix's label, after the evidence
    if content.why:
        head.append("Why: ", "bold")
        head.append(content.why + "\n")
    if content.fix:
        head.append("Fix:", "bold green")
        parts.append(ShellBlock(content.fix, _fix_style, content.cut_note))
    if content.risk or content.verify:
        tail = Text()
        if content.risk:
            tail.append("Risk: ", "bold red")
            tail.append(content.risk + ("\n" if content.verify else ""))
        if content.verify:
            tail.append("Verify:", "bold cyan")
        parts.append(tail)
    if content.verify:
        parts.append(ShellBlock(content.verify, lambda _line: "", content.verify_cut_note))
    head.rstrip()
    kept = [part for part in parts if not (isinstance(part, Text) and not part.plain)]
    return Group(*(WordWrap(part) if isinstance(part, Text) else part for part in kept))


class FindingCard(Static):
    """One finding, drawn from the values it is given."""

    DEFAULT_CSS = """
    FindingCard {
        border: round $primary 50%;
        padding: 0 1;
        margin: 0 0 1 0;
        height: auto;
    }
    FindingCard.-warn { border: round $warning; }
    FindingCard.-crit { border: round $error; }
    """

    def __init__(self, content: CardContent, *, id: str | None = None) -> None:
        super().__init__(card_text(content), classes=f"-{content.severity}", id=id)
        self.card = content

    def show(self, content: CardContent) -> None:
        """Draw another finding in this card."""
        self.card = content
        self.set_classes(f"-{content.severity}")
        self.update(card_text(content))

    @property
    def plain(self) -> str:
        """The card's text, unwrapped (for tests and copying)."""
        parts = card_text(self.card).renderables
        return "\n".join(part.text.plain if isinstance(part, WordWrap) else
                         part.plain if isinstance(part, HangingLines) else
                         "\n".join(f"  {line}" for line in part.lines) for part in parts)
