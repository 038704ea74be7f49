""""Is TRIM working end to end?": pick a filesystem, walk its layers, show the schedule, offer a confirmed
trim now, and a short benchmark before and after it, compared through the saved runs."""

from __future__ import annotations

import os

from diskdoctor.app.base.errors import UsageError
from diskdoctor.app.core.runs.compare import compare_runs
from diskdoctor.app.core.trim.trim_now import hold_confirmed_mount, result_text, trimmable_mount
from diskdoctor.app.text.runs import compare_lines
from diskdoctor.probes.host_text import visible
from rich.text import Text

from ..trim_dialogs import ConfirmTrim, TrimProgress
from .common_steps import (
    Benchmark,
    ChooseFilesystem,
    chosen_mount,
    findings_text,
    stack_findings,
    trim_text,
    trim_verdict,
)
from .guide import Guide
from .steps import LIVE_ONLY, DialogAction, GuideContext, Step, StepHost, StepView, Verdict


class TrimLayers(Step):
    """Does discard pass every layer from the filesystem down to the flash?"""

    def view(self, ctx: GuideContext) -> StepView:
        text = Text()
        text.append("fstrim and the discard mount option send discards down the stack; one layer that "
                    "drops them (dm-crypt without allow_discards, a thin pool with discards=ignore, some md "
                    "levels) stops them for everything above.\n\n", style="dim")
        text.append_text(trim_text(trim_verdict(ctx)))
        return StepView(text)


class TrimSchedule(Step):
    """What trims this filesystem, and when."""

    def view(self, ctx: GuideContext) -> StepView:
        facts, _ = ctx.trim()
        verdict = trim_verdict(ctx)
        text = Text.assemble(("What trims it, and when\n\n", "bold"))
        if verdict is None:
            return StepView(Text("No TRIM verdict for this filesystem.", style="yellow"))
        schedule = verdict.schedule
        text.append(f"  kind        {visible(schedule.kind)}{'' if schedule.enabled else ' (not enabled)'}\n")
        if schedule.calendar:
            text.append(f"  calendar    {visible(schedule.calendar)}\n")
        for label, moment in (("last run", schedule.last_run), ("next run", schedule.next_run)):
            if moment is not None:
                text.append(f"  {label:<11} {moment.strftime('%a %d %b %Y %H:%M')}\n")
        if schedule.last_run_note:
            text.append(f"  note        {visible(schedule.last_run_note)}\n")
        text.append(f"  why         {visible(schedule.covers_reason)}\n")
        text.append(f"  source      {visible(schedule.source)}\n", style="dim")
        text.append(f"\nfstrim.timer: {visible(facts.timer.state)}; discard mount mode: "
                    f"{visible(verdict.mode.text)}\n")
        text.append("The TRIM screen (2) checks this schedule against your busy hours.",
                    style="dim")
        return StepView(text)


class TrimNow(DialogAction):
    """A confirmed fstrim of this filesystem, with what really reached the disks."""

    needs_live = True

    def skip_reason(self, ctx: GuideContext) -> str | None:
        if not ctx.live:
            return LIVE_ONLY
        return None if os.geteuid() == 0 else "fstrim needs root: skipped (run diskdoctor as root)"

    def view(self, ctx: GuideContext) -> StepView:
        point = chosen_mount(ctx).mount.mountpoint
        text = Text.assemble((f"Trim {visible(point)} now?\n", "bold"))
        text.append("It asks for confirmation with the exact command and its risk, then runs fstrim and "
                    "shows the bytes it reported and the discards each disk completed meanwhile.")
        return StepView(text)

    def start(self, screen: StepHost) -> None:
        """ConfirmTrim, then TrimProgress (the TRIM screen's own dialogs), then the result on the page."""
        ctx, index = screen.ctx, screen.index
        host = ctx.host()
        try:
            point, disks = trimmable_mount(host, chosen_mount(ctx).mount.mountpoint)
        except UsageError as err:
            screen.finish_step(index, Text(str(err), style="bold red"))
            return

        def confirmed(yes: bool | None) -> None:
            if not yes:
                return
            try:
                held = hold_confirmed_mount(host, point)
            except UsageError as err:
                screen.finish_step(index, Text(str(err), style="bold red"))
                return
            screen.app.push_screen(TrimProgress(point, disks, held), finished)

        def finished(result: object) -> None:
            if result is None:
                return
            ctx.results["trim"] = result
            ok = getattr(result, "ok", False)
            screen.finish_step(index, Text(result_text(result), style="" if ok else "bold red"))  # type: ignore[arg-type]

        screen.app.push_screen(ConfirmTrim(point), confirmed)


class TrimCompare(Step):
    """The runs before and after the trim, side by side (the saved runs' comparison)."""

    def view(self, ctx: GuideContext) -> StepView:
        before, after = ctx.results.get("before"), ctx.results.get("after")
        if before is None or after is None or before.saved is None or after.saved is None:
            missing = "no benchmark could run on a capture" if not ctx.live else "both runs are needed"
            return StepView(Text(f"No comparison: {missing}. Saved runs can be compared any time on the Runs "
                                 "screen (5) or with `diskdoctor runs compare A B`.", style="yellow"))
        comparison = compare_runs(before.saved, after.saved)
        text = Text()
        text.append(f"Before (run {before.saved.id}) and after the trim (run {after.saved.id}):\n\n",
                    style="bold")
        lines = compare_lines(comparison, judged_only=True)  # the conclusion, then the judged load's rows
        text.append("\n".join(visible(line) for line in lines[:14]))
        ctx.results["comparison"] = comparison
        return StepView(text)


class TrimAnswer(Verdict):
    """Working end to end or not, and what to fix."""

    def view(self, ctx: GuideContext) -> StepView:
        mounted = chosen_mount(ctx)
        verdict = trim_verdict(ctx)
        if verdict is None:
            text = Text.assemble(("No TRIM verdict for this filesystem.\n", "yellow"))
        elif str(verdict.verdict) == "ok":
            text = Text.assemble(("Yes: discard reaches the flash and something trims it.\n", "bold green"))
        else:
            text = Text.assemble((f"No: {visible(verdict.summary)}\n", "bold red"))
        trim = ctx.results.get("trim")
        if trim is not None:
            text.append(f"Trim now: {'done' if trim.ok else 'failed'}; "
                        f"{visible(result_text(trim).splitlines()[0])}\n")
        comparison = ctx.results.get("comparison")
        if comparison is not None:
            flags = comparison.flags()
            text.append("Before/after: " + (visible("; ".join(flags)) if flags else
                                              "no judged metric changed by 20% or more") + "\n")
        text.append("\n")
        text.append_text(findings_text(stack_findings(ctx, mounted)))
        return StepView(text)


def steps() -> list[Step]:
    """The TRIM walkthrough, in order."""
    return [ChooseFilesystem("Filesystem"), TrimLayers("Its layers"), TrimSchedule("Schedule"),
            Benchmark("Before: WAL benchmark", "wal", "before"), TrimNow("Trim now"),
            Benchmark("After: WAL benchmark", "wal", "after"), TrimCompare("Before and after"),
            TrimAnswer("Verdict")]


GUIDE = Guide("trim", "Is TRIM working end to end?", "TRIM",
              "a filesystem's layers, its schedule, a confirmed trim now, benchmarks before and after", steps)
