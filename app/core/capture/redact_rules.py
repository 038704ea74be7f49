"""The redaction rules: the default set `capture --redact` applies, and a user's file of extra rules
(`--redact-rules FILE`), in the spirit of Kubernetes troubleshoot's redactors (literal and regex rules
with names, reported by name, never by the value they matched)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from diskdoctor.app.base.errors import UsageError
from diskdoctor.probes.host_text import visible

MAX_RULES_BYTES = 1 << 20
MIN_LITERAL = 3
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
MASK_GROUP = "mask"

DEFAULT_RULES: dict[str, str] = {
    "hostname": "the hostname, its short form, its domain, the names in /etc/hostname and the servers "
                "of network filesystems (nfs01:/export, //server/share)",
    "ip-address": "IPv4 and IPv6 addresses (loopback and unspecified addresses are kept)",
    "username": "user names from /etc/passwd (uid 1000 and up) and from /home and /Users paths",
    "mountpoint": "every mountpoint path and everything below it, one directory name at a time "
                  "(system directories such as /var/lib and well-known data directories are kept)",
    "loop-backing-file": "the file behind each loop device, one directory name at a time",
    "kernel-cmdline": "the values of kernel command line parameters, except a few storage settings",
    "label": "filesystem and partition labels",
    "uuid": "UUIDs (filesystem, partition, md, device-mapper) and udev IDs",
    "serial": "serial numbers and WWNs (sysfs, udev, ATA IDENTIFY data)",
    "crontab": "crontab lines other than fstrim and run-parts ones",
}
"""Each default rule's name and what it replaces (the report names these; docs/capture.md lists them)."""


@dataclass(frozen=True)
class UserRule:
    """One rule from a rules file: a literal string or a regular expression, replaced wherever found.

    A regex with a group named `mask` replaces only that group (the rest of the match is kept)."""

    name: str
    kind: str
    pattern: re.Pattern[str]

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Where this rule's secret stands in `text` (start, end), left to right, not overlapping."""
        group = MASK_GROUP if MASK_GROUP in self.pattern.groupindex else 0
        found = []
        for match in self.pattern.finditer(text):
            start, end = match.span(group)
            if start >= 0 and end > start:
                found.append((start, end))
        return found


def _rule_error(path: str, number: int, why: str) -> UsageError:
    return UsageError(f"redaction rules {visible(path)} line {number}: {why}")


def parse_rule(line: str, path: str, number: int) -> UserRule | None:
    """One line of a rules file: `literal NAME TEXT` or `regex NAME PATTERN`; None for blank or '#'."""
    stripped = line.strip()
    if not stripped or stripped.startswith("#"):
        return None
    parts = stripped.split(None, 2)
    if len(parts) < 3:
        raise _rule_error(path, number, "a rule is KIND NAME VALUE (literal or regex, a name, the text)")
    kind, name, value = parts
    if kind not in ("literal", "regex"):
        raise _rule_error(path, number, f"unknown kind {visible(kind)!r} (use literal or regex)")
    if not NAME.fullmatch(name) or name in DEFAULT_RULES:
        raise _rule_error(path, number, f"bad rule name {visible(name)!r} (letters, digits, _ . -; "
                                        "not a default rule's name)")
    if kind == "literal":
        if len(value) < MIN_LITERAL:
            raise _rule_error(path, number, f"a literal needs at least {MIN_LITERAL} characters")
        return UserRule(name, kind, re.compile(re.escape(value)))
    try:
        pattern = re.compile(value)
    except re.error as err:
        raise _rule_error(path, number, f"the regex does not compile: {err}") from None
    if pattern.search("") is not None:
        raise _rule_error(path, number, "the regex matches an empty string")
    return UserRule(name, kind, pattern)


def load_rules(path: str) -> tuple[UserRule, ...]:
    """The rules in a user's file; any problem is one UsageError line naming the file and line."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_RULES_BYTES + 1)
    except OSError as err:
        raise UsageError(f"cannot read redaction rules {visible(path)}: {err.strerror or err}") from None
    if len(data) > MAX_RULES_BYTES:
        raise UsageError(f"redaction rules {visible(path)}: larger than {MAX_RULES_BYTES:,} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"redaction rules {visible(path)}: not UTF-8 text") from None
    rules: list[UserRule] = []
    for number, line in enumerate(text.splitlines(), 1):
        rule = parse_rule(line, path, number)
        if rule is None:
            continue
        if any(r.name == rule.name for r in rules):
            raise _rule_error(path, number, f"rule name {rule.name!r} is used twice")
        rules.append(rule)
    if not rules:
        raise UsageError(f"redaction rules {visible(path)}: no rules in it (see docs: KIND NAME VALUE)")
    return tuple(rules)
