"""Make a string that came from a host safe to show: control and invisible characters become visible escapes.

A dm name, label or mountpoint can hold ESC sequences (OSC 52 rewrites the reader's clipboard), C1
controls (0x9b is a one-byte CSI on some terminals) or bidi overrides that reorder what is shown;
every host string passes through here on its way in, so no screen, report or command sees them raw."""

from __future__ import annotations

import re

_UNSAFE = (r"\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f"
           r"\ufeff\ufff9-\ufffb")
UNSAFE_MULTILINE = re.compile(f"[{_UNSAFE}]")
"""Everything unsafe except newline and tab, which text files (fstab, crontab) legitimately hold."""
UNSAFE_ONE_LINE = re.compile(f"[{_UNSAFE}\\t\\n]")


def escape_char(char: str) -> str:
    """One character as a visible escape: \\x1b, \\u202e."""
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str, *, multiline: bool = False) -> str:
    """`text` with every control or invisible formatting character shown as an escape (\\x1b)."""
    pattern = UNSAFE_MULTILINE if multiline else UNSAFE_ONE_LINE
    if not pattern.search(text):
        return text
    return pattern.sub(lambda match: escape_char(match[0]), text)


def is_plain(text: str) -> bool:
    """Whether `text` has no control or invisible characters at all (tab and newline count as unsafe)."""
    return UNSAFE_ONE_LINE.search(text) is None
