"""Print the stack as an lsblk-like table with rich: tree guides, TRIM column, per-mount verdicts."""

from __future__ import annotations

from diskdoctor.probes.blockdev import scheduler_shown
from diskdoctor.probes.host import Host
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from ..base.formatting import human_bytes, yes_no
from ..core.stack.walk import WalkRow, walk_forest
from ..core.trim.summary import mount_trims

TYPE_CHECKING = False  # not typing's: importing typing costs every start-up ~2 ms
if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..core.trim.doctor import TrimVerdict

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
        Text(scheduler_shown(device)),
        Text(human_bytes(device.discard_max_bytes.value)),
        trim_cell(device.accepts_discard),
        Text(device.fstype.value or ""),
        Text(" ".join(host.mountpoints(row.kname))),
    )


def _table(host: Host) -> Table:
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
    for column in ("NAME", "TYPE", "SIZE", "ROTA", "SCHED", "DISC-MAX", "TRIM", "FSTYPE",
                   "MOUNTPOINTS"):
        table.add_column(column, no_wrap=column != "MOUNTPOINTS",
                         justify="right" if column in ("SIZE", "DISC-MAX") else "left")
    for row in walk_forest(host):
        _add_row(host, row, table)
    return table


def trim_lines(host: Host, verdicts: Sequence[TrimVerdict] = ()) -> list[Text]:
    """One TRIM line per mounted filesystem: its TRIM verdict in `diskdoctor trim`'s words when
    `verdicts` has it, else where discard passes down to (or where it stops)."""
    trims = mount_trims(host)
    by_mountpoint = {verdict.mountpoint: verdict for verdict in verdicts}
    lines = [Text("TRIM per mounted filesystem:", style="bold")] if trims else []
    for trim in trims:
        line = Text(f"  {trim.mountpoint} ({trim.fstype} on {host.devices[trim.kname].name}): ")
        verdict = by_mountpoint.get(trim.mountpoint)
        if verdict is not None:
            line.append(verdict.summary, style=verdict.verdict.style)
        else:
            line.append(trim.reach.summary, style=VERDICT_STYLE.get(trim.reach.verdict, ""))
        lines.append(line)
    return lines


def devices_renderable(host: Host, verdicts: Sequence[TrimVerdict] = ()) -> Group:
    """The table of the forest plus one TRIM line per mounted filesystem (see `trim_lines`)."""
    if not host.devices:
        return Group(Text("No block devices found under " + host.root_label))
    return Group(_table(host), Text(""), *trim_lines(host, verdicts))


def print_devices(host: Host, console: Console, verdicts: Sequence[TrimVerdict] = ()) -> None:
    """Write the stack table to the console; piped, without the table's padding at the ends of lines and
    with each TRIM line whole (grep and a wider viewer see it on one line, as `diskdoctor trim` prints it)."""
    if console.is_terminal or not host.devices:
        console.print(devices_renderable(host, verdicts))
        return
    with console.capture() as captured:
        console.print(_table(host))
    console.file.write("".join(line.rstrip() + "\n" for line in captured.get().splitlines()))
    console.file.write("".join(line.plain + "\n" for line in [Text(""), *trim_lines(host, verdicts)]))
