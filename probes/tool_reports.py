"""What read-only tools report about filesystems and software: tune2fs, compsize, ceph-osd, os-release."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .commands import READ_ONLY_COMMANDS, compsize_command, tune2fs_command
from .facts import Fact
from .root import Root

CEPH_VERSION = re.compile(r"ceph version (\d+)\.(\d+)\.(\d+)")
FIO_VERSION = re.compile(r"fio-(\d+)\.(\d+)")
OS_RELEASE = "etc/os-release"


@dataclass(frozen=True, slots=True)
class Ext4Raid:
    """RAID hints stored in an ext4 superblock (`tune2fs -l`): stride and stripe width in fs blocks."""

    block_size: int | None
    stride: int | None
    stripe_width: int | None


@dataclass(frozen=True, slots=True)
class Compression:
    """compsize's TOTAL line: on-disk bytes as a percentage of the uncompressed size."""

    percent: int
    disk_usage: str
    uncompressed: str


def parse_tune2fs(text: str) -> Ext4Raid:
    """The block size and RAID fields of `tune2fs -l` output (absent fields are None)."""
    fields = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and value.strip().isdigit():
            fields[key.strip()] = int(value.strip())
    return Ext4Raid(fields.get("Block size"), fields.get("RAID stride"), fields.get("RAID stripe width"))


def parse_compsize(text: str) -> Compression | None:
    """The TOTAL row of compsize output, or None when there is none (no regular files)."""
    for line in text.splitlines():
        fields = line.split()
        if len(fields) >= 4 and fields[0] == "TOTAL" and fields[1].endswith("%") and fields[1][:-1].isdigit():
            return Compression(int(fields[1][:-1]), fields[2], fields[3])
    return None


def parse_ceph_version(text: str) -> tuple[int, int, int] | None:
    """(major, minor, patch) from `ceph-osd --version`."""
    match = CEPH_VERSION.search(text)
    return (int(match.group(1)), int(match.group(2)), int(match.group(3))) if match else None


def parse_fio_version(text: str) -> tuple[int, int] | None:
    """(major, minor) from `fio --version` ("fio-3.33")."""
    match = FIO_VERSION.search(text)
    return (int(match.group(1)), int(match.group(2))) if match else None


def parse_os_release(text: str) -> dict[str, str]:
    """KEY=value pairs of /etc/os-release, quotes removed."""
    pairs = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and key.strip().isidentifier():
            pairs[key.strip()] = value.strip().strip('"').strip("'")
    return pairs


def read_ext4_raid(root: Root, kname: str, path: str) -> Fact[Ext4Raid]:
    """`tune2fs -l PATH` (live) or its captured output."""
    key, argv = tune2fs_command(kname, path)
    output = root.run(key, argv)
    if output.text is None:
        return Fact(None, output.source, output.why_unknown)
    return Fact(parse_tune2fs(output.text), output.source)


def read_compression(root: Root, mountpoint: str) -> Fact[Compression]:
    """`compsize -x MOUNTPOINT` (live, as root) or its captured output."""
    key, argv = compsize_command(mountpoint)
    output = root.run(key, argv)
    if output.text is None:
        return Fact(None, output.source, output.why_unknown)
    total = parse_compsize(output.text)
    return Fact(total, output.source, None if total else "compsize printed no TOTAL line")


def read_ceph_version(root: Root) -> Fact[str]:
    """The `ceph-osd --version` line (None when ceph-osd is not installed)."""
    key = "ceph-osd-version"
    output = root.run(key, READ_ONLY_COMMANDS[key])
    if output.text is None:
        return Fact(None, output.source, output.why_unknown)
    return Fact(output.text.strip().splitlines()[0] if output.text.strip() else None, output.source,
                None if output.text.strip() else "empty output")


def read_fio_version(root: Root) -> Fact[str]:
    """The `fio --version` line (None when fio is not installed)."""
    key = "fio-version"
    output = root.run(key, READ_ONLY_COMMANDS[key])
    text = (output.text or "").strip()
    if output.text is None:
        return Fact(None, output.source, output.why_unknown)
    return Fact(text.splitlines()[0] if text else None, output.source, None if text else "empty output")


def read_os_release(root: Root) -> Fact[dict[str, str]]:
    """/etc/os-release as a dict."""
    text, why = root.read_text(OS_RELEASE)
    return Fact(parse_os_release(text) if text is not None else None, f"/{OS_RELEASE}", why)
