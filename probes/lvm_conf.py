"""lvm.conf settings that concern TRIM: devices/issue_discards and allocation/thin_pool_discards."""

from __future__ import annotations

import re

from .facts import Fact
from .root import Root

LVM_CONF = "etc/lvm/lvm.conf"
ASSIGNMENT = re.compile(r"^([A-Za-z_][\w]*)\s*=\s*(.+)$")


def parse_lvm_conf(text: str) -> dict[str, str]:
    """Flat 'section/key' -> value for every assignment; comments and malformed lines ignored."""
    values: dict[str, str] = {}
    stack: list[str] = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        while line:
            if line.startswith("}"):
                if stack:
                    stack.pop()
                line = line[1:].strip()
                continue
            match = re.match(r"^([A-Za-z_][\w]*)\s*\{(.*)$", line)
            if match:
                stack.append(match.group(1))
                line = match.group(2).strip()
                continue
            match = ASSIGNMENT.match(line)
            if match:
                value = match.group(2).strip()
                closing = value.endswith("}") and not value.startswith("[")
                value = value.rstrip("}").strip().strip('"')
                values["/".join([*stack, match.group(1)])] = value
                if closing and stack:
                    stack.pop()
            break
    return values


def read_lvm_setting(root: Root, key: str) -> Fact[str]:
    """One lvm.conf setting such as 'devices/issue_discards' (unknown when unset: LVM's default applies)."""
    text, why = root.read_text(LVM_CONF)
    source = root.host_path(LVM_CONF)
    if text is None:
        return Fact(None, source, why)
    value = parse_lvm_conf(text).get(key)
    return Fact(value, source, None if value is not None else "not set (LVM's built-in default applies)")
