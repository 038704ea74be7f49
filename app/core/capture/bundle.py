"""`diskdoctor capture`: write the files the probes read, command outputs and a manifest to .tar.gz."""

from __future__ import annotations

import datetime as dt
import json
import os
import tarfile
import tempfile
from dataclasses import dataclass

from diskdoctor.app.base.errors import UsageError
from diskdoctor.app.base.version import installed_version
from diskdoctor.probes.capture_sources import (
    captured_commands,
    captured_text,
    extra_paths,
    record_probe_reads,
    usage_of_block_mounts,
)
from diskdoctor.probes.fs_usage import CAPTURED_USAGE
from diskdoctor.probes.host import Host
from diskdoctor.probes.root import CAPTURED_COMMANDS_DIR, Root, describe_write_error, live_root
from diskdoctor.probes.scratch import NotPrivate, make_owned_dir, remove_tree

from .redact import REPORT_FILE, redact_tree
from .redact_patterns import passwd_users
from .redact_rules import UserRule, load_rules
from .tree_copy import TreeCopier

BUNDLE_DIR = "diskdoctor-capture"
SCRATCH_PREFIX = "diskdoctor-capture-"
MANIFEST = "manifest.json"
FORMAT = "diskdoctor-capture"
SUFFIXES = (".tar.gz", ".tgz")


@dataclass(frozen=True)
class CaptureSummary:
    """What went into a bundle, for the closing message."""

    output: str
    files: int
    commands: int
    unreadable: int
    redacted: bool
    replacements: int = 0


def check_output_path(output: str, force: bool) -> None:
    """Refuse a bad output name, a missing folder, or overwriting without --force."""
    if not output.endswith(SUFFIXES):
        raise UsageError(f"capture output must end in .tar.gz or .tgz: {output}")
    folder = os.path.dirname(os.path.abspath(output))
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise UsageError(f"{folder} is a file, not a folder")
    if not os.path.isdir(folder):
        raise UsageError(f"folder {folder} does not exist")
    if os.path.isdir(output):
        raise UsageError(f"{output} is a directory")
    if os.path.lexists(output) and not force:
        raise UsageError(f"{output} already exists (use --force to replace it)")
    if not os.access(folder, os.W_OK):
        why = "read-only filesystem" if _read_only_fs(folder) else "permission denied"
        raise UsageError(f"cannot write to {folder}: {why}")


def _read_only_fs(folder: str) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _copy_recorded(root: Root, copier: TreeCopier) -> None:
    order = {"file": 0, "link": 1, "exists": 2, "dir": 3}  # contents first; listings only add names
    for kind, rel in sorted(root.recorded or (), key=lambda item: (order.get(item[0], 4), item[1])):
        if kind == "dir":
            copier.copy_listing(rel)
        elif kind == "link":
            copier.copy(rel, follow_last=False)
        elif kind == "exists":
            copier.stand_in(rel)
        else:
            copier.copy(rel)
    for rel in extra_paths(root):
        copier.copy(rel)


def _write_commands(root: Root, tree: str, host: Host) -> dict[str, dict]:
    os.makedirs(os.path.join(tree, CAPTURED_COMMANDS_DIR), exist_ok=True)
    results = {}
    for key, argv in captured_commands(host).items():
        output = root.run(key, argv)
        if output.text is not None:
            with open(os.path.join(tree, CAPTURED_COMMANDS_DIR, f"{key}.txt"), "w") as out:
                out.write(captured_text(key, output.text))
        results[key] = {"argv": argv, "exit_code": output.exit_code,
                        "captured": output.text is not None, "why_unknown": output.why_unknown}
    return results


def _host_usernames() -> list[str]:
    """People's account names in this host's /etc/passwd (read for redaction, never put in a bundle)."""
    text, _ = live_root().read_text("etc/passwd")
    return passwd_users(text or "")


def _build_tree(tree: str, redact: bool, rules: tuple[UserRule, ...]) -> tuple[int, int, int, int]:
    root = live_root(record=True)
    host = record_probe_reads(root)
    copier = TreeCopier(root.path, tree)
    _copy_recorded(root, copier)
    commands = _write_commands(root, tree, host)
    with open(os.path.join(tree, CAPTURED_USAGE), "w") as out:
        json.dump(usage_of_block_mounts(host), out, indent=1, sort_keys=True)
    hostname = host.hostname
    manifest = {
        "format": FORMAT, "format_version": 1, "tool_version": installed_version(),
        "created_utc": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "hostname": hostname, "kernel": host.kernel, "redacted": redact,
        "redactions": REPORT_FILE if redact else None,
        "files": copier.files, "commands": commands, "unreadable": copier.unreadable,
    }
    with open(os.path.join(tree, MANIFEST), "w") as out:
        json.dump(manifest, out, indent=1, sort_keys=True)
    replacements = 0
    if redact:
        report = redact_tree(tree, hostname, rules=rules, usernames=_host_usernames())
        replacements = sum(report["totals"].values())  # type: ignore[attr-defined]
    return (copier.files, sum(1 for c in commands.values() if c["captured"]), len(copier.unreadable),
            replacements)


def write_capture(output: str, *, redact: bool, force: bool, rules_path: str | None = None) -> CaptureSummary:
    """Capture this host into `output` atomically; nothing is left behind on failure. A rules file
    (`--redact-rules`) adds the user's rules to the default ones and implies redaction."""
    rules = load_rules(rules_path) if rules_path is not None else ()
    redact = redact or rules_path is not None
    check_output_path(output, force)
    folder = os.path.dirname(os.path.abspath(output))
    try:
        scratch = make_owned_dir(SCRATCH_PREFIX)
    except NotPrivate as err:
        raise UsageError(f"cannot write capture {output}: {err}") from err
    except OSError as err:
        raise UsageError(f"cannot write capture {output}: no temporary folder "
                         f"({describe_write_error(err)})") from err
    partial = None
    try:
        tree = os.path.join(scratch, BUNDLE_DIR)
        os.makedirs(tree)
        files, commands, unreadable, replacements = _build_tree(tree, redact, rules)
        handle, partial = tempfile.mkstemp(prefix=".diskdoctor-capture-", suffix=".partial",
                                           dir=folder)
        with os.fdopen(handle, "wb") as raw, tarfile.open(fileobj=raw, mode="w:gz") as tar:
            tar.add(tree, arcname=BUNDLE_DIR)
        os.chmod(partial, 0o600)
        os.replace(partial, output)
        partial = None
    except OSError as err:
        raise UsageError(f"cannot write capture {output}: {describe_write_error(err)}") from err
    finally:
        remove_tree(scratch)
        if partial is not None and os.path.lexists(partial):
            os.unlink(partial)
    return CaptureSummary(output, files, commands, unreadable, redact, replacements)
