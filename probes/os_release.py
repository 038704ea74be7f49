"""The distribution's name from os-release (etc/os-release, else usr/lib/os-release) through a Root."""

from __future__ import annotations

import shlex

from .facts import Fact
from .host_text import visible
from .root import Root

OS_RELEASE_FILES = ("etc/os-release", "usr/lib/os-release")


def parse_os_release(text: str) -> dict[str, str]:
    """KEY=value lines, shell-quoted values unquoted; malformed lines are skipped."""
    fields: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, raw = line.partition("=")
        if not sep or not key.strip().isidentifier():
            continue
        try:
            words = shlex.split(raw, comments=False)
        except ValueError:
            continue
        fields[key.strip()] = visible(" ".join(words))
    return fields


def read_distribution(root: Root) -> Fact[str]:
    """PRETTY_NAME (or NAME VERSION) with the file it came from, or why it is unknown."""
    for rel in OS_RELEASE_FILES:
        text, _ = root.read_text_resolved(rel)
        if text is None:
            continue
        fields = parse_os_release(text)
        name = fields.get("PRETTY_NAME") or " ".join(
            part for part in (fields.get("NAME"), fields.get("VERSION")) if part)
        if name:
            return Fact(name, root.host_path(rel))
    return Fact(None, root.host_path(OS_RELEASE_FILES[0]), "no os-release file in this root")
