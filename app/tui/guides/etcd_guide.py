""""Is this disk fast enough for etcd?": the data directory, its stack, TRIM, a short WAL benchmark, the
same under compaction, the verdict against the chosen threshold, and the fixes."""

from __future__ import annotations

from diskdoctor.app.core.bench.outcome import outcome_of_verdict, verdict_style, verdict_word
from diskdoctor.app.core.bench.uncertainty import FAIL, INCONCLUSIVE, PASS
from diskdoctor.probes.host_text import shell_quote, visible
from rich.text import Text

from .common_steps import (
    Benchmark,
    ChooseDirectory,
    ChooseThreshold,
    StackStep,
    chosen_mount,
    findings_text,
    stack_findings,
    threshold_of,
    trim_text,
    trim_verdict,
)
from .guide import Guide
from .steps import GuideContext, Step, StepView, Verdict

P99_GROWTH_WARN = 3.0
"""The WAL's p99 growing this much beside compaction is worth a warning even under the threshold."""


class EtcdTrim(Step):
    """Whether TRIM reaches the flash under the data directory (a full SSD slows every fdatasync)."""

    def view(self, ctx: GuideContext) -> StepView:
        text = Text.assemble(("An SSD that is never told which blocks are free slows down as it fills: every "
                    "fdatasync then waits for its garbage collection.\n\n", "dim"))
        text.append_text(trim_text(trim_verdict(ctx)))
        return StepView(text)


def wal_answer(ctx: GuideContext) -> tuple[Text, str | None]:
    """The verdict lines from the WAL runs so far, and the answer: "fail" when any run failed, else
    "inconclusive" when any straddled the threshold, else "pass" (None: nothing measured)."""
    alone, under = ctx.results.get("wal"), ctx.results.get("interference")
    text, outcomes = Text(), []
    for name, result in (("alone", alone), ("under compaction", under)):
        if result is None:
            text.append(f"  {name}: not measured\n", style="dim")
            continue
        verdict = result.record.verdict()
        outcomes.append(outcome_of_verdict(verdict))
        text.append(f"  {name}: ", style="bold")
        caveats = result.record.caveats()
        text.append(f"{verdict_word(verdict)} {visible(verdict.line())}{caveats.suffix()}\n",
                    style=verdict_style(verdict))
        for line in caveats.lines():  # durability and the host's contention, beside each verdict
            text.append(f"    {visible(line)}\n", style="yellow" if caveats.tags() else "dim")
    if under is not None:
        ratio = under.record.to_json().get("p99_ratio")
        if isinstance(ratio, (int, float)) and ratio >= P99_GROWTH_WARN:
            text.append(f"  the p99 grew {ratio:.1f}x beside compaction: etcd shares this disk badly\n",
                        style="yellow")
    return text, next((word for word in (FAIL, INCONCLUSIVE, PASS) if word in outcomes), None)


def not_durable(ctx: GuideContext) -> bool:
    """Whether any WAL run of the walkthrough wrote where fdatasync was not durable (tmpfs, nobarrier...)."""
    return any(not result.record.caveats().durable for name in ("wal", "interference")
               if (result := ctx.results.get(name)) is not None)


class EtcdVerdict(Verdict):
    """Fast enough or not, against the chosen threshold, with the findings about this stack."""

    def view(self, ctx: GuideContext) -> StepView:
        mounted = chosen_mount(ctx)
        lines, passed = wal_answer(ctx)
        threshold = threshold_of(ctx)
        if passed is None:
            head = Text.assemble(("No verdict on speed: no benchmark ran", "bold yellow"))
            head.append(" (a capture cannot be benchmarked; on the live host run the benchmark steps, or "
                        f"`diskdoctor bench wal --dir {shell_quote(ctx.answers.get('dir') or 'DIR')}`).\n")
        elif passed == INCONCLUSIVE:
            head = Text.assemble((f"Not settled: the p99's confidence interval reaches both sides of "
                                  f"{threshold:g} ms (run longer, or at a quieter moment).\n", "bold yellow"))
        elif passed == PASS and not_durable(ctx):
            head = Text.assemble((f"Not known: the p99 is under {threshold:g} ms, but fdatasync was not "
                                  "durable here, so the figures are not what etcd's durable writes cost.\n",
                                  "bold yellow"))
        elif passed == PASS:
            head = Text.assemble((f"Yes: fast enough for etcd (p99 under {threshold:g} ms).\n", "bold green"))
        else:
            head = Text.assemble((f"No: too slow for etcd (p99 at or over {threshold:g} ms).\n", "bold red"))
        head.append_text(lines)
        if passed is not None:
            head.append("These were short runs for a first verdict; confirm with the full benchmark "
                        "(screen 3).\n",
                        style="dim")
        head.append("\n")
        directory = ctx.answers.get("dir", "")
        head.append_text(findings_text(stack_findings(ctx, mounted, (directory,) if directory else ())))
        return StepView(head)


def steps() -> list[Step]:
    """The etcd walkthrough, in order."""
    return [
        ChooseDirectory("Data directory", "Where does etcd keep its data (--data-dir)?", ("etcd",),
                        ("etcd",)),
        StackStep("Its stack"),
        EtcdTrim("TRIM"),
        ChooseThreshold("Threshold"),
        Benchmark("WAL benchmark", "wal", "wal"),
        Benchmark("Under compaction", "interference", "interference"),
        EtcdVerdict("Verdict"),
    ]


GUIDE = Guide("etcd", "Is this disk fast enough for etcd?", "etcd",
              "data dir, stack, TRIM, WAL benchmark alone and under compaction, verdict and fixes", steps)
