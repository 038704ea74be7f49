"""Parse `blkid -o export`: filesystem types and UUIDs of devices udev may not know about."""

from __future__ import annotations

from .commands import READ_ONLY_COMMANDS
from .root import CommandOutput, Root


def parse_blkid_export(text: str) -> dict[str, dict[str, str]]:
    """Map of device basename (e.g. loop0) to its KEY=VALUE properties."""
    devices: dict[str, dict[str, str]] = {}
    for block in text.split("\n\n"):
        props = {}
        for line in block.splitlines():
            key, sep, value = line.partition("=")
            if sep:
                props[key.strip()] = value.strip()
        devname = props.get("DEVNAME", "")
        if devname:
            devices[devname.rsplit("/", 1)[-1]] = props
    return devices


def start_blkid(root: Root) -> None:
    """Start blkid on the live host now (it takes 10-30 ms), so it runs while the command loads its
    modules and reads sysfs; `read_blkid` then collects it."""
    root.start("blkid", READ_ONLY_COMMANDS["blkid"])


def read_blkid(root: Root) -> tuple[dict[str, dict[str, str]], CommandOutput]:
    """blkid's view of every device (empty when blkid is missing or not root)."""
    output = root.run("blkid", READ_ONLY_COMMANDS["blkid"])
    return (parse_blkid_export(output.text) if output.text else {}), output
