"""The one order every renderer shows findings in: grouped by subject, the most severe group first."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cached_property

from diskdoctor.probes.host import natural_key

from .finding import Finding, by_severity
from .merged import HOLE, combined


@dataclass(frozen=True)
class FindingGroup:
    """The findings about one subject (a mountpoint, a device, the host or a benchmark run)."""

    subject: str
    findings: list[Finding]


def grouped(findings: list[Finding]) -> list[FindingGroup]:
    """Findings grouped by subject; groups with the worst severity first (history, saved runs on filesystems
    not mounted now, last), then by subject name."""
    by_subject: dict[str, list[Finding]] = {}
    for finding in findings:
        by_subject.setdefault(finding.subject, []).append(finding)
    groups = [FindingGroup(subject, by_severity(items)) for subject, items in by_subject.items()]
    return sorted(groups, key=lambda g: (all(f.history for f in g.findings), g.findings[0].severity.rank,
                                         natural_key(g.subject)))


def in_display_order(findings: list[Finding]) -> list[Finding]:
    """The findings as every renderer lists them (grouped by subject, most severe first)."""
    return [finding for group in grouped(findings) for finding in group.findings]


BLOCKS_OR_FAILS = ("TRIM-CRYPT-OFF", "TRIM-LAYER-BLOCKED", "TRIM-THIN-IGNORE", "TRIM-THIN-NOPASSDOWN",
                   "TRIM-NOTRIM", "TRIM-MD-RAID456", "TRIM-UNSUPPORTED", "ETCD-", "WAL-")
"""Findings whose consequence is that something does not happen at all (discard stops at a layer, a
benchmark misses its threshold): first within their severity."""
UNSCHEDULED = ("TRIM-NO-SCHEDULE", "TRIM-TIMER-STALE", "TRIM-FSTAB-ONLY")
"""Findings whose consequence is that a working path is never used (nothing trims it): next."""


def consequence_rank(finding_id: str) -> int:
    """0 blocked or failed, 1 unscheduled, 2 anything else: the order within one severity."""
    if finding_id.startswith(BLOCKS_OR_FAILS):
        return 0
    return 1 if finding_id.startswith(UNSCHEDULED) else 2


@dataclass(frozen=True)
class MergedFinding:
    """One finding as the first of its kind says it, and every subject it was found on."""

    finding: Finding
    subjects: tuple[str, ...]
    members: tuple[Finding, ...] = field(default=(), compare=False)
    """The finding on each subject, in the order of `subjects` (empty: only `finding`)."""

    @cached_property
    def combined(self) -> Finding:
        """The one finding the row stands for: titled for every subject, with every subject's evidence,
        fix and verify (merged.combined), so that a card and `c` cover all of them."""
        return combined(self.members or (self.finding,), self.title)

    @property
    def title(self) -> str:
        """The title naming no one subject when the finding holds for several (see merged_title), nor one
        of the names its members' titles open with (see names_title)."""
        members = self.members or (self.finding,)
        if len({member.title.replace(member.subject, HOLE) for member in members}) > 1:
            return names_title(members, self.subjects)
        return merged_title(self.finding, self.subjects)

    @property
    def subjects_text(self) -> str:
        """The subject, or "N: first, second, …" when the same finding holds for several."""
        if len(self.subjects) == 1:
            return self.subjects[0]
        return f"{len(self.subjects)}: " + ", ".join(self.subjects)


PLURAL_VERBS = {"is": "are", "has": "have", "was": "were", "does": "do", "reaches": "reach", "holds": "hold"}
"""The verb after a subject that opens a title, as it reads after "3 filesystems"."""


def _subject_noun(subjects: tuple[str, ...]) -> str:
    """What the subjects are: filesystems (mountpoints), devices (kernel names), else subjects."""
    if all(subject.startswith("/") for subject in subjects):
        return "filesystems"
    return "devices" if all(re.fullmatch(r"[\w.:-]+", subject) for subject in subjects) else "subjects"


def merged_title(finding: Finding, subjects: tuple[str, ...]) -> str:
    """`finding`'s title said of all `subjects` instead of the first: "/ (ext4) is mounted with continuous
    discard" over three becomes "3 ext4 filesystems are mounted with continuous discard", "... of /'s
    stack" becomes "... of each filesystem's stack"; a title that names no subject stays as it is."""
    title, subject, count = finding.title, finding.subject, len(subjects)
    if count < 2:
        return title
    noun = _subject_noun(subjects)
    opening = re.match(re.escape(subject) + r"(?: \(([^()]+)\))? (\w+) ", title)
    if opening and opening[2] in PLURAL_VERBS:  # "S (ext4) is ..." / "S has ..."
        kind = f"{opening[1]} " if opening[1] else ""
        return f"{count} {kind}{noun} {PLURAL_VERBS[opening[2]]} {title[opening.end():]}"
    alone = r"(?<![\w/.~-])" + re.escape(subject) + r"(?![\w/.~-])"
    if re.search(alone + "'s ", title):
        return re.sub(alone + "'s ", lambda _m: f"each {noun[:-1]}'s ", title, count=1)
    return re.sub(alone, lambda _m: f"{count} {noun}", title, count=1)


OPENING_NAMES = re.compile(r"([A-Za-z][\w.:-]*(?:, [A-Za-z][\w.:-]*)*) (" + "|".join(PLURAL_VERBS) + ") ")
"""A title opening with the names it is about, then its verb: "loop15 does not accept discard …"."""


def opening_names(title: str) -> tuple[tuple[str, ...], str, str] | None:
    """The names a title opens with, its verb and the rest ("loop15, loop16", "does", "not accept …"),
    or None when it opens otherwise."""
    opening = OPENING_NAMES.match(title)
    return (tuple(opening[1].split(", ")), opening[2], title[opening.end():]) if opening else None


def names_title(members: tuple[Finding, ...], subjects: tuple[str, ...]) -> str:
    """The title of `members` whose titles differ only in the names they open with, said of them all:
    "loop15 does not accept discard (…)" on two filesystems becomes "2 devices do not accept discard (…)"
    (newuser24 #7: a row each for loop15 and loop17 beside one row for 6 filesystems)."""
    names: list[str] = []
    for member in members:
        names += [name for name in (opening_names(member.title) or ((member.title,), "", ""))[0]
                  if name not in names]
    first = members[0]
    opening = opening_names(first.title)
    if opening is None:
        return merged_title(first, subjects)
    rest = merged_title(replace(first, title=opening[2]), subjects)
    return f"{len(names)} {_subject_noun(tuple(names))} {PLURAL_VERBS[opening[1]]} {rest}"


def _merge_key(finding: Finding) -> tuple[str, str]:
    """What rows merge by: the finding's id and its title without its subject, and without the names it
    opens with (one row for "loop15 does not accept discard" and "loop17 does …")."""
    title = finding.title.replace(finding.subject, HOLE)
    opening = opening_names(title)
    return finding.id, (f"{NAMES} {opening[1]} {opening[2]}" if opening else title)


NAMES = "\1"
"""Where the names a title opens with stood, in a merge key."""


def _apart(items: list[Finding]) -> list[list[Finding]]:
    """`items` (one merge key) split so that no row holds two different titles on one subject (a row
    lists each subject once)."""
    parts: list[list[Finding]] = []
    for item in items:
        part = next((part for part in parts if all(other.subject != item.subject or other.title == item.title
                                                   for other in part)), None)
        if part is None:
            parts.append([item])
        else:
            part.append(item)
    return parts


def _row(items: list[Finding]) -> MergedFinding:
    """One row for the same finding on `items`' subjects (each subject once, in natural order)."""
    members = sorted({f.subject: f for f in reversed(items)}.values(), key=lambda f: natural_key(f.subject))
    return MergedFinding(items[0], tuple(f.subject for f in members), tuple(members))


def worst_first(findings: list[Finding]) -> list[MergedFinding]:
    """Findings by severity, then consequence (blocked before unscheduled before the rest), the same
    finding on several subjects merged into one row that lists them (its card is the first's); findings
    about saved runs on filesystems not mounted now (history) after every live one."""
    merged: dict[tuple[str, str], list[Finding]] = {}
    for finding in findings:
        merged.setdefault(_merge_key(finding), []).append(finding)
    rows = [_row(part) for items in merged.values() for part in _apart(items)]
    return sorted(rows, key=lambda row: (row.finding.history, row.finding.severity.rank,
                                         consequence_rank(row.finding.id), natural_key(row.finding.id),
                                         natural_key(row.subjects[0])))
