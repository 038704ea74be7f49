"""Which paths in a capture name the customer's own places (mountpoints, loop backing files) and how
each is replaced: one directory name at a time, so a path and everything below it stay consistent
(mountinfo, fstab and fs-usage.json still agree) while system directories stay readable."""

from __future__ import annotations

import json
import os
import re

KEEP_COMPONENTS = frozenset("""
bin boot efi dev etc home lib lib32 lib64 libx32 media mnt opt proc root run sbin srv sys tmp usr var
local share log cache spool data data0 data1 data2 data3 storage backup backups swap swapfile swap.img
lost+found snap flatpak containers docker containerd kubelet pods volumes etcd member wal elasticsearch
opensearch ceph osd mon mysql mariadb postgresql pgsql mongodb kafka zookeeper cassandra scylla redis
clickhouse minio prometheus influxdb rook longhorn openebs images libvirt
""".split())  # noqa: SIM905
"""Directory names that say nothing about the customer: kept so a redacted path stays readable."""
SYSTEM_TREES = ("/proc", "/sys", "/dev")
PATH_CHARS = r"[^\s/\"',;=()\[\]{}<>|]"
TOKEN_PREFIX = "dir-"
EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,6}$")


def decode_octal(text: str) -> str:
    """mountinfo's and fstab's octal escapes (\\040 for a space) decoded."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m[1], 8)), text) if "\\" in text else text


def encode_octal(text: str) -> str:
    """A path as mountinfo and fstab write it (space, tab, newline and backslash in octal)."""
    return "".join(f"\\{ord(c):03o}" if c in " \t\n\\" else c for c in text)


def _usable(path: str) -> bool:
    return (path.startswith("/") and path != "/" and not path.startswith("/dev/")
            and not any(path == tree or path.startswith(tree + "/") for tree in SYSTEM_TREES))


def mount_paths(files: dict[str, str]) -> set[str]:
    """Mountpoints (and file-backed sources) named in mountinfo, fstab, swaps, crypttab and fs-usage.json."""
    found: set[str] = set()
    for line in files.get("proc/self/mountinfo", "").splitlines():
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(fields) >= 5:
            found |= {decode_octal(fields[3]), decode_octal(fields[4])}
        if len(tail) >= 2:
            found.add(decode_octal(tail[1]))
    for rel in ("etc/fstab", "proc/mounts", "etc/mtab"):
        for line in files.get(rel, "").splitlines():
            fields = line.split("#", 1)[0].split()
            found |= {decode_octal(field) for field in fields[:2]}
    for line in files.get("proc/swaps", "").splitlines()[1:]:
        found |= {decode_octal(field) for field in line.split()[:1]}
    for line in files.get("etc/crypttab", "").splitlines():
        found |= set(line.split("#", 1)[0].split()[2:3])
    try:
        usage = json.loads(files.get("fs-usage.json", "{}"))
    except ValueError:
        usage = {}
    if isinstance(usage, dict):
        found |= {key for key in usage if isinstance(key, str)}
    found |= {path for path, _server in _network_sources(files)}
    return {path.rstrip("/") or "/" for path in found if _usable(path)}


NETWORK_SOURCE = re.compile(r"^(?://([^/\s]+)/|([A-Za-z0-9][A-Za-z0-9.-]*):/(?!/))")
"""A network filesystem's server: //server/share (CIFS) or server:/export (NFS)."""


def _network_sources(files: dict[str, str]) -> list[tuple[str, str]]:
    """(path on the server, server) of each network filesystem in mountinfo, fstab and mounts."""
    sources = []
    for line in files.get("proc/self/mountinfo", "").splitlines():
        sources += line.partition(" - ")[2].split()[1:2]
    for rel in ("etc/fstab", "proc/mounts", "etc/mtab"):
        for line in files.get(rel, "").splitlines():
            sources += line.split("#", 1)[0].split()[:1]
    found = []
    for source in map(decode_octal, sources):
        match = NETWORK_SOURCE.match(source)
        if match:
            found.append(("/" + source[match.end():].lstrip("/"), (match[1] or match[2]).strip("[]")))
    return found


def network_servers(files: dict[str, str]) -> set[str]:
    """Server names in the sources of mounts and fstab lines (addresses are left to the address rule)."""
    return {server for _path, server in _network_sources(files)
            if server and not re.fullmatch(r"[0-9.]+|[0-9A-Fa-f:]+", server)}


def backing_files(files: dict[str, str]) -> set[str]:
    """The files behind loop devices (sysfs loop/backing_file), without the kernel's " (deleted)"."""
    found = set()
    for rel, text in files.items():
        if rel.startswith("sys/") and os.path.basename(rel) == "backing_file":
            path = text.strip().removesuffix(" (deleted)")
            if _usable(path):
                found.add(path)
    return found


def is_secret(path: str) -> bool:
    """Whether a path holds a directory name that is not a well-known system or data directory."""
    return any(part not in KEEP_COMPONENTS for part in path.strip("/").split("/"))


def variants(path: str) -> set[str]:
    """How the path can be written in a capture: as is, octal-escaped (mountinfo) and JSON-escaped."""
    return {path, encode_octal(path), json.dumps(path)[1:-1]}


def component_token(component: str, digest: str) -> str:
    """The stand-in for one directory name: dir-<8 hex>, keeping a short file extension (.img)."""
    extension = EXTENSION.search(component)
    return TOKEN_PREFIX + digest[:8] + (extension[0] if extension and extension.start() > 0 else "")


def systemd_unit_name(path: str) -> str:
    """The name systemd gives a mount unit for `path` (systemd-escape --path), without the suffix."""
    trimmed = path.strip("/")
    out = []
    for index, char in enumerate(trimmed):
        if char == "/":
            out.append("-")
        elif char.isascii() and (char.isalnum() or char in ":_" or (char == "." and index > 0)):
            out.append(char)
        else:
            out.append("".join(f"\\x{byte:02x}" for byte in char.encode()))
    return "".join(out)
