"""One finding standing for the same finding on several subjects: every subject's fix, evidence, verify."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TypeVar

from .finding import Evidence, Finding

Item = TypeVar("Item")

HOLE = "\0"
"""Where a subject's name stood in a line (the same line for another subject has that one's there)."""


def naming(subject: str) -> re.Pattern[str]:
    """`subject` standing alone in a text: "/" in `fstrim /` but not in `/etc/fstab`."""
    return re.compile(r"(?<![\w/.~-])" + re.escape(subject) + r"(?![\w/.~-])")


def holed(text: str, subject: str) -> str:
    """`text` with `subject` replaced by HOLE wherever it stands alone."""
    return naming(subject).sub(HOLE, text)


COMMENT_NAMES_CELLS = 40
"""A command's trailing comment names every subject up to this long, else says "all N"."""


def _named(subjects: Sequence[str]) -> str:
    """Every subject, comma-separated, when short; else "both" or "all N"."""
    names = ", ".join(subjects)
    if len(names) <= COMMENT_NAMES_CELLS:
        return names
    return "both" if len(subjects) == 2 else f"all {len(subjects)}"


Lines = Callable[[Finding], tuple[str, ...]]


def _command_lines(members: Sequence[Finding], lines: Lines) -> tuple[str, ...]:
    """Every member's lines, each once: a line the same for all once where it first comes; a command the
    same for all but for the subject named in its trailing comment once, the comment naming every subject
    (`diskdoctor trim   # /a, /b`, or `# all 8`); any other line that names its subject once per subject,
    in the subject's block (`fstrim --verbose /a`, then `/b`'s), so that copying them fixes every subject."""
    subjects = [member.subject for member in members]
    forms: dict[str, list[str]] = {}
    for member in members:
        for line in lines(member):
            forms.setdefault(holed(line, member.subject), []).append(line)
    out: list[str] = []
    for member in members:
        for line in lines(member):
            form = holed(line, member.subject)
            seen = forms[form]
            command, hash_mark, _comment = form.partition("  #")
            if len(set(seen)) == 1 or (len(seen) == len(members) and HOLE not in command and hash_mark):
                merged = form.replace(HOLE, _named(subjects)) if HOLE in form else line
                if merged not in out:
                    out.append(merged)
            elif line not in out:
                out.append(line)
    return tuple(out)


def _evidence(members: Sequence[Finding]) -> tuple[Evidence, ...]:
    """Every member's evidence: an item the same for each once; the same fact read for each (its text
    differs only by the subject) once, said "for each of the N"; any other item once per subject, named."""
    def form(item: Evidence, subject: str) -> tuple[str, str, str]:
        return holed(item.what, subject), holed(item.value, subject), holed(item.source, subject)

    forms: dict[tuple[str, str, str], list[Evidence]] = {}
    for member in members:
        for item in member.evidence:
            forms.setdefault(form(item, member.subject), []).append(item)
    out: list[Evidence] = []
    each = f"each of the {len(members)}"
    for member in members:
        for item in member.evidence:
            key = form(item, member.subject)
            seen = forms[key]
            if len(seen) == len(members) and len(set(seen)) == 1:
                shown = item
            elif len(seen) == len(members):
                what, value, source = key
                what = what.replace(HOLE, each) if HOLE in what else f"for {each}: {what}"
                shown = Evidence(what, value.replace(HOLE, "each"), source.replace(HOLE, "each"))
            else:
                named = f"{member.subject}: {item.what}"
                shown = item if member.subject in item.what else replace(item, what=named)
            if shown not in out:
                out.append(shown)
    return tuple(out)


def _prose(members: Sequence[Finding], text: Callable[[Finding], str | None]) -> str | None:
    """A why or risk: the same for all as it is; differing only by the subject, said of "each of the N";
    else each subject's, named."""
    said = [text(member) for member in members]
    if len(set(said)) == 1:
        return said[0]
    forms = {holed(line or "", member.subject) for line, member in zip(said, members, strict=True)}
    if len(forms) == 1:
        return forms.pop().replace(HOLE, f"each of the {len(members)}")
    return " ".join(f"{member.subject}: {line}" for line, member in zip(said, members, strict=True) if line)


def combined(members: Sequence[Finding], title: str) -> Finding:
    """The finding `members` (one per subject, the same finding) stand for, titled `title`: its fix and
    verify cover every subject, its evidence is every subject's (newuser23 #4: `c` copied the first's
    `fstrim --verbose /lab/data` for a row about 8 filesystems)."""
    first = members[0]
    if len(members) < 2:
        return first
    why = _prose(members, lambda f: f.why) or ""
    return replace(first, title=title, evidence=_evidence(members), why=why,
                   fix=_command_lines(members, lambda f: f.fix), risk=_prose(members, lambda f: f.risk),
                   verify=_command_lines(members, lambda f: f.verify))
