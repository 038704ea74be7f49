"""Steps several walkthroughs share: pick a data directory or a filesystem, show its stack and its TRIM
state, run a short benchmark, and gather the findings about that stack."""

from __future__ import annotations

import os

from diskdoctor.app.base.formatting import counted, human_bytes, yes_no
from diskdoctor.app.core.advice.advise import advise, load_advice_input
from diskdoctor.app.core.advice.saved_runs import beside_saved, mounted_now, saved_runs_input
from diskdoctor.app.core.bench.context import BenchContext
from diskdoctor.app.core.bench.fit import fit_for
from diskdoctor.app.core.bench.kinds import kind_of
from diskdoctor.app.core.bench.outcome import verdict_style
from diskdoctor.app.core.bench.wal import ETCD_THRESHOLD_MS
from diskdoctor.app.core.findings.finding import Finding
from diskdoctor.app.core.findings.order import in_display_order
from diskdoctor.app.core.trim.doctor import TrimVerdict
from diskdoctor.app.core.trim.order import worst_first
from diskdoctor.probes.app_processes import find_app_processes
from diskdoctor.probes.data_dirs import find_data_dirs
from diskdoctor.probes.discard_path import layers_below
from diskdoctor.probes.etcd_metrics import discover as discover_etcd_metrics
from diskdoctor.probes.host import MountedFs
from diskdoctor.probes.host_text import visible
from diskdoctor.probes.wal_target import TargetError
from rich.cells import cell_len
from rich.text import Text

from .quick_bench import run_quick, size_text
from .steps import Action, Choice, GuideContext, Question, Say, Step, StepView


class ChooseDirectory(Question):
    """Where the service keeps its data: offered from running processes and known directories, or typed."""

    def __init__(self, title: str, prompt: str, kinds: tuple[str, ...], owners: tuple[str, ...]) -> None:
        super().__init__(title)
        self.prompt, self.kinds, self.owners = prompt, kinds, owners

    def view(self, ctx: GuideContext) -> StepView:
        host = ctx.host()
        processes, why = find_app_processes(ctx.root)
        choices = [Choice(visible(path), path, f"{p.kind}: {visible(p.source)}")
                   for p in processes if p.kind in self.kinds for path in p.data_dirs]
        points = [m.mount.mountpoint for m in host.block_mounts()]
        for found in find_data_dirs(ctx.root, points):
            if found.owner in self.owners and found.path not in {c.value for c in choices}:
                note = f"{found.owner}: {visible(found.source)}"
                choices.append(Choice(visible(found.path), found.path, note))
        default = offer_selected(ctx, choices)
        text = Text.assemble((self.prompt + "\n", "bold"))
        if why:
            text.append(why[0].upper() + why[1:] + ".\n", style="dim")
        elif not any(c.note.split(":")[0] in self.kinds for c in choices):
            text.append(f"No running {' or '.join(self.kinds)} process was found.\n", style="dim")
        text.append("Pick one, or type the directory below (Tab moves between the list and the field)."
                    if choices else "Type the directory below.", style="dim")
        return StepView(text, choices, typed="/path/to/the/data/directory", default=default)

    def answer(self, ctx: GuideContext, value: str) -> str | None:
        if not value:
            return "type a directory, or pick one from the list"
        if not value.startswith("/"):
            return f"{visible(value)}: give the full path (starting with /)"
        path = os.path.normpath(value)
        if ctx.live and not os.path.isdir(path):
            return f"{visible(path)} is not a directory on this host"
        mounted = ctx.host().mount_for_path(path)
        if mounted is None or mounted.kname is None:
            return f"{visible(path)} is not on a filesystem with a block device under it"
        ctx.answers["dir"] = path
        return None


def offer_selected(ctx: GuideContext, choices: list[Choice]) -> str:
    """Put the filesystem or directory chosen on a screen first among `choices` ("chosen on Stack"), when it
    is on a block device, and return it as the default; "" when nothing was chosen (the list's first stays
    the default, such as /var/lib/etcd found on this host). newuser23 #14: with an xfs loop chosen on Stack,
    the etcd guide started at /var/lib/etcd."""
    if ctx.selected is None:
        return ""
    path, why = ctx.selected
    mounted = ctx.host().mount_for_path(path)
    if mounted is None or mounted.kname is None:  # tmpfs: the answer would be refused
        return ""
    notes = [why] + [c.note for c in choices if c.value == path and c.note]
    choices[:] = [Choice(visible(path), path, "; ".join(notes))] + [c for c in choices if c.value != path]
    return path


class ChooseFilesystem(Question):
    """Which mounted filesystem, each with its TRIM verdict beside it."""

    def view(self, ctx: GuideContext) -> StepView:
        _, verdicts = ctx.trim()
        choices = [Choice(f"{visible(v.mountpoint)} ({visible(v.fstype)} on {visible(v.source)})",
                          v.mountpoint,
                          f"TRIM {str(v.verdict).upper()}") for v in worst_first(list(verdicts))]
        text = Text.assemble(("Which filesystem?\n", "bold"))
        text.append("Each with its TRIM verdict, worst first (as on the TRIM screen); the next steps walk "
                    "its layers and schedule.",
                    style="dim")
        if not choices:
            text.append("\nNo mounted filesystem on a block device was found.", style="yellow")
        selected = ctx.selected and ctx.host().mount_for_path(ctx.selected[0])
        default = selected.mount.mountpoint if selected and ctx.selected else ""
        first = next((c for c in choices if c.value == default), None)
        if first is not None and ctx.selected:  # the filesystem chosen on a screen: first, and said so
            choices = [Choice(first.label, default, f"{ctx.selected[1]}; {first.note}"),
                       *(c for c in choices if c.value != default)]
        return StepView(text, choices, default=default if first is not None else "")

    def answer(self, ctx: GuideContext, value: str) -> str | None:
        if not value:
            return "pick a filesystem"
        ctx.answers["mountpoint"] = value
        return None


def stack_text(ctx: GuideContext, mounted: MountedFs) -> Text:
    """The layers under a filesystem, top-down, with what matters for performance."""
    host = ctx.host()
    text = Text(f"{visible(mounted.mount.mountpoint)} is {visible(mounted.mount.fstype)} on "
                f"{visible(mounted.mount.source)}; its layers from the top:\n\n", style="bold")
    devices = [device for device in map(host.devices.get, layers_below(host, mounted.kname or "")) if device]
    width = max(17, *(cell_len(visible(device.name)) for device in devices)) if devices else 17
    for device in devices:
        details = [device.kind, human_bytes(device.size_bytes.value)]
        if device.scheduler.value:
            details.append(f"scheduler {device.scheduler.value}")
        details.append(f"rotational {yes_no(device.rotational.value)}")
        details.append(f"discard {'yes' if device.accepts_discard else 'no'}")
        if device.model.value:
            details.append(visible(device.model.value))
        name = visible(device.name)
        text.append(f"  {name}{' ' * (width - cell_len(name))}  ", style="cyan")  # under the longest name
        text.append(" · ".join(details) + "\n")
    text.append(f"\nMount options: {visible(','.join(mounted.mount.options))}\n", style="dim")
    text.append("The Stack screen (1) shows every value with its source.", style="dim")
    return text


def chosen_mount(ctx: GuideContext) -> MountedFs:
    """The walkthrough's filesystem (a ValueError if the earlier answer is missing)."""
    mounted = ctx.mount()
    if mounted is None or mounted.kname is None:
        raise ValueError("no filesystem chosen yet: go back and answer the first question")
    return mounted


def trim_verdict(ctx: GuideContext) -> TrimVerdict | None:
    """The TRIM verdict of the walkthrough's filesystem."""
    mounted = chosen_mount(ctx)
    _, verdicts = ctx.trim()
    return next((v for v in verdicts if v.mountpoint == mounted.mount.mountpoint), None)


def trim_text(verdict: TrimVerdict | None) -> Text:
    """The TRIM verdict of one filesystem: the answer, the layers, the schedule, the problems."""
    if verdict is None:
        return Text("No TRIM verdict for this filesystem.", style="yellow")
    style = verdict.verdict.style
    word = str(verdict.verdict).upper()
    summary = visible(verdict.summary)
    text = Text.assemble((summary if summary.upper().startswith(word) else f"{word}  {summary}", style))
    text.append("\n\n")
    names = {layer.kname: visible(layer.name) for layer in verdict.reach.layers}
    width = max(18, *(cell_len(name) for name in names.values()))  # one column under the longest name
    kinds = max(6, *(len(layer.kind) for layer in verdict.reach.layers))
    for layer in verdict.reach.layers:
        accepts, style = {True: ("passes discard", "green"), False: ("drops discard", "bold red"),
                          None: ("unknown", "magenta")}[layer.accepts]
        name = names[layer.kname]
        text.append(f"  {name}{' ' * (width - cell_len(name))} {layer.kind:<{kinds}} ")
        text.append(accepts + "\n", style=style)
    schedule = verdict.schedule
    text.append(f"\nSchedule: {visible(schedule.kind)}")
    if schedule.calendar:
        text.append(f", {visible(str(schedule.calendar))}")
    if schedule.next_run:
        text.append(f", next {schedule.next_run.strftime('%a %d %b %H:%M')}")
    if schedule.last_run:
        text.append(f", last {schedule.last_run.strftime('%a %d %b %H:%M')}")
    text.append(f"\nDiscard mount mode: {visible(verdict.mode.text)}\n")
    for finding in verdict.findings:
        text.append(f"\n  {str(finding.severity).upper()} ", style=finding.severity.style)  # an item: its
        text.append(f"{finding.id}: {visible(finding.title)}")                           # lines hang
    text.append("\n\nThe TRIM screen (2) shows the fixes as exact commands.", style="dim")
    return text


class StackStep(Step):
    """The layers under the chosen directory or filesystem."""

    def view(self, ctx: GuideContext) -> StepView:
        return StepView(stack_text(ctx, chosen_mount(ctx)))


class ChooseThreshold(Question):
    """The p99 the WAL must stay under."""

    def view(self, ctx: GuideContext) -> StepView:
        text = Text.assemble(("Which p99 must a durable WAL write (write + fdatasync) stay under?\n", "bold"))
        text.append("etcd's docs ask for 10 ms; some vendors accept 20 ms. Or type a number of ms.",
                    style="dim")
        return StepView(text, [Choice("10 ms", "10", "etcd docs (wal_fsync_duration_seconds p99)"),
                               Choice("20 ms", "20", "vendor guidance (Red Hat OpenShift etcd)")],
                        typed="another threshold in ms, e.g. 5", default="10")

    def answer(self, ctx: GuideContext, value: str) -> str | None:
        try:
            threshold = float(value)
        except ValueError:
            return f"{visible(value)} is not a number of milliseconds"
        if not 0 < threshold < 10_000:
            return "the threshold must be more than 0 and under 10,000 ms"
        ctx.answers["threshold_ms"] = threshold
        return None


def threshold_of(ctx: GuideContext) -> float:
    """The chosen threshold (etcd's 10 ms when the question was skipped)."""
    return float(ctx.answers.get("threshold_ms") or ETCD_THRESHOLD_MS)


class Benchmark(Action):
    """A short benchmark in the chosen directory: `kind` is wal, interference or compaction."""

    needs_live = True

    def __init__(self, title: str, kind: str, key: str) -> None:
        super().__init__(title)
        self.bench_kind, self.key = kind, key

    def _params(self, ctx: GuideContext) -> tuple[object, str]:
        sizes = ctx.sizes
        if self.bench_kind == "wal":
            return sizes.wal(), sizes.wal_note()
        if self.bench_kind == "interference":
            return sizes.interference(), sizes.interference_note()
        return sizes.compaction(), (f"a short run: one compaction pass over 4 files of "
                                    f"{size_text(sizes.compaction_file)} (read, merge, write, fdatasync)")

    def _directory(self, ctx: GuideContext) -> str:
        return ctx.answers.get("dir") or chosen_mount(ctx).mount.mountpoint

    def view(self, ctx: GuideContext) -> StepView:
        _, note = self._params(ctx)
        text = Text.assemble((f"{self.title} in {visible(self._directory(ctx))}\n", "bold"))
        text.append(f"This is {note}. It writes only in a scratch directory it creates there and always "
                    "removes; the run is saved (screen 5).")
        return StepView(text)

    def run(self, ctx: GuideContext, say: Say) -> Text:
        params, _ = self._params(ctx)
        threshold = threshold_of(ctx) if kind_of(self.bench_kind).threshold_unit == "ms" else None
        fitted_note = None
        try:
            result = run_quick(params, self._directory(ctx), say, threshold)
        except TargetError as err:
            reason = str(err)
            fitted = fit_for(reason, params, self._directory(ctx))
            if fitted is None:
                if reason.startswith("not enough free space"):
                    reason += (": the Benchmark screen (3) runs the same workload smaller (its size "
                               "field), at the cost of figures that flatter the device (more of the data "
                               "stays cached)")
                return Text(reason, style="bold red")
            try:  # the same workload, sized to the space there is, saying what that costs
                result = run_quick(fitted.params, self._directory(ctx), say, threshold)
            except TargetError as again:
                return Text(str(again), style="bold red")
            fitted_note = f"Not enough room for the usual run: {fitted.said}.\n"
        ctx.results[self.key] = result
        ctx.runs = [r for r in ctx.runs if r is not ctx.results.get(self.key)] + [result]
        lines = result.record.summary_lines()
        verdict = result.record.verdict()
        style = "" if verdict is None else "bold " + verdict_style(verdict)
        text = Text.assemble((lines[0] + "\n", style))
        if fitted_note:
            text.append(fitted_note, style="yellow")
        text.append("\n".join(visible(line) for line in lines[1:6]) + "\n")
        text.append(visible(result.saved_note), style="dim")
        return text


def bench_contexts(ctx: GuideContext) -> tuple[BenchContext, ...]:
    """The walkthrough's benchmark results, for the advisor's benchmark rules."""
    return tuple(BenchContext(r.record.to_json(), f"run {r.saved.id}" if r.saved else "this walkthrough")
                 for r in ctx.runs)


def advice_bench(ctx: GuideContext) -> tuple[BenchContext, ...]:
    """The runs the Advice screen judges: the walkthrough's, then the newest saved run of each kind on
    each filesystem of this host (the report's choice), each once."""
    host = ctx.host()
    saved = saved_runs_input(host.hostname, mounted=mounted_now(host))
    return tuple(beside_saved(bench_contexts(ctx), saved))


def stack_findings(ctx: GuideContext, mounted: MountedFs | None, data_dirs: tuple[str, ...] = (),
                   extra_subjects: tuple[str, ...] = ()) -> list[Finding]:
    """Every finding about one filesystem's stack, from the sources the Advice screen judges (the host,
    a local etcd's metrics, the walkthrough's runs and the saved runs), in display order."""
    host = ctx.host()
    facts, _ = ctx.trim()
    etcd, _notes = discover_etcd_metrics(ctx.root)
    advice = load_advice_input(ctx.root, data_paths=data_dirs, bench=advice_bench(ctx), host=host,
                               trim=facts, peak=ctx.answers.get("peak"), etcd_metrics=etcd)
    findings = advise(advice)
    if mounted is None:
        ctx.findings = in_display_order(findings)
        return ctx.findings
    subjects = {mounted.mount.mountpoint, *extra_subjects}
    for kname in layers_below(host, mounted.kname or ""):
        subjects.add(kname)
        if kname in host.devices:
            subjects.add(host.devices[kname].name)
    ctx.findings = in_display_order([f for f in findings if f.subject in subjects])
    return ctx.findings


def first_command(fix: tuple[str, ...]) -> str | None:
    """The first fix line that is a command (a '# ...' line explains; it is not something to run)."""
    return next((line for line in fix if line.strip() and not line.lstrip().startswith("#")),
                fix[0] if fix else None)


def findings_text(findings: list[Finding], limit: int = 8, verdict: bool = True) -> Text:
    """The findings as lines: severity, id and title; the rest counted; the verdict page names its Findings
    button and key and its Save report button, a page before it only where they are (newuser19 #6)."""
    if not findings:
        return Text("No finding about this stack.\n", style="green")
    counts: dict[str, int] = {}
    for finding in findings:
        counts[str(finding.severity)] = counts.get(str(finding.severity), 0) + 1
    by_severity = ", ".join(f"{n} {s}" for s, n in counts.items())
    text = Text(f"{counted(len(findings), 'finding')} ({by_severity}):\n", style="bold")
    for finding in findings[:limit]:
        text.append(f"  {str(finding.severity).upper()} ", style=finding.severity.style)
        text.append(f"{finding.id} · {visible(finding.subject)}: {visible(finding.title)}\n")
        command = first_command(finding.fix)
        if finding.severity.fails_check and command:
            text.append(f"      fix: {visible(command)}\n", style="cyan")
    if len(findings) > limit:
        text.append(f"  … and {len(findings) - limit} more\n", style="dim")
    if not verdict:
        text.append("Counted as the Advice screen (4) counts them, saved benchmark runs included. The last "
                    "step opens them with evidence, fix commands, risk and how to verify.", style="dim")
        return text
    text.append("Counted as the Advice screen (4) counts them, saved benchmark runs included. Findings (f) "
                "opens them with evidence, fix commands, risk and how to verify; Save report writes them "
                "for a ticket.", style="dim")
    return text


