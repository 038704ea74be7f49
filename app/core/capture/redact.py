"""Replace what identifies a customer in a capture, by named rules (redact_rules.DEFAULT_RULES and a user's
own), with stand-ins that are the same for the same original everywhere in the bundle, so the stack still
links up; a report of what each rule replaced in each file (counts, never originals) goes into the bundle."""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable

from .redact_paths import backing_files, mount_paths, network_servers
from .redact_patterns import (
    ATA_IDENTIFY,
    CMDLINE_FILE,
    COMMON_ACCOUNTS,
    CRON_DROPPED,
    CRON_FILES,
    CRONTAB_USER,
    HOME_USER,
    JSON_ID,
    LABELS,
    SERIAL_FILES,
    SYSTEM_TREES,
    UDEV_ID,
    blank_identify_serials,
    id_rule,
    keep_fstrim_lines,
    passwd_users,
)
from .redact_rules import DEFAULT_RULES, UserRule
from .redactor import Redactor

HOSTNAME_FILE = "proc/sys/kernel/hostname"
REPORT_FILE = "redactions.json"


def _file_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read(256).strip()
    except OSError:
        return ""


def _regular_files(tree: str) -> list[str]:
    found = []
    for folder, _, names in os.walk(tree):
        found += [os.path.join(folder, n) for n in names
                  if not os.path.islink(os.path.join(folder, n))]
    return found


def _replace_hostname_files(tree: str, stand_in: str) -> list[str]:
    """The places that hold the hostname itself get the stand-in whatever its length; returns them."""
    replaced = []
    path = os.path.join(tree, HOSTNAME_FILE)
    if os.path.isfile(path):
        with open(path, "w") as out:
            out.write(stand_in + "\n")
        replaced.append(HOSTNAME_FILE)
    manifest = os.path.join(tree, "manifest.json")
    if os.path.isfile(manifest):
        with open(manifest) as handle:
            data = json.load(handle)
        data["hostname"] = stand_in
        with open(manifest, "w") as out:
            json.dump(data, out, indent=1, sort_keys=True)
        replaced.append("manifest.json")
    return replaced


def _collect(redactor: Redactor, files: dict[str, str], usernames: Iterable[str]) -> None:
    """Find the secrets that one file names and every other file must lose too."""
    for name in (*usernames, *passwd_users(files.get("etc/passwd", ""))):
        redactor.add_username(name)
    for rel in files:
        match = CRONTAB_USER.match(rel)
        if match and match[1] not in COMMON_ACCOUNTS:
            redactor.add_username(match[1])
    for text in files.values():
        for match in HOME_USER.finditer(text):
            redactor.add_username(match[2])
    for server in sorted(network_servers(files)):
        redactor.add_hostname(server, redactor.hostname_stand_in(server))
    for path in sorted(backing_files(files)):
        redactor.add_path(path, "loop-backing-file")
    for path in sorted(mount_paths(files)):
        redactor.add_path(path, "mountpoint")
    for rel, text in files.items():
        if os.path.basename(rel) in SERIAL_FILES:
            redactor.add_literal(text)
        for match in UDEV_ID.finditer(text):
            redactor.add_literal(match[2], id_rule(match[1]))
        for match in JSON_ID.finditer(text):
            redactor.add_literal(match[2], id_rule(match[1]))
        for pattern in LABELS:
            for match in pattern.finditer(text):
                redactor.add_word(match[2])


def _redact_file(redactor: Redactor, rel: str, text: str) -> str:
    if CRON_FILES.search(rel):
        kept = keep_fstrim_lines(text)
        redactor.counts["crontab"] += len(text.splitlines()) - len(kept.splitlines()) + (CRON_DROPPED in kept)
        text = kept
    if ATA_IDENTIFY.search(rel):
        blanked = blank_identify_serials(text)
        redactor.counts["serial"] += blanked != text
        text = blanked
    if rel == CMDLINE_FILE:
        text = redactor.redact_cmdline(redactor.redact_user_rules(text))
    return redactor.redact_all(text)


def _renamed(redactor: Redactor, rel: str) -> str:
    """A file's path with the same rules applied to each of its names (a crontab named after its user,
    a mount unit named after its path), outside sysfs, procfs and /dev, whose names are the kernel's."""
    if rel.startswith(SYSTEM_TREES):
        return rel
    match = CRONTAB_USER.match(rel)
    if match and match[1] in redactor.usernames:
        return os.path.join(os.path.dirname(rel), redactor.usernames[match[1]])
    return "/".join(redactor.redact_all(part) if part else part for part in rel.split("/"))


def _move(tree: str, rel: str, new_rel: str) -> None:
    """Move a file or link to its redacted path, dropping folders left empty."""
    os.makedirs(os.path.dirname(os.path.join(tree, new_rel)), exist_ok=True)
    os.rename(os.path.join(tree, rel), os.path.join(tree, new_rel))
    folder = os.path.dirname(rel)
    while folder and not os.listdir(os.path.join(tree, folder)):
        os.rmdir(os.path.join(tree, folder))
        folder = os.path.dirname(folder)


def _redact_links(redactor: Redactor, tree: str) -> int:
    """Symlinks outside sysfs, procfs and /dev: their names and targets redacted; returns how many moved."""
    changed = 0
    for folder, _, names in list(os.walk(tree)):
        for name in names:
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, tree)
            if not os.path.islink(path) or rel.startswith(SYSTEM_TREES):
                continue
            target = os.readlink(path)
            new_target, new_rel = redactor.redact_all(target), _renamed(redactor, rel)
            if new_target != target:
                os.unlink(path)
                os.symlink(new_target, path)
            if new_rel != rel:
                _move(tree, rel, new_rel)
            changed += new_rel != rel
    return changed


def redact_tree(tree: str, hostname: str | None, aliases: tuple[str, ...] = (), *,
                rules: Iterable[UserRule] = (), usernames: Iterable[str] = (),
                salt: bytes | None = None) -> dict[str, object]:
    """Redact every regular file under `tree` in place and write REPORT_FILE; returns that report.

    The hostname, its other names (`aliases`: the FQDN, /etc/hostname) and their short forms are
    replaced wherever they stand as a word of their own, so a short name such as "vm" does not
    corrupt "vmstat" or "kvm". `usernames` are the host's accounts (its /etc/passwd stays on the host)."""
    redactor = Redactor(salt, rules)
    hostname_files: list[str] = []
    if hostname:
        stand_in = redactor.hostname_stand_in(hostname)
        hostname_files = _replace_hostname_files(tree, stand_in)
        for name in (hostname, *aliases, _file_text(os.path.join(tree, "etc/hostname"))):
            if name and name.strip() and name.strip() != "localhost":
                redactor.add_hostname(name, stand_in)
    raw: dict[str, bytes] = {}
    for path in _regular_files(tree):
        with open(path, "rb") as handle:
            raw[os.path.relpath(path, tree)] = handle.read()
    files = {rel: data.decode("utf-8", "replace") for rel, data in raw.items()}
    _collect(redactor, files, usernames)
    per_file: dict[str, dict[str, int]] = {}
    renamed = 0
    for rel, text in files.items():
        redactor.counts = Counter({"hostname": 1} if rel in hostname_files else {})
        redacted = _redact_file(redactor, rel, text).encode()
        new_rel = _renamed(redactor, rel)
        path = os.path.join(tree, rel)
        if redacted != raw[rel]:
            stat = os.stat(path)
            with open(path, "wb") as out:
                out.write(redacted)
            os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
        if new_rel != rel:
            renamed += 1
            _move(tree, rel, new_rel)
        if redactor.counts:
            per_file[new_rel] = dict(sorted(redactor.counts.items()))
    redactor.counts = Counter()
    renamed += _redact_links(redactor, tree)
    return _write_report(tree, redactor, per_file, renamed)


def _write_report(tree: str, redactor: Redactor, per_file: dict[str, dict[str, int]],
                  renamed: int) -> dict[str, object]:
    totals: Counter[str] = Counter()
    for counts in per_file.values():
        totals.update(counts)
    report = {
        "format": "diskdoctor-redactions", "format_version": 1,
        "rules": [{"name": name, "source": "default", "replaces": what}
                  for name, what in DEFAULT_RULES.items()]
        + [{"name": "user:" + rule.name, "source": "user", "replaces": f"the user's {rule.kind} rule"}
           for rule in redactor.rules],
        "totals": dict(sorted(totals.items())),
        "files": dict(sorted(per_file.items())),
        "files_renamed": renamed,
        "note": "counts of replacements per rule and file; the originals are not in this bundle",
    }
    with open(os.path.join(tree, REPORT_FILE), "w") as out:
        json.dump(report, out, indent=1)
        out.write("\n")
    return report
