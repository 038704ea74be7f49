"""Make a string that came from a host safe to show: control and invisible characters become visible escapes.

A dm name, label or mountpoint can hold ESC sequences (OSC 52 rewrites the reader's clipboard), C1
controls (0x9b is a one-byte CSI on some terminals) or bidi overrides that reorder what is shown;
every host string passes through here on its way in, so no screen, report or command sees them raw.
The shown form is exact: `real_text` gives the original back, and `shell_quote` turns it into a shell
word that names the real path (bash's $'...' for a name with control characters)."""

from __future__ import annotations

import re

TYPE_CHECKING = False  # not typing's (~2 ms of every start-up)
if TYPE_CHECKING:
    UNSAFE_MULTILINE: re.Pattern[str]
    UNSAFE_ONE_LINE: re.Pattern[str]

_UNSAFE = (r"\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f"
           r"\ufeff\ufff9-\ufffb")
_PATTERNS = {
    "UNSAFE_MULTILINE": f"[{_UNSAFE}]",
    # Everything unsafe except newline and tab, which text files (fstab, crontab) legitimately hold.
    "UNSAFE_ONE_LINE": f"[{_UNSAFE}\\t\\n]",
    "_ESCAPE": r"\\(x[0-9a-f]{2}|u[0-9a-f]{4})",
    # What escape_char writes; it stands for a character only when escape_char writes exactly that.
}
"""The module's patterns, compiled on first use: a host whose strings are all printable ASCII (the usual
one) never needs them, and compiling the two character classes took ~0.9 ms of every start-up."""


def __getattr__(name: str) -> re.Pattern[str]:
    """`UNSAFE_MULTILINE`, `UNSAFE_ONE_LINE` and `_ESCAPE`, compiled when first asked for."""
    if name not in _PATTERNS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    pattern = globals()[name] = re.compile(_PATTERNS[name])
    return pattern


def _pattern(name: str) -> re.Pattern[str]:
    """One of the module's patterns (compiled on the first call)."""
    pattern = globals().get(name)
    return pattern if pattern is not None else __getattr__(name)


CONTROL_NOTE = ("# a name in these commands holds control or invisible characters (shown elsewhere as \\x.. "
                "escapes): $'...' spells each one out, so the command names the real path (bash, zsh, ksh)")


def escape_char(char: str) -> str:
    """One character as a visible escape: \\x1b, \\u202e."""
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str, *, multiline: bool = False) -> str:
    """`text` with every control or invisible formatting character shown as an escape (\\x1b)."""
    if text.isascii() and text.isprintable():  # space to tilde: nothing to escape, no pattern compiled
        return text
    pattern = _pattern("UNSAFE_MULTILINE" if multiline else "UNSAFE_ONE_LINE")
    if not pattern.search(text):
        return text
    return pattern.sub(lambda match: escape_char(match[0]), text)


def _escaped(token: str) -> str | None:
    """The character an escape token stands for (an unsafe one, or a backslash), else None."""
    char = chr(int(token[2:], 16))
    if (char == "\\" or _pattern("UNSAFE_ONE_LINE").match(char)) and escape_char(char) == token:
        return char
    return None


def shown(text: str, *, multiline: bool = False) -> str:
    """`text` as it first comes from a host, made visible exactly: like `visible`, and a backslash that
    would read as an escape (a name spelled `a\\x0ab`) is itself written \\x5c, so `real_text` is exact."""
    if "\\" in text:
        text = _pattern("_ESCAPE").sub(lambda m: "\\x5c" + m[1] if _escaped(m[0]) else m[0], text)
    return visible(text, multiline=multiline)


def reads_as_escape(text: str) -> bool:
    """Whether `text` starts with what `real_text` would read as an escape."""
    match = _pattern("_ESCAPE").match(text)
    return match is not None and _escaped(match[0]) is not None


def real_text(text: str) -> str:
    """The original of a shown host string: each escape `shown` wrote becomes its character again."""
    if "\\" not in text:
        return text
    return _pattern("_ESCAPE").sub(lambda m: _escaped(m[0]) or m[0], text)


def is_plain(text: str) -> bool:
    """Whether `text` has no control or invisible characters at all (tab and newline count as unsafe)."""
    if text.isascii() and text.isprintable():
        return True
    return _pattern("UNSAFE_ONE_LINE").search(text) is None


def _ansi_c(char: str) -> str:
    if char in "\\'":
        return "\\" + char
    if _pattern("UNSAFE_ONE_LINE").match(char) or "\ud800" <= char <= "\udfff":
        return "".join(f"\\x{byte:02x}" for byte in char.encode("utf-8", "surrogateescape"))
    return char


def shell_quote(name: str) -> str:
    """A host name (in its shown form) as one shell word naming the real thing: shlex.quote when it is
    plain, else bash's $'...' with each control or invisible character as \\xHH bytes (printable text
    that still names the exact path when pasted)."""
    real = real_text(name)
    if is_plain(real) and not any("\ud800" <= char <= "\udfff" for char in real):
        import shlex  # only here: ~0.3 ms of every start-up otherwise

        return shlex.quote(real)
    return "$'" + "".join(_ansi_c(char) for char in real) + "'"


def shell_join(words: list[str]) -> str:
    """A command line of shown host words, each through `shell_quote`."""
    return " ".join(shell_quote(word) for word in words)


def spells_control_characters(command: str) -> bool:
    """Whether a command line holds a $'...' word (outside quotes and comments), as `shell_quote`
    writes for a name with control characters."""
    quote, index = "", 0
    while index < len(command):
        char = command[index]
        if quote == "'":
            quote = "" if char == "'" else quote
        elif char == "\\":
            index += 1
        elif quote == '"':
            quote = "" if char == '"' else quote
        elif char == "$" and command[index + 1:index + 2] == "'":
            return True
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or command[index - 1].isspace()):
            return False
        index += 1
    return False
