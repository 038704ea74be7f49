"""What an fstrim command line trims: every mount, the fstab ones, or the paths it names."""

from __future__ import annotations

import shlex

SEPARATORS = ("|", "||", "&&", ";", ">", ">>", "2>&1")
"""Where fstrim's own arguments end on a shell line."""


def _words(command: str) -> list[str]:
    try:
        return shlex.split(command, comments=True)
    except ValueError:
        return command.split()


def _fstrim_args(words: list[str]) -> list[str]:
    """The words after `fstrim` (every word when it is not named), up to the first shell separator."""
    starts = [i for i, w in enumerate(words) if w == "fstrim" or w.endswith("/fstrim")]
    after = words[starts[0] + 1:] if starts else words
    args = []
    for word in after:
        if word in SEPARATORS:
            break
        args.append(word)
    return args


def trim_scope(command: str) -> tuple[str, tuple[str, ...]]:
    """What an fstrim command line trims: all mounts, the fstab ones, or the listed paths."""
    words = _words(command)
    if any(w.endswith("fstrim-all") for w in words):
        return "all", ()
    args = _fstrim_args(words)
    clusters = [w[1:] for w in args if w.startswith("-") and not w.startswith("--")]
    if any(w == "--fstab" or w.startswith("--listed-in") for w in args) or \
            any("A" in c or "I" in c for c in clusters):
        return "fstab", ()
    if "--all" in args or any("a" in c for c in clusters):
        return "all", ()
    return "paths", tuple(w for w in args if w.startswith("/"))
