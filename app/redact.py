"""Replace serial numbers, UUIDs and the hostname in a capture with stable hashes."""

from __future__ import annotations

import hashlib
import json
import os
import re
import string

SALT = b"diskdoctor-redact-v1:"
MIN_LITERAL = 4
MIN_HOSTNAME_LITERAL = 6
HOSTNAME_FILE = "proc/sys/kernel/hostname"
ALNUM = string.ascii_letters + string.digits

CANONICAL_UUID = re.compile(
    r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")
MD_UUID = re.compile(r"\b[0-9a-fA-F]{8}:[0-9a-fA-F]{8}:[0-9a-fA-F]{8}:[0-9a-fA-F]{8}\b")
LVM_DM_UUID = re.compile(r"(LVM-)([A-Za-z0-9]{32})([A-Za-z0-9]{32})?")
CRYPT_DM_UUID = re.compile(r"(CRYPT-[A-Z0-9]+-)([0-9a-fA-F]{32})")
MPATH_DM_UUID = re.compile(r"(mpath-)([0-9A-Za-z_.:]+)")
KEY_VALUE_ID = re.compile(r"(\b(?:UUID|PARTUUID|PTUUID|UUID_SUB|LABEL_FATBOOT)=\"?)([^\s\",]+)")
JSON_ID = re.compile(
    r'("(?:uuid|ptuuid|partuuid|wwn|serial|uuid_sub|lv_uuid|vg_uuid|pv_uuid)":\s*")([^"]+)"')
UDEV_ID = re.compile(
    r"^(E:(?:ID_[A-Z_]*(?:UUID|SERIAL|WWN)[A-Z_]*|MD_UUID)=)(.*)$", re.MULTILINE)
"""DM_UUID is left to the dm patterns above: hashed whole, it lost its LVM-/CRYPT- prefix everywhere."""
SERIAL_FILES = ("serial", "wwid", "vpd_pg80")


def _digest(value: str) -> bytes:
    return hashlib.sha256(SALT + value.encode()).digest() * 4


class Redactor:
    """Maps each secret to the same stand-in everywhere, keeping its shape (hex stays hex)."""

    def __init__(self) -> None:
        self.literals: dict[str, str] = {}

    def stand_in(self, value: str) -> str:
        """A stable replacement with the same length and character classes as `value`."""
        digest = _digest(value)
        out = []
        for index, char in enumerate(value):
            byte = digest[index % len(digest)]
            if char in "-:._ /":
                out.append(char)
            elif char in string.hexdigits and all(c in string.hexdigits + "-:" for c in value):
                digit = "0123456789abcdef"[byte % 16]
                out.append(digit.upper() if char.isupper() else digit)
            else:
                out.append(ALNUM[byte % len(ALNUM)])
        return "".join(out)

    def hostname_stand_in(self, hostname: str) -> str:
        """The hostname becomes host-<8 hex>."""
        return "host-" + hashlib.sha256(SALT + hostname.encode()).hexdigest()[:8]

    def add_literal(self, value: str, replacement: str | None = None) -> None:
        """Remember a secret seen in one file so every other file replaces it too."""
        value = value.strip()
        if len(value) >= MIN_LITERAL:
            self.literals[value] = replacement or self.stand_in(value)

    def redact_text(self, text: str) -> str:
        """Apply literal and pattern replacements to one text."""
        for value in sorted(self.literals, key=len, reverse=True):
            text = text.replace(value, self.literals[value])
        text = LVM_DM_UUID.sub(lambda m: m[1] + self.stand_in(m[2]) +
                               (self.stand_in(m[3]) if m[3] else ""), text)
        text = CRYPT_DM_UUID.sub(lambda m: m[1] + self.stand_in(m[2]), text)
        text = MPATH_DM_UUID.sub(lambda m: m[1] + self.stand_in(m[2]), text)
        text = CANONICAL_UUID.sub(lambda m: self.stand_in(m[0]), text)
        text = MD_UUID.sub(lambda m: self.stand_in(m[0]), text)
        for pattern in (KEY_VALUE_ID, JSON_ID, UDEV_ID):
            text = pattern.sub(lambda m: m[1] + self.stand_in(m[2]) + m[0][len(m[1]) +
                               len(m[2]):], text)
        return text


def _text_files(tree: str) -> list[str]:
    found = []
    for folder, _, names in os.walk(tree):
        found += [os.path.join(folder, n) for n in names
                  if not os.path.islink(os.path.join(folder, n))]
    return found


def _replace_hostname_files(tree: str, hostname: str, stand_in: str) -> None:
    """The places that hold the hostname itself get the stand-in whatever its length."""
    path = os.path.join(tree, HOSTNAME_FILE)
    if os.path.isfile(path):
        with open(path, "w") as out:
            out.write(stand_in + "\n")
    manifest = os.path.join(tree, "manifest.json")
    if os.path.isfile(manifest):
        with open(manifest) as handle:
            data = json.load(handle)
        data["hostname"] = stand_in
        with open(manifest, "w") as out:
            json.dump(data, out, indent=1, sort_keys=True)


def redact_tree(tree: str, hostname: str | None) -> Redactor:
    """Redact every regular file under `tree` in place; returns the redactor used.

    A hostname shorter than MIN_HOSTNAME_LITERAL (e.g. "vm") is replaced only where it is the
    whole value, since replacing it inside other text would corrupt unrelated words."""
    redactor = Redactor()
    if hostname:
        stand_in = redactor.hostname_stand_in(hostname)
        _replace_hostname_files(tree, hostname, stand_in)
        if len(hostname) >= MIN_HOSTNAME_LITERAL:
            redactor.add_literal(hostname, stand_in)
    contents: dict[str, bytes] = {}
    for path in _text_files(tree):
        with open(path, "rb") as handle:
            contents[path] = handle.read()
    for path, raw in contents.items():
        text = raw.decode("utf-8", "replace")
        if os.path.basename(path) in SERIAL_FILES:
            redactor.add_literal(text)
        for match in UDEV_ID.finditer(text):
            redactor.add_literal(match[2])
        for match in JSON_ID.finditer(text):
            redactor.add_literal(match[2])
    for path, raw in contents.items():
        stat = os.stat(path)
        redacted = redactor.redact_text(raw.decode("utf-8", "replace")).encode()
        if redacted != raw:
            with open(path, "wb") as out:
                out.write(redacted)
            os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    return redactor
