"""The arguments of `diskdoctor devices [--json] [--pretty] [--all]` with `--sysroot DIR` before or after,
read without argparse (its import and the parser's construction were ~10% of `devices --json`).

Only these exact words are taken, each at most once, in the orders argparse accepts them; any other list
(an abbreviation, `--sysroot=DIR`, `-h`, a value starting with `-`, another command, an error) gets None
and goes to argparse unchanged, so every message, exit code and abbreviation stays argparse's."""

from __future__ import annotations

from types import SimpleNamespace

COMMAND = "devices"
SYSROOT = "--sysroot"
FLAGS = {"--json": "json", "--pretty": "pretty", "--all": "all"}
"""The `devices` options the quick path takes, each a store_true flag, by its destination."""
TOP_LEVEL_DEFAULTS = {"man": None, "print_completion": None, "smoke": False, "version": None}
"""What argparse's top-level parser sets when none of its own options is given."""


def _plain_value(word: str) -> bool:
    """A word argparse takes as an option's value whatever it says (not empty, not option-like)."""
    return bool(word) and not word.startswith("-")


def quick_arguments(argv: list[str]) -> SimpleNamespace | None:
    """The namespace argparse would give for these arguments if they are a plain `devices` command,
    else None (the caller then parses them with argparse)."""
    values: dict[str, object] = {"command": None, "sysroot": None, "json": False, "pretty": False,
                                 "all": False}
    seen: set[str] = set()
    index = 0
    while index < len(argv):
        word = argv[index]
        if word in seen:
            return None
        if word == SYSROOT:
            if index + 1 == len(argv) or not _plain_value(argv[index + 1]):
                return None
            values["sysroot"] = argv[index + 1]
            index += 1
        elif values["command"] is None and word == COMMAND:
            values["command"] = COMMAND
        elif values["command"] is not None and word in FLAGS:
            values[FLAGS[word]] = True
        else:
            return None
        seen.add(word)
        index += 1
    if values["command"] is None:
        return None
    return SimpleNamespace(**TOP_LEVEL_DEFAULTS, **values)
