"""Print the stack as an lsblk-like table with rich: tree guides, TRIM column, per-mount verdicts."""

from __future__ import annotations

from diskdoctor.probes.host import Host
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from ..base.formatting import human_bytes, yes_no
from ..core.stack.walk import WalkRow, walk_forest
from ..core.trim.summary import mount_trims

VERDICT_STYLE = {"reaches": "green", "blocked": "bold red", "unsupported": "yellow",
                 "unknown": "dim"}


TRIM_STYLE = {"yes": "green", "no": "red", "?": "dim"}


def trim_cell(accepts: bool | None) -> Text:
    """TRIM column text for one layer."""
    text = yes_no(accepts)
    return Text(text, style=TRIM_STYLE[text])


def tree_guides(last: tuple[bool, ...]) -> str:
    """lsblk's tree prefix for a row: "│ " or "  " per ancestor, then "├─" or "└─"."""
    if len(last) < 2:
        return ""
    return "".join("  " if done else "│ " for done in last[1:-1]) + ("└─" if last[-1] else "├─")


def _add_row(host: Host, row: WalkRow, table: Table) -> None:
    device = host.devices[row.kname]
    name = Text(tree_guides(row.last)) + Text(device.name, style="bold")
    if row.shown_above:
        name.append(" (shown above)", style="dim")
    table.add_row(  # every cell a Text: host strings are never parsed as Rich markup
        name,
        Text(device.kind),
        Text(human_bytes(device.size_bytes.value)),
        Text(yes_no(device.rotational.value)),
        Text(device.scheduler.value or "-"),
        Text(human_bytes(device.discard_max_bytes.value)),
        trim_cell(device.accepts_discard),
        Text(device.fstype.value or ""),
        Text(" ".join(host.mountpoints(row.kname))),
    )


def devices_renderable(host: Host) -> Group:
    """The table of the forest plus one TRIM line per mounted filesystem."""
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
    for column in ("NAME", "TYPE", "SIZE", "ROTA", "SCHED", "DISC-MAX", "TRIM", "FSTYPE",
                   "MOUNTPOINTS"):
        table.add_column(column, no_wrap=column != "MOUNTPOINTS",
                         justify="right" if column in ("SIZE", "DISC-MAX") else "left")
    for row in walk_forest(host):
        _add_row(host, row, table)
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
    """Write the stack table to the console; piped, without the table's padding at the ends of lines."""
    if console.is_terminal:
        console.print(devices_renderable(host))
        return
    with console.capture() as captured:
        console.print(devices_renderable(host))
    console.file.write("".join(line.rstrip() + "\n" for line in captured.get().splitlines()))
