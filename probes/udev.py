"""Read udev's database files (/run/udev/data/bMAJ:MIN) without libudev, so captures replay them."""

from __future__ import annotations

from .root import Root


def udev_data_path(maj_min: str) -> str:
    """Where udev keeps the properties of block device MAJ:MIN."""
    return f"run/udev/data/b{maj_min}"


def parse_udev_data(text: str) -> dict[str, str]:
    """The E:KEY=VALUE properties of one udev database file."""
    props: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("E:") and "=" in line:
            key, _, value = line[2:].partition("=")
            props[key] = value
    return props


def read_udev_properties(root: Root, maj_min: str) -> dict[str, str]:
    """udev properties for a device, empty when udev has no record (containers, CI)."""
    text, _ = root.read_text(udev_data_path(maj_min))
    return parse_udev_data(text) if text else {}
