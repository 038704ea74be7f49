"""Filesystem types and UUIDs of devices udev may not know about: libblkid in this process, else `blkid`."""

from __future__ import annotations

from .commands import READ_ONLY_COMMANDS
from .host_text import shown
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


_pending: dict[int, object] = {}


def start_blkid(root: Root) -> None:
    """On the live host, start libblkid's probe of every device now on a thread (else the blkid command),
    so it runs while the command loads its modules and reads sysfs; `read_blkid` collects it."""
    if not root.live:
        return
    from . import libblkid

    lib = libblkid.load()
    if lib is None:
        root.start("blkid", READ_ONLY_COMMANDS["blkid"])
    else:
        _pending[id(root)] = libblkid.start_probe(lib)


def read_blkid(root: Root) -> tuple[dict[str, dict[str, str]], CommandOutput]:
    """blkid's view of every device (empty when blkid is missing or not root)."""
    if root.live:
        from . import libblkid

        lib = libblkid.load()
        if lib is not None:
            pending = _pending.pop(id(root), None)
            found = libblkid.finish_probe(lib, pending) if pending else libblkid.probe_all(lib)
            if found is not None:
                return _as_export(found), CommandOutput(None, libblkid.SOURCE, None, 0)
    output = root.run("blkid", READ_ONLY_COMMANDS["blkid"])
    return (parse_blkid_export(output.text) if output.text else {}), output


def _as_export(found: list[tuple[str, list[tuple[str, str]]]]) -> dict[str, dict[str, str]]:
    """libblkid's tags in the shape `parse_blkid_export` gives the command's output, made safe to show."""
    devices: dict[str, dict[str, str]] = {}
    for devname, tags in found:
        props = {"DEVNAME": shown(devname)}
        props.update((shown(key), shown(value)) for key, value in tags)
        devices[props["DEVNAME"].rsplit("/", 1)[-1]] = props
    return devices
