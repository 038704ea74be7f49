"""Replace what identifies a customer in a capture with stable stand-ins: serial numbers, UUIDs, WWNs,
the hostname (FQDN and short), IP addresses, filesystem and partition labels, user names in home paths;
crontabs keep only their fstrim and run-parts lines."""

from __future__ import annotations

import hashlib
import ipaddress
import json
import os
import re
import string

SALT = b"diskdoctor-redact-v1:"
DOMAIN_STAND_IN = "domain.invalid"
MIN_LITERAL = 4
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
LABELS = (re.compile(r"(\b(?:LABEL|PARTLABEL)=\"?)([^\s\",]+)"),
          re.compile(r'("(?:label|partlabel)":\s*")([^"]+)"'),
          re.compile(r"^(E:ID_(?:FS_LABEL|FS_LABEL_ENC|PART_ENTRY_NAME)=)(.*)$", re.MULTILINE),
          re.compile(r"^(S:disk/by-(?:part)?label/)(.*)$", re.MULTILINE))
"""Where labels are found; they are then replaced wherever they stand as a word of their own."""
HOME_USER = re.compile(r"(/(?:home|Users)/)([^/\s\"',:;]+)")
IPV4 = re.compile(r"(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\w.])")
IPV6_CANDIDATE = re.compile(r"(?<![\w:.])(?=[0-9A-Fa-f:]*::|(?:[0-9A-Fa-f]{1,4}:){7})[0-9A-Fa-f:]{2,39}"
                            r"(?:%[\w.-]+)?(?![\w:])")
KEPT_ADDRESSES = {"0.0.0.0", "127.0.0.1", "::", "::1", "255.255.255.255"}
CRON_FILES = re.compile(r"(^|/)(etc/crontab|etc/anacrontab|etc/cron\.[a-z]+/[^/]+|var/spool/cron/.+)$")
CRON_KEEP = re.compile(r"\bfstrim\b|\brun-parts\b|^#!")
CRON_DROPPED = "# [other lines removed by diskdoctor capture --redact]"
SERIAL_FILES = ("serial", "wwid", "vpd_pg80")
ATA_IDENTIFY = re.compile(r"(^|/)ata_device/[^/]+/id$")
IDENTIFY_WORDS = 256
IDENTIFY_SERIAL_WORDS = (*range(10, 20), *range(108, 112))
"""IDENTIFY DEVICE words 10-19 (serial number) and 108-111 (world wide name)."""


def _digest(value: str) -> bytes:
    return hashlib.sha256(SALT + value.encode()).digest() * 4


class Redactor:
    """Maps each secret to the same stand-in everywhere, keeping its shape (hex stays hex)."""

    def __init__(self) -> None:
        self.literals: dict[str, str] = {}
        self.words: dict[str, str] = {}

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

    def address_stand_in(self, address: str) -> str:
        """A documentation-range address (192.0.2.0/24, 2001:db8::/32) that stands for `address`."""
        digest = _digest(address)
        if ":" in address:
            return "2001:db8::" + digest[:2].hex() + ":" + digest[2:4].hex()
        return f"192.0.2.{digest[0] % 254 + 1}"

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
        text = HOME_USER.sub(lambda m: m[1] + "user-" + self.stand_in(m[2])[:6].lower(), text)
        text = IPV4.sub(lambda m: m[0] if m[0] in KEPT_ADDRESSES else self.address_stand_in(m[0]), text)
        return IPV6_CANDIDATE.sub(self._ipv6, text)

    def _ipv6(self, match: re.Match[str]) -> str:
        address = match[0].split("%", 1)[0]
        try:
            ipaddress.IPv6Address(address)
        except ValueError:
            return match[0]
        return match[0] if address in KEPT_ADDRESSES else self.address_stand_in(address)

    def add_word(self, value: str) -> None:
        """Replace `value` (a label) wherever it stands as a word of its own."""
        value = value.strip()
        if value and value not in self.words:
            self.words[value] = self.stand_in(value)

    def add_hostname(self, hostname: str, stand_in: str) -> None:
        """Replace the hostname in every form (FQDN, the short name, and its domain, which also names
        the customer's other hosts) wherever it stands as a word."""
        short, _, domain = hostname.strip().partition(".")
        for name in {hostname.strip(), short} - {""}:
            self.words[name] = stand_in
        if domain:
            self.words[domain] = DOMAIN_STAND_IN

    def redact_words(self, text: str) -> str:
        """Replace the hostname forms where they stand alone (not inside a longer name)."""
        for name, replacement in sorted(self.words.items(), key=lambda item: -len(item[0])):
            text = re.sub(rf"(?<![A-Za-z0-9_-]){re.escape(name)}(?![A-Za-z0-9_-])", replacement, text)
        return text


def keep_fstrim_lines(text: str) -> str:
    """A crontab or cron script reduced to its fstrim and run-parts lines (a crontab can hold secrets)."""
    kept = [line for line in text.splitlines() if CRON_KEEP.search(line)]
    dropped = len(text.splitlines()) - len(kept)
    return "\n".join(kept + ([CRON_DROPPED] if dropped else [])) + "\n"


def blank_identify_serials(text: str) -> str:
    """ATA IDENTIFY data (sysfs ata_device `id`, 256 hex words) with the serial number and WWN words
    zeroed: they are stored byte-swapped there, where no literal replacement would find them."""
    words = text.split()
    if len(words) < IDENTIFY_WORDS:
        return text
    for index in IDENTIFY_SERIAL_WORDS:
        words[index] = "0000"
    return "".join(" ".join(words[i:i + 8]) + "\n" for i in range(0, len(words), 8))


def _file_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read(256).strip()
    except OSError:
        return ""


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


def redact_tree(tree: str, hostname: str | None, aliases: tuple[str, ...] = ()) -> Redactor:
    """Redact every regular file under `tree` in place; returns the redactor used.

    The hostname, its other names (`aliases`: the FQDN, /etc/hostname) and their short forms are
    replaced wherever they stand as a word of their own, so a short name such as "vm" does not
    corrupt "vmstat" or "kvm"."""
    redactor = Redactor()
    if hostname:
        stand_in = redactor.hostname_stand_in(hostname)
        _replace_hostname_files(tree, hostname, stand_in)
        for name in (hostname, *aliases, _file_text(os.path.join(tree, "etc/hostname"))):
            if name and name.strip() and name.strip() != "localhost":
                redactor.add_hostname(name, stand_in)
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
        for pattern in LABELS:
            for match in pattern.finditer(text):
                redactor.add_word(match[2])
    for path, raw in contents.items():
        stat = os.stat(path)
        text = raw.decode("utf-8", "replace")
        if CRON_FILES.search(os.path.relpath(path, tree)):
            text = keep_fstrim_lines(text)
        if ATA_IDENTIFY.search(os.path.relpath(path, tree)):
            text = blank_identify_serials(text)
        redacted = redactor.redact_words(redactor.redact_text(text)).encode()
        if redacted != raw:
            with open(path, "wb") as out:
                out.write(redacted)
            os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    return redactor
