"""Shell lines wrapped to a width so that every piece still runs when pasted: a comment goes on as a comment
at the same indent, a command breaks only between words outside quotes, each broken line ending in a
backslash (a soft wrap in a terminal becomes a real line break once copied)."""

from __future__ import annotations

import textwrap

CONTINUATION = "    "
"""How much further a command's continued lines are indented than its first."""


def _words(code: str) -> tuple[list[str], str]:
    """The command's words (split at spaces outside quotes and escapes) and its trailing `# comment`."""
    words: list[str] = []
    current: list[str] = []
    quote = ""
    escaped = False
    for index, char in enumerate(code):
        if escaped:
            current.append(char)
            escaped = False
        elif char == "\\" and quote != "'":
            current.append(char)
            escaped = True
        elif quote:
            current.append(char)
            if char == quote:
                quote = ""
        elif char in "'\"":
            current.append(char)
            quote = char
        elif char == "#" and not current:  # a word starting with # starts a comment
            return [*words], code[index:]
        elif char in " \t":
            if current:
                words.append("".join(current))
                current = []
        else:
            current.append(char)
    if current:
        words.append("".join(current))
    return words, ""


def _comment_lines(indent: str, comment: str, width: int) -> list[str]:
    """`# text` wrapped at words, every line starting with `indent# `."""
    body = comment.lstrip("#").strip()
    prefix = f"{indent}# "
    lines = textwrap.wrap(body, max(width - len(prefix), 1), break_long_words=False, break_on_hyphens=False)
    return [prefix + line for line in lines] or [f"{indent}#"]


def _command_lines(indent: str, words: list[str], width: int) -> list[str]:
    """The words greedily on lines of `width`, each but the last ending in ` \\`."""
    lines: list[str] = []
    line = indent + words[0]
    for word in words[1:]:
        if len(line) + 1 + len(word) + 2 <= width:
            line += " " + word
        else:
            lines.append(line + " \\")
            line = indent + CONTINUATION + word
    return [*lines, line]


def wrap_shell_line(line: str, width: int) -> list[str]:
    """`line` as lines of at most `width` characters that paste as the same shell code; a single word longer
    than the width stays whole (the caller folds it)."""
    if len(line) <= width:
        return [line]
    stripped = line.lstrip(" ")
    indent = line[:len(line) - len(stripped)]
    words, comment = _words(stripped)
    if not words:
        return _comment_lines(indent, comment, width)
    lines = _command_lines(indent, words, width)
    if comment:
        together = f"{lines[-1]}   {comment}"
        if len(together) <= width:
            lines[-1] = together
        else:
            lines += _comment_lines(indent, comment, width)
    return lines
