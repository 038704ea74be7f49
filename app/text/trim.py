"""`diskdoctor trim` as text: the verdict per filesystem, the pieces behind it, and the fixes."""

from __future__ import annotations

from diskdoctor.probes.trim_facts import TrimFacts
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..base.formatting import human_bytes
from ..core.trim.doctor import TrimVerdict, layer_marker


def _limit(value: int | None) -> str:
    return "?" if value is None else human_bytes(value)


def print_timer(facts: TrimFacts, console: Console) -> None:
    """One line on fstrim.timer and one per cron entry: the host-wide trim machinery."""
    timer = facts.timer
    running = "" if timer.systemd_running else " (systemd not running)"
    state = timer.state.replace("-", " ")
    calendar = f"; OnCalendar={escape(', '.join(timer.calendars))}" if timer.calendars else ""
    delay = f", RandomizedDelaySec={timer.randomized_delay_s:g}s" if timer.randomized_delay_s else ""
    console.print(f"fstrim.timer: [bold]{escape(state)}[/]{running}{calendar}{delay}; read from "
                  f"{escape(timer.state_source)}")
    if timer.dropins:
        console.print(f"  overridden by {escape(', '.join(timer.dropins))}")
    for cron in facts.crons:
        state = "runs" if cron.runs else f"SKIPPED: {cron.why_not}"
        console.print(f"cron: {escape(cron.source)}: `{escape(cron.command)}` ({escape(cron.calendar)}; "
                      f"{escape(state)})")


def print_hanging(console: Console, prefix: str, body: str) -> None:
    """`prefix` then `body` (both markup); on a terminal, wrapped lines start under the body, and when
    piped the line is never wrapped (so grep and a wider viewer see whole lines)."""
    if not console.is_terminal:
        console.print(prefix + body, soft_wrap=True)
        return
    grid = Table.grid()
    grid.add_column(no_wrap=True)
    grid.add_column()
    grid.add_row(Text.from_markup(prefix), Text.from_markup(body))
    console.print(grid)


def print_verdict(verdict: TrimVerdict, console: Console) -> None:
    """One filesystem: verdict line, layers, discard mode, schedule, findings with fixes."""
    style = verdict.verdict.style
    console.print()
    console.print(f"[bold]{escape(verdict.mountpoint)}[/] "
                  f"({escape(verdict.fstype)} on {escape(verdict.source)})")
    print_hanging(console, "  ", f"[{style}]{escape(verdict.summary)}[/]")
    for layer in verdict.reach.layers:
        marker = layer_marker(verdict, layer.kname)
        console.print(f"    {escape(f'{layer.name:<22}')} {layer.kind:<6} "
                      f"discard_max {_limit(layer.discard_max_bytes):>8}"
                      f"  granularity {_limit(layer.discard_granularity):>6}"
                      + (f"  <- {marker}" if marker else ""))
    print_hanging(console, "  discard mode: ", escape(verdict.mode.text))
    schedule = verdict.schedule
    if schedule.kind == "none":
        print_hanging(console, "  schedule: ", f"none ({escape(schedule.covers_reason)})")
    else:
        print_hanging(console, "  schedule: ", f"{schedule.kind}, {escape(schedule.calendar or '?')} "
                      f"({escape(schedule.source)}; {escape(schedule.covers_reason)})")
    for finding in verdict.findings:
        tag = finding.severity.style
        print_hanging(console, f"  [{tag}]{finding.severity.upper()} {finding.id}[/]: ", escape(finding.text))
        for line in finding.fix:
            console.print(f"      fix:    {escape(line)}", soft_wrap=True)
        if finding.risk:
            print_hanging(console, "      risk:   ", escape(finding.risk))
        for line in finding.verify:
            console.print(f"      verify: {escape(line)}", soft_wrap=True)


def print_trim_report(verdicts: list[TrimVerdict], facts: TrimFacts, console: Console) -> None:
    """The whole text report."""
    print_timer(facts, console)
    if not verdicts:
        console.print("\nno mounted filesystems on block devices")
    for verdict in verdicts:
        print_verdict(verdict, console)
    bad = [v for v in verdicts if v.verdict != "ok"]
    console.print()
    console.print(f"{len(verdicts) - len(bad)} of {len(verdicts)} filesystems OK"
                  + (f"; not OK: {escape(', '.join(v.mountpoint for v in bad))}" if bad else ""))
