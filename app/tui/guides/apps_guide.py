""""Is Elasticsearch / Ceph set up for its disks?": the service found from the running processes (data
paths from command lines or config files), its stack, the matching rules (TRIM schedule against peak
hours, filesystem and compression, the Ceph RocksDB build) and a short compaction run."""

from __future__ import annotations

from diskdoctor.app.base.errors import UsageError
from diskdoctor.app.core.trim.peak_window import parse_peak_window
from diskdoctor.probes.host_text import visible
from rich.text import Text

from .common_steps import Benchmark, ChooseDirectory, StackStep, chosen_mount, findings_text, stack_findings
from .guide import Guide
from .steps import Choice, GuideContext, Question, Step, StepView, Verdict

SERVICES = ("elasticsearch", "opensearch", "ceph-osd")
OWNERS = ("Elasticsearch", "OpenSearch", "Ceph OSD")
NO_PEAK = "none"


class PeakHours(Question):
    """Busy hours, so a TRIM scheduled inside them is flagged."""

    def view(self, ctx: GuideContext) -> StepView:
        text = Text.assemble(("When is this cluster busiest?\n", "bold"))
        text.append("A weekly fstrim inside busy hours can stall a search or storage node; the rules check "
                    "the schedule against this window.", style="dim")
        return StepView(text, [Choice("Mon-Fri 08:00-20:00", "Mon-Fri 08:00-20:00", "office hours"),
                               Choice("daily 08:00-22:00", "daily 08:00-22:00", "every day"),
                               Choice("no peak hours", NO_PEAK, "skip this check")],
                        typed='e.g. "Sat 00:00-06:00" or "daily 09:00-17:30"')

    def answer(self, ctx: GuideContext, value: str) -> str | None:
        if not value or value == NO_PEAK:
            ctx.answers["peak"] = None
            return None
        try:
            ctx.answers["peak"] = parse_peak_window(value)
        except UsageError as err:
            return str(err)
        return None


def service_subjects() -> tuple[str, ...]:
    """Host-wide finding subjects that belong to these services (the Ceph RocksDB build)."""
    return ("ceph-osd",)


class ServiceRules(Step):
    """The rules that match this service's stack."""

    def view(self, ctx: GuideContext) -> StepView:
        directory = ctx.answers.get("dir", "")
        findings = stack_findings(ctx, chosen_mount(ctx), (directory,), service_subjects())
        text = Text.assemble((f"What the rules say about {visible(directory)}'s stack\n", "bold"))
        text.append("TRIM schedule against the busy hours, filesystem options (atime, barriers, btrfs "
                    "compression and autodefrag), read-ahead, alignment, RAID geometry, the Ceph RocksDB "
                    "build.\n\n", style="dim")
        text.append_text(findings_text(findings, verdict=False))
        return StepView(text)


class ServiceAnswer(Verdict):
    """Set up well for its disks, or what to change."""

    def view(self, ctx: GuideContext) -> StepView:
        directory = ctx.answers.get("dir", "")
        findings = stack_findings(ctx, chosen_mount(ctx), (directory,), service_subjects())
        worst = [f for f in findings if f.severity.fails_check]
        if worst:
            text = Text.assemble((f"Not yet: {len(worst)} findings to act on.\n", "bold red"))
        else:
            text = Text("Yes, as far as the rules can tell: no warning about this stack.\n",
                        style="bold green")
        result = ctx.results.get("compaction")
        if result is not None:
            caveats = result.record.caveats()
            first = visible(result.record.summary_lines()[0])  # a verdict line carries the caveats' tags
            text.append(f"Compaction (short run): {first}\n")
            text.append("\n".join(f"  {visible(line)}" for line in caveats.lines()) + "\n", style="dim")
        elif not ctx.live:
            text.append("Compaction was not measured: a capture cannot be benchmarked.\n", style="dim")
        text.append("\n")
        text.append_text(findings_text(findings))
        return StepView(text)


def steps() -> list[Step]:
    """The Elasticsearch / Ceph walkthrough, in order."""
    question = "Which Elasticsearch, OpenSearch or Ceph OSD data directory?"
    return [ChooseDirectory("Service", question, SERVICES, OWNERS),
            StackStep("Its stack"), PeakHours("Busy hours"), ServiceRules("Matching rules"),
            Benchmark("Compaction run", "compaction", "compaction"), ServiceAnswer("Verdict")]


GUIDE = Guide("apps", "Is Elasticsearch / Ceph set up for its disks?", "ES / Ceph",
              "found from running processes, then the matching rules and a compaction run", steps)
