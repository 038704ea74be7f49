""""Why is this node slow right now?": the live monitor first (which device is saturated, which process
writes, iowait and steal), then the targeted checks and findings for that device's stack."""

from __future__ import annotations

import time

from diskdoctor.app.text.monitor import cpu_line, mb_rate, process_lines
from diskdoctor.probes.host_text import visible
from diskdoctor.probes.io_monitor import IoMonitor, MonitorSample
from rich.text import Text

from .common_steps import ChooseFilesystem, chosen_mount, findings_text, stack_findings, stack_text
from .guide import Guide
from .steps import Action, Choice, GuideContext, Say, Step, StepView, Verdict

STEAL_NOTE = 0.05
"""Steal from 5% of the CPU time: the hypervisor gives this VM's CPU to others (a noisy neighbour)."""
IOWAIT_NOTE = 0.2
"""The CPUs waiting for I/O from 20% of the time: storage holds the node up."""
BUSY_DEVICE = 0.6
"""A device busy this share of the interval or more is named in the verdict (the Monitor's yellow)."""
BUSY_CPU = 0.9
"""CPUs busy this share of the time: the node is CPU-bound, whatever the storage does."""


def _at_least(share: float, threshold: float) -> bool:
    """Whether `share` reaches `threshold` as both are printed (whole percent): a verdict never says
    "under 20%" beside a figure printed as 20%."""
    return round(share * 100) >= round(threshold * 100)


def slow_verdict(sample: MonitorSample | None, busiest: object) -> tuple[str, str]:
    """(headline, style) of the slow-node verdict, agreeing with the figures printed under it: a busy
    device or busy CPUs are never called idle, and a verdict that storage is not the cause gives each
    figure it rests on with the threshold it stays under."""
    if sample is None:
        return ("No live reading: the monitor needs the live host; the findings below are what the "
                "configuration says.", "bold yellow")
    delta = getattr(busiest, "delta", None)
    util = (delta.util or 0.0) if delta is not None else 0.0
    name = visible(busiest.row.name) if busiest is not None else ""  # type: ignore[attr-defined]
    storage = []
    if busiest is not None and busiest.saturated:  # type: ignore[attr-defined]
        storage.append(f"{name} is saturated ({util:.0%} busy)")
    elif _at_least(util, BUSY_DEVICE):
        storage.append(f"{name} is {util:.0%} busy")
    cpu = sample.cpu
    if cpu is not None and _at_least(cpu.iowait, IOWAIT_NOTE):
        storage.append(f"the CPUs wait for I/O {cpu.iowait:.0%} of the time")
    if cpu is not None and _at_least(cpu.steal, STEAL_NOTE):
        storage.append(f"the hypervisor steals {cpu.steal:.0%} of the CPU time")
    cpu_bound = cpu is not None and _at_least(cpu.busy, BUSY_CPU)
    if storage:
        also = f"; the CPUs are also {cpu.busy:.0%} busy" if cpu_bound and cpu is not None else ""
        return "Storage is a likely cause: " + "; ".join(storage) + also + ".", "bold red"
    figures = [f"{name}, the busiest device, is {util:.0%} busy (under {BUSY_DEVICE:.0%})"
               if busiest is not None else "no device did any I/O"]
    if cpu is not None:
        figures += [f"iowait {cpu.iowait:.0%} (under {IOWAIT_NOTE:.0%})",
                    f"steal {cpu.steal:.0%} (under {STEAL_NOTE:.0%})"]
    if cpu_bound and cpu is not None:
        return (f"The CPUs are {cpu.busy:.0%} busy while storage is not: the node is CPU-bound, not "
                f"storage-bound; {'; '.join(figures)}.", "bold yellow")
    return f"Storage is not the cause right now: {'; '.join(figures)}.", "bold green"


class WatchIo(Action):
    """A few seconds of the live monitor: the busiest device, the processes and the CPU's wait."""

    needs_live = True

    def view(self, ctx: GuideContext) -> StepView:
        text = Text.assemble(("Watch the I/O for a few seconds\n", "bold"))
        text.append(f"It takes {ctx.sizes.monitor_ticks} one-second readings of every device and process "
                    "(read-only), like the Monitor screen (6), which keeps watching.")
        return StepView(text)

    def run(self, ctx: GuideContext, say: Say) -> Text:
        monitor = IoMonitor(ctx.root)
        monitor.poll()
        samples: list[MonitorSample] = []
        for tick in range(ctx.sizes.monitor_ticks):
            time.sleep(1.0)
            samples.append(monitor.poll())
            say(f"reading {tick + 1} of {ctx.sizes.monitor_ticks}…")
        ctx.results["monitor"] = samples[-1]
        ctx.results["monitor_busiest"] = max(
            (s.busiest() for s in samples if s.busiest() is not None),
            key=lambda layer: layer.delta.util or 0.0, default=None)  # type: ignore[union-attr]
        return monitor_summary(ctx)


def monitor_summary(ctx: GuideContext) -> Text:
    """The busiest device, who did the I/O, and the CPU's iowait and steal."""
    sample: MonitorSample | None = ctx.results.get("monitor")
    busiest = ctx.results.get("monitor_busiest")
    if sample is None:
        return Text("The monitor did not run.", style="yellow")
    text = Text()
    if busiest is not None and busiest.delta is not None:
        delta = busiest.delta
        busy = _at_least(delta.util or 0, BUSY_DEVICE)
        style = "bold red" if busiest.saturated else ("yellow" if busy else "green")
        text.append(f"Busiest device: {visible(busiest.row.name)} ({busiest.row.kind}) "
                    f"{(delta.util or 0):.0%} busy", style=style)
        text.append(f"{' (saturated)' if busiest.saturated else ''}; writes "
                    f"{mb_rate(delta.rate(delta.write_bytes) or 0)}, reads "
                    f"{mb_rate(delta.rate(delta.read_bytes) or 0)}, write wait "
                    f"{delta.write_await_ms or 0:.2f} ms\n")
    text.append("Who: " + "; ".join(process_lines(sample.processes, True, limit=3)) + "\n")
    text.append(cpu_line(sample.cpu, True) + "\n")
    if sample.cpu is not None and sample.cpu.steal >= STEAL_NOTE:
        text.append("Steal is high: the hypervisor runs others on this VM's CPUs (a noisy neighbour).\n",
                    style="yellow")
    return text


class WhichStack(ChooseFilesystem):
    """The filesystem to check: the ones on the busiest device first."""

    def view(self, ctx: GuideContext) -> StepView:
        base = super().view(ctx)
        busiest = ctx.results.get("monitor_busiest")
        sample: MonitorSample | None = ctx.results.get("monitor")
        if busiest is None or sample is None:
            why = "the monitor did not run" if ctx.live else "a capture has no live rates"
            base.text = Text.assemble((f"Which filesystem feels slow? ({why}, so none is suggested)\n",
                                       "bold"))
            return base
        on_busiest = [g.group.key for g in sample.groups
                      if busiest.row.kname in {layer.row.kname for layer in g.layers} and g.group.key]
        first = [c for c in base.choices if c.value in on_busiest]
        rest = [c for c in base.choices if c.value not in on_busiest]
        base.choices = [Choice(c.label, c.value, f"on {busiest.row.name}, the busiest device; {c.note}")
                        for c in first] + rest
        base.default = first[0].value if first else base.default
        base.text = Text(f"Which filesystem to check? Those on {visible(busiest.row.name)} come first.\n",
                         style="bold")
        return base


class StackFindings(Step):
    """The stack under that filesystem and what the rules find there."""

    def view(self, ctx: GuideContext) -> StepView:
        mounted = chosen_mount(ctx)
        text = stack_text(ctx, mounted)
        text.append("\n\n")
        text.append_text(findings_text(stack_findings(ctx, mounted), verdict=False))
        return StepView(text)


class SlowAnswer(Verdict):
    """Why the node is slow, as far as storage can tell."""

    def view(self, ctx: GuideContext) -> StepView:
        sample: MonitorSample | None = ctx.results.get("monitor")
        headline, style = slow_verdict(sample, ctx.results.get("monitor_busiest"))
        text = Text(headline + "\n", style=style)
        if sample is not None:
            text.append_text(monitor_summary(ctx))
        text.append("\n")
        text.append_text(findings_text(stack_findings(ctx, chosen_mount(ctx))))
        return StepView(text)


def steps() -> list[Step]:
    """The slow-node walkthrough, in order."""
    return [WatchIo("Watch the I/O"), WhichStack("Which stack"), StackFindings("Its checks"),
            SlowAnswer("Verdict")]


GUIDE = Guide("slow", "Why is this node slow right now?", "slow node",
              "the live monitor first (saturated device, writing process, iowait/steal), then that stack's "
              "findings", steps)
