"""The redactor: one stand-in per original for the whole bundle, and a count of what each rule replaced."""

from __future__ import annotations

import hashlib
import ipaddress
import re
import secrets
import string
from collections import Counter
from collections.abc import Callable, Iterable

from .redact_paths import component_token, decode_octal, is_secret, systemd_unit_name, variants
from .redact_patterns import (
    CANONICAL_UUID,
    CMDLINE_KEPT,
    COMMON_ACCOUNTS,
    CRYPT_DM_UUID,
    DOMAIN_STAND_IN,
    GENERIC_WORDS,
    HOME_USER,
    IPV4,
    IPV6_CANDIDATE,
    JSON_ID,
    KEPT_ADDRESSES,
    KEY_VALUE_ID,
    LVM_DM_UUID,
    MD_UUID,
    MIN_LITERAL,
    MIN_USERNAME,
    MPATH_DM_UUID,
    PARAMETER_NAME,
    UDEV_ID,
    id_rule,
)
from .redact_rules import UserRule

ALNUM = string.ascii_letters + string.digits


class Redactor:
    """Maps each secret to the same stand-in everywhere (a per-bundle salt, so stand-ins cannot be
    matched across bundles or guessed from a candidate name) and counts replacements per rule."""

    def __init__(self, salt: bytes | None = None, rules: Iterable[UserRule] = ()) -> None:
        self.salt = salt if salt is not None else secrets.token_bytes(16)
        self.rules = tuple(rules)
        self.literals: dict[str, tuple[str, str]] = {}
        self.words: dict[str, tuple[str, str]] = {}
        self.paths: dict[str, tuple[str, str]] = {}
        self.usernames: dict[str, str] = {}
        self.memo: dict[str, str] = {}
        self.produced: set[str] = set()
        self.counts: Counter[str] = Counter()
        self._compiled: dict[str, re.Pattern[str] | None] = {}

    def _digest(self, value: str) -> bytes:
        return hashlib.sha256(self.salt + value.encode("utf-8", "surrogateescape")).digest() * 4

    def _remember(self, value: str, make: Callable[[], str]) -> str:
        """The stand-in already given to `value` by any rule, else a new one (same original, same token)."""
        if value not in self.memo:
            self.memo[value] = make()
            self.produced.add(self.memo[value])
        return self.memo[value]

    def stand_in(self, value: str) -> str:
        """A stable replacement with the same length and character classes as `value`."""
        def make() -> str:
            digest = self._digest(value)
            out = []
            hexish = all(c in string.hexdigits + "-:" for c in value)
            for index, char in enumerate(value):
                byte = digest[index % len(digest)]
                if char in "-:._ /":
                    out.append(char)
                elif char in string.hexdigits and hexish:
                    digit = "0123456789abcdef"[byte % 16]
                    out.append(digit.upper() if char.isupper() else digit)
                else:
                    out.append(ALNUM[byte % len(ALNUM)])
            return "".join(out)
        return self._remember(value, make)

    def token(self, prefix: str, value: str) -> str:
        """PREFIX<8 hex> standing for `value` (or the stand-in another rule already gave it)."""
        return self._remember(value, lambda: prefix + self._digest(value).hex()[:8])

    def address_stand_in(self, address: str) -> str:
        """A documentation-range address (192.0.2.0/24, 2001:db8::/32) that stands for `address`."""
        def make() -> str:
            digest = self._digest(address)
            if ":" in address:
                return "2001:db8::" + digest[:2].hex() + ":" + digest[2:4].hex()
            return f"192.0.2.{digest[0] % 254 + 1}"
        return self._remember(address, make)

    def hostname_stand_in(self, hostname: str) -> str:
        """The hostname becomes host-<8 hex>."""
        return self.token("host-", hostname)

    def username_stand_in(self, name: str) -> str:
        """A user name becomes user-<6 hex>."""
        return self._remember(name, lambda: "user-" + self._digest(name).hex()[:6])

    def _sub(self, rule: str, pattern: re.Pattern[str], replace: Callable[[re.Match[str]], str],
             text: str) -> str:
        """`pattern.sub` that counts, under `rule`, each match it really changed."""
        def counted(match: re.Match[str]) -> str:
            new = replace(match)
            if new != match[0]:
                self.counts[rule] += 1
            return new
        return pattern.sub(counted, text)

    # What is found in one file, then replaced in all of them.

    def add_literal(self, value: str, rule: str = "serial") -> None:
        """Remember a secret seen in one file so every other file replaces it too."""
        value = value.strip()
        if len(value) >= MIN_LITERAL and value not in self.literals:
            self.literals[value] = (self.stand_in(value), rule)
            self._compiled.pop("literals", None)

    def add_word(self, value: str, rule: str = "label") -> None:
        """Replace `value` (a label, a user name) wherever it stands as a word of its own; a generic word
        (a label such as "root" or "data", the vocabulary of lsblk and udev) is kept, since replacing it
        as a word would rewrite the stack's own files and it names no customer."""
        value = value.strip()
        if value and value not in self.words and value.lower() not in GENERIC_WORDS:
            replacement = self.username_stand_in(value) if rule == "username" else self.stand_in(value)
            self.words[value] = (replacement, rule)
            self._compiled.pop("words", None)

    def add_hostname(self, hostname: str, stand_in: str) -> None:
        """Replace the hostname in every form (FQDN, the short name, and its domain, which also names
        the customer's other hosts) wherever it stands as a word."""
        short, _, domain = hostname.strip().partition(".")
        for name in {hostname.strip(), short} - {""}:
            self.words[name] = (stand_in, "hostname")
        if domain:
            self.words[domain] = (DOMAIN_STAND_IN, "hostname")
        self._compiled.pop("words", None)

    def add_username(self, name: str) -> None:
        """A user name: replaced in /home paths always, and as a word when it is long and not generic."""
        name = name.strip()
        if not name or "/" in name:
            return
        self.usernames[name] = self.username_stand_in(name)
        if len(name) >= MIN_USERNAME and name not in COMMON_ACCOUNTS:
            self.add_word(name, "username")

    def add_path(self, path: str, rule: str) -> None:
        """A customer path: replaced, with anything below it, one directory name at a time."""
        if not is_secret(path):
            return
        stand_in = self.redact_path(path)
        for variant in variants(path):
            self.paths.setdefault(variant, (stand_in, rule))
        unit = systemd_unit_name(path)
        if len(unit) >= MIN_LITERAL and unit not in self.literals:
            self.literals[unit] = (systemd_unit_name(stand_in), rule)
            self._compiled.pop("literals", None)
        self._compiled.pop("paths", None)

    def redact_path(self, path: str) -> str:
        """Each directory name that is not a well-known one replaced by its dir-<hex> stand-in (a user
        name below /home by its user stand-in)."""
        parts = path.split("/")
        out = []
        for index, part in enumerate(parts):
            plain = decode_octal(part)
            if not part or not is_secret(plain):
                out.append(part)
            elif plain in self.usernames:
                out.append(self.usernames[plain])
            elif index > 1 and parts[index - 1] in ("home", "Users"):
                out.append(self.username_stand_in(plain))
            else:
                out.append(self._remember(plain, lambda p=plain: component_token(p, self._digest(p).hex())))
        return "/".join(out)

    # Replacing.

    def _alternation(self, key: str, values: Iterable[str], before: str,
                     after: str) -> re.Pattern[str] | None:
        if key not in self._compiled:
            ordered = sorted(values, key=len, reverse=True)
            self._compiled[key] = (re.compile(before + "(" + "|".join(map(re.escape, ordered)) + ")" + after)
                                   if ordered else None)
        return self._compiled[key]

    def redact_user_rules(self, text: str) -> str:
        """The user's rules: each match (or its `mask` group) replaced by redacted-<hex>."""
        for rule in self.rules:
            spans = rule.spans(text)
            if not spans:
                continue
            out, last = [], 0
            for start, end in spans:
                out += [text[last:start], self.token("redacted-", text[start:end])]
                last = end
            self.counts["user:" + rule.name] += len(spans)
            text = "".join(out) + text[last:]
        return text

    def redact_paths(self, text: str) -> str:
        """Customer paths and everything below them, wherever they stand as a path of their own."""
        pattern = self._alternation("paths", self.paths, r"(?<![\w.\-/])", r"((?:/[^\s/\"',;=()\[\]{}<>|]+)*)"
                                    r"(?![\w.\-])")
        if pattern is None:
            return text

        def replace(match: re.Match[str]) -> str:
            stand_in, _rule = self.paths[match[1]]
            return stand_in + self.redact_path(match[2]) if match[2] else stand_in
        return self._sub_by(pattern, replace, lambda m: self.paths[m[1]][1], text)

    def _sub_by(self, pattern: re.Pattern[str], replace: Callable[[re.Match[str]], str],
                rule_of: Callable[[re.Match[str]], str], text: str) -> str:
        def counted(match: re.Match[str]) -> str:
            new = replace(match)
            if new != match[0]:
                self.counts[rule_of(match)] += 1
            return new
        return pattern.sub(counted, text)

    def redact_text(self, text: str) -> str:
        """Apply the literal and pattern rules to one text."""
        literals = self._alternation("literals", self.literals, "", "")
        if literals is not None:
            text = self._sub_by(literals, lambda m: self.literals[m[1]][0],
                                lambda m: self.literals[m[1]][1], text)
        text = self._sub("uuid", LVM_DM_UUID, lambda m: m[1] + self.stand_in(m[2]) +
                         (self.stand_in(m[3]) if m[3] else ""), text)
        text = self._sub("uuid", CRYPT_DM_UUID, lambda m: m[1] + self.stand_in(m[2]), text)
        text = self._sub("uuid", MPATH_DM_UUID, lambda m: m[1] + self.stand_in(m[2]), text)
        text = self._sub("uuid", CANONICAL_UUID, lambda m: self.stand_in(m[0]), text)
        text = self._sub("uuid", MD_UUID, lambda m: self.stand_in(m[0]), text)
        for pattern in (KEY_VALUE_ID, JSON_ID, UDEV_ID):
            text = self._sub_by(pattern, lambda m: m[1] + self.stand_in(m[2]) + m[0][len(m[1]) + len(m[2]):],
                                lambda m: id_rule(m[1]), text)
        text = self._sub("username", HOME_USER, self._home_user, text)
        text = self._sub("ip-address", IPV4,
                         lambda m: m[0] if m[0] in KEPT_ADDRESSES else self.address_stand_in(m[0]), text)
        return self._sub("ip-address", IPV6_CANDIDATE, self._ipv6, text)

    def _home_user(self, match: re.Match[str]) -> str:
        name = match[2]
        if name in self.produced:  # already a stand-in (a path rule ran first)
            return match[0]
        return match[1] + self.usernames.get(name, self.username_stand_in(name))

    def _ipv6(self, match: re.Match[str]) -> str:
        address = match[0].split("%", 1)[0]
        try:
            ipaddress.IPv6Address(address)
        except ValueError:
            return match[0]
        return match[0] if address in KEPT_ADDRESSES else self.address_stand_in(address)

    def redact_words(self, text: str) -> str:
        """Labels, hostnames and user names where they stand alone (not inside a longer name)."""
        pattern = self._alternation("words", self.words, r"(?<![A-Za-z0-9_-])", r"(?![A-Za-z0-9_-])")
        if pattern is None:
            return text
        return self._sub_by(pattern, lambda m: self.words[m[1]][0], lambda m: self.words[m[1]][1], text)

    def redact_all(self, text: str) -> str:
        """Every rule, most specific first: the user's, paths, IDs and addresses, then words."""
        return self.redact_words(self.redact_text(self.redact_paths(self.redact_user_rules(text))))

    def redact_cmdline(self, text: str) -> str:
        """The kernel command line with each parameter's name kept and its value replaced, except the
        storage settings in CMDLINE_KEPT; a bare word that is not a parameter name is replaced whole."""
        words = []
        for word in text.split():
            key, equals, value = word.partition("=")
            if equals and (key in CMDLINE_KEPT or value.isdigit()):
                words.append(word)
            elif equals and PARAMETER_NAME.fullmatch(key) and value:
                self.counts["kernel-cmdline"] += 1
                words.append(f"{key}={self.token('value-', value)}")
            elif PARAMETER_NAME.fullmatch(word.lstrip("-")) or word == "--":
                words.append(word)
            else:
                self.counts["kernel-cmdline"] += 1
                words.append(self.token("value-", word))
        return " ".join(words) + "\n"
