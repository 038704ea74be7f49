"""Print the stack as an lsblk-like table with rich: tree guides, TRIM column, per-mount verdicts."""

from __future__ import annotations

from diskdoctor.probes.host import Host
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from .formatting import human_bytes, yes_no
from .trim_summary import mount_trims

VERDICT_STYLE = {"reaches": "green", "blocked": "bold red", "unsupported": "yellow",
                 "unknown": "dim"}


TRIM_STYLE = {"yes": "green", "no": "red", "?": "dim"}


def trim_cell(accepts: bool | None) -> Text:
    """TRIM column text for one layer."""
    text = yes_no(accepts)
    return Text(text, style=TRIM_STYLE[text])


def _rows(host: Host, kname: str, prefix: str, guide: str, table: Table, depth: int) -> None:
    device = host.devices[kname]
    table.add_row(
        Text(prefix + guide) + Text(device.name, style="bold"),
        device.kind,
        human_bytes(device.size_bytes.value),
        yes_no(device.rotational.value),
        device.scheduler.value or "-",
        human_bytes(device.discard_max_bytes.value),
        trim_cell(device.accepts_discard),
        device.fstype.value or "",
        " ".join(host.mountpoints(kname)),
    )
    children = host.children(kname) if depth < 64 else []
    child_prefix = prefix + ("" if not guide else ("│ " if guide == "├─" else "  "))
    for index, child in enumerate(children):
        last = index == len(children) - 1
        _rows(host, child, child_prefix, "└─" if last else "├─", table, depth + 1)


def devices_renderable(host: Host) -> Group:
    """The table of the forest plus one TRIM line per mounted filesystem."""
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
    for column in ("NAME", "TYPE", "SIZE", "ROTA", "SCHED", "DISC-MAX", "TRIM", "FSTYPE",
                   "MOUNTPOINTS"):
        table.add_column(column, no_wrap=column != "MOUNTPOINTS",
                         justify="right" if column in ("SIZE", "DISC-MAX") else "left")
    for kname in host.roots():
        _rows(host, kname, "", "", table, 0)
    lines = [table, Text("")]
    trims = mount_trims(host)
    if trims:
        lines.append(Text("TRIM per mounted filesystem:", style="bold"))
    for trim in trims:
        line = Text(f"  {trim.mountpoint} ({trim.fstype} on {host.devices[trim.kname].name}): ")
        line.append(trim.reach.summary, style=VERDICT_STYLE.get(trim.reach.verdict, ""))
        lines.append(line)
    if not host.devices:
        lines = [Text("No block devices found under " + host.root_label)]
    return Group(*lines)


def print_devices(host: Host, console: Console) -> None:
    """Write the stack table to the console."""
    console.print(devices_renderable(host))
