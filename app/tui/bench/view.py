"""What the benchmark screen shows, as plain values and text: live stats, verdict block, fio comparison."""

from __future__ import annotations

import math

from diskdoctor.app.base.columns import aligned_column
from diskdoctor.app.base.filesystem_words import filesystem_on
from diskdoctor.app.base.units import format_latency, format_threshold
from diskdoctor.app.core.bench import wal as wal_report
from diskdoctor.app.core.bench.caveats import HOST_LOAD, Caveats, not_durable_of
from diskdoctor.app.core.bench.kinds import kind_of
from diskdoctor.app.core.bench.outcome import Sections, verdict_style, verdict_word
from diskdoctor.app.core.bench.profile_name import profile_title
from diskdoctor.app.core.bench.uncertainty import FAIL, INCONCLUSIVE, PASS
from diskdoctor.app.core.bench.wal import (
    ETCD_THRESHOLD_MS,
    VENDOR_THRESHOLD_MS,
    Verdict,
    judged_result,
    ram_note,
    result_verdict,
    uncertainty_lines,
    verdict_head,
)
from diskdoctor.probes.diskstats import DiskDelta
from diskdoctor.probes.engine.workloads.wal import WalResult
from diskdoctor.probes.fio_json import FioSyncStats
from diskdoctor.probes.host_text import visible
from diskdoctor.probes.latency_histogram import LatencyHistogram, rank_of, us_of
from diskdoctor.probes.wal_params import SYNC_LABELS, WalParams, fio_command
from diskdoctor.probes.wal_target import Target
from diskdoctor.widgets.layer_time_table import LayerTimeRow
from rich.text import Text

SHOWN = (("p50", 50.0), ("p90", 90.0), ("p99", 99.0), ("p99.9", 99.9))
FEW_SAMPLES = 10
"""A percentile resting on fewer tail samples than this is flagged as shaky."""
THRESHOLDS = (("etcd", "etcd docs 10 ms"), ("vendor", "vendor 20 ms"), ("custom", "custom"))
PROGRESS_CELLS = 30
LIMIT_LABELS = {"etcd": "etcd docs", "vendor": "vendor", "custom": "custom"}
"""Short names for the chart's limit line; the verdict uses core/bench/wal.py's full source texts."""
FIELD_LABELS = {"#bench-fs": "filesystem", "#bench-dir": "directory",
                "#bench-profile": "profile",
                "#bench-bs": "bs", "#bench-size": "size", "#bench-duration": "seconds",
                "#bench-sync": "sync call", "#bench-threshold": "threshold", "#bench-threshold-custom": "ms",
                "#bench-jobs": "jobs", "#bench-rates": "writes/s", "#bench-arrival": "arrivals",
                "#bench-prealloc": "segments", "#bench-capacity": "then", "#bench-direct": "I/O"}
"""Every form field's label, shown in its border at every width (placeholders vanish once typed in)."""
LAYERS_LIVE_TITLE = "Where the time goes (last interval, /proc/diskstats)"
LAYERS_RUN_TITLE = "Where the time goes (whole run, /proc/diskstats)"
NO_LAYERS_TITLE = "Where the time goes: no block device under this directory, so no per-layer times"


def layers_title(load: str) -> str:
    """The layer table's title while it shows one load of a finished run."""
    return f"Where the time goes (at {load}, /proc/diskstats)"


def plan_text(kind: str, directory: str) -> Text:
    """Before the first run, what Start will do: the workload in words, where it writes, what is judged."""
    workload = kind_of(kind)
    where = directory or "the directory above"
    text = Text("What Start runs\n", style="bold")
    text.append(workload.cli.description + "\n\n")
    text.append(f"It writes only in a scratch directory it makes in {where}, and removes it when the run "
                "ends, is cancelled (Esc) or fails.\n")
    if workload.judged:
        text.append("The verdict compares its p99 with the threshold below; the chart draws each load as it "
                    "runs, then the judged one (c: the others).")
    else:
        text.append("Nothing is judged: the figures are reported as measured.")
    return text


def capture_text() -> Text:
    """On a capture (--sysroot), where what Start runs would be: why nothing runs here, and what to do."""
    text = Text("Benchmarks need the live host\n", style="bold")
    text.append("A benchmark writes to the storage it measures, so it runs only on the host itself. This "
                "session reads a capture (--sysroot): the host's files are here, its disks are not.\n\n")
    text.append("What you can do instead\n", style="bold")
    text.append("•  Run diskdoctor on that host without --sysroot and benchmark there, or in its shell: ")
    text.append("diskdoctor bench wal --dir DIR", style="bold")
    text.append(". A report written there (w) carries its runs.\n")
    text.append("•  Runs (key 5) lists the runs saved on this machine.\n")
    text.append("•  Stack (1), TRIM (2) and Advice (4) read the capture as they would the host.")
    return text


WORD_STYLES = {"PASS": "green", "FAIL": "red", "INCONCLUSIVE": "yellow", "DAMAGED": "red"}
EARLIER_RUNS = 8
"""Saved runs listed under what Start runs (the newest on that filesystem)."""


def earlier_runs_text(runs: list[tuple[str, str, str]], directory: str, filtered: str = "") -> Text:
    """The runs saved on the filesystem of `directory`, newest first: "2026-11-26 02:55 UTC  wal  FAIL …";
    `filtered`, the `/` filter's note ("filter 'fail': 1 of 3 runs · Esc clears") under the heading."""
    text = Text("Earlier runs on this filesystem", style="bold")
    text.append(" (key 5: all saved runs)\n", style="dim")
    if filtered:
        text.append(filtered + "\n", style="dim")
    elif not runs:
        text.append(f"none saved yet for {directory}", style="dim")
    for row in earlier_run_rows(runs):
        text.append_text(row)
    return text


def earlier_run_rows(runs: list[tuple[str, str, str]]) -> list[Text]:
    """One line per saved run (each ends in a newline): its time, workload and result."""
    rows = []
    for when, kind, head in runs:
        row = Text(f"{when}  {kind:<12} ")
        row.append(head + "\n", style=WORD_STYLES.get(head.split(" ", 1)[0], ""))
        rows.append(row)
    return rows


def earlier_fold_note(shown: int, count: int) -> str:
    """What the title of what Start runs adds when saved runs are below the fold ("1 of 3 earlier runs fit:
    PgDn for more"), as every list says it; "" when all show."""
    return f"{shown} of {count} earlier runs fit: PgDn for more" if shown < count else ""


def with_title_note(plan: Text, note: str) -> Text:
    """`plan` with `note` after its first line's title ("What Start runs · 0 of 2 earlier runs fit: …")."""
    if not note:
        return plan
    title = plan.plain.partition("\n")[0]
    noted = plan[:len(title)]
    noted.append(f" · {note}", style="dim")
    return noted + plan[len(title):]


def tail_samples(percent: float, count: int) -> int:
    """How many samples sit at or above a percentile: the evidence behind it."""
    return count - rank_of(percent, count) + 1 if count else 0


def _ms(value_ns: float | None) -> str:
    """A latency as the saved run will say it (to the ns, then three significant digits), so Benchmark and
    Runs round a figure alike (newuser11: `330 ns 400 ns 642 ns` here, `331 ns 401 ns 641 ns` on Runs)."""
    saved = us_of(value_ns)
    return format_latency(None if saved is None else saved * 1000.0)


def percentile_values(histogram: LatencyHistogram) -> dict[str, float | None]:
    """p50/p90/p99/p99.9 in milliseconds, for the chart."""
    values = {}
    for name, percent in SHOWN:
        value = histogram.percentile(percent)
        values[name] = None if value is None else value / 1e6
    return values


def stats_text(interval: LatencyHistogram | None, total: LatencyHistogram, metric: str,
               writes: LatencyHistogram | None = None, total_title: str = "whole phase") -> Text:
    """Interval and cumulative percentiles, each with the number of samples behind it, in columns of
    right-aligned numbers and their units one above the other (as iostat and fio print them); then write().

    Without `interval` (a finished run) only the cumulative column, titled `total_title`: a last half
    second's p99 beside the verdict read as the judged one (newuser8)."""
    names = [name for name, _ in SHOWN] + ["max"]
    label = max(len(metric), *map(len, names))
    rows = [Text(f"{name:<{label}}") for name in names]
    head = Text(f"{metric:<{label}}", style="bold")
    columns = (("last interval", interval),) if interval is not None else ()
    for title, histogram in (*columns, (total_title, total)):
        behind = [tail_samples(percent, histogram.count) for _, percent in SHOWN]
        values = [_ms(histogram.percentile(percent)) for _, percent in SHOWN] + [_ms(histogram.maximum)]
        counts = [f"{count:,}" for count in behind] + [""]
        value_width = max(len(title), *map(len, aligned_column(values)))
        count_width = max(len("samples"), *map(len, counts))
        # two blanks between a figure and its sample count, so "2.49 µs 259,500" never reads as one value
        head.append(f"  {title:>{value_width}}  {'samples':>{count_width}}")
        for row, (value, count) in enumerate(zip(aligned_column(values, value_width), counts, strict=True)):
            shaky = row < len(behind) and 0 < behind[row] < FEW_SAMPLES
            rows[row].append(f"  {value}  {count:>{count_width}}", style="yellow" if shaky else "")
    text = Text("\n").join([head, *rows])
    if writes is not None and metric != "O_DSYNC write":
        text.append(f"\nwrite() alone, whole run: p50 {_ms(writes.percentile(50))} · "
                    f"p99 {_ms(writes.percentile(99))} · max {_ms(writes.maximum)}")
    return text


def progress_text(progress: float, elapsed_s: float, ops: int, ops_per_s: float, *,
                  finished: bool = False, mb_s: tuple[float, float] | None = None,
                  load: str | None = None, loads: tuple[int, int] | None = None) -> Text:
    """A bar with the percentage (and the load running, for a WAL run: "500 writes/s, steady"), then e.g.
    "4,512 writes · 2,345 ops/s · 2.00 s · 3 s left"; with `mb_s` (a compaction, whose calls are 2 MiB
    reads and 1 MiB writes) "read 380.2 MB/s · write 379.9 MB/s · …". A finished run has no bar: its
    one line ends "· done" (a full bar took a row over the verdict). With `loads`, (this load, of how many)
    of a WAL run whose bar is the whole run's and whose count and seconds are the load's, the bar says
    "60% · load 2 of 3 at …" and the time left is said for the load and for the whole run, as the bar:
    "1.0 s left in this load · 6.0 s in all" (newuser19: `4.00 s · 2.7 s left` at 60% was neither)."""
    text = Text("")
    several = loads is not None and loads[1] > 1 and not finished
    if not finished:
        done = round(min(max(progress, 0.0), 1.0) * PROGRESS_CELLS)
        text.append("━" * done, style="green")
        text.append("━" * (PROGRESS_CELLS - done), style="dim")
        text.append(f" {progress:.0%}", style="bold")
        which = f"load {loads[0]} of {loads[1]}" if several and loads is not None else ""
        if load:  # "at 500 writes/s, steady", but "closed loop (capacity)": no rate to be at
            shown = f"{which}: {load}" if which and load.startswith("closed loop") else \
                load if load.startswith("closed loop") else f"{which} at {load}".lstrip()
            text.append(f" · {shown}", style="bold")
        elif which:
            text.append(f" · {which}", style="bold")
        text.append("\n")
    eta = "done" if finished else time_left(progress, elapsed_s)
    if several and loads is not None:
        eta = loads_left(progress, elapsed_s, *loads)
    pace = f"{ops:,} writes · {ops_per_s:,.0f} ops/s" if mb_s is None else \
        f"read {mb_s[0]:,.1f} MB/s · write {mb_s[1]:,.1f} MB/s"
    text.append(f"{pace} · {elapsed_text(elapsed_s)} · {eta}")
    return text


def loads_left(progress: float, elapsed_s: float, load: int, count: int) -> str:
    """The time left at this pace in load `load` of `count` (`elapsed_s` its own seconds, `progress` the
    run's, each load an equal share of it) and in the whole run, as the bar: "1.0 s left in this load · 6.0 s
    in all" ("this load finishing" under a second)."""
    share = progress * count - (load - 1)  # how much of this load is done
    if share <= 0:
        return "ETA -"
    in_all = elapsed_s / min(share, 1.0) * count * max(1 - progress, 0.0)
    if in_all < 1:
        return "finishing"
    this = time_left(min(share, 1.0), elapsed_s)
    this = "this load finishing" if this == "finishing" else f"{this} in this load"
    return f"{this} · {seconds_text(in_all)} in all"


def seconds_text(seconds: float) -> str:
    """Seconds as the time left is said: "6.0 s" under ten, "12 s" beyond."""
    return f"{seconds:,.1f} s" if seconds < 10 else f"{seconds:,.0f} s"


def elapsed_text(seconds: float) -> str:
    """A run's duration in the units of every latency on screen: "674 ms", "2.04 s", "126 s"."""
    return format_latency(seconds * 1e9) if seconds > 0 else "0 s"


def time_left(progress: float, elapsed_s: float) -> str:
    """The time left at this pace, or "finishing" under a second (the last syncs and the cleanup after them
    are not in the progress, so a smaller figure would be a guess)."""
    if progress <= 0:
        return "ETA -"
    left = elapsed_s * (1 - progress) / progress
    if left < 1:
        return "finishing"
    return f"{seconds_text(left)} left"


def layer_rows(layers: list[DiskDelta]) -> list[LayerTimeRow]:
    """Per-layer deltas as table rows."""
    return [LayerTimeRow(d.kname, d.writes, d.flushes, d.write_await_ms, d.flush_await_ms, d.util)
            for d in layers]


def log_bands(histogram: LatencyHistogram) -> list[tuple[float, float, int]]:
    """(low ns, high ns, count) per half-decade, from the first to the last band with samples."""
    bands = histogram.log_bands()
    if not bands:
        return []
    return [(low, low * 10 ** 0.5, count) for low, count in bands]


def threshold_ms(choice: str, custom_text: str) -> tuple[float | None, str | None]:
    """The threshold picked on screen, or (None, why) for an unusable custom value."""
    if choice == "etcd":
        return ETCD_THRESHOLD_MS, None
    if choice == "vendor":
        return VENDOR_THRESHOLD_MS, None
    try:
        value = float(custom_text)
    except ValueError:
        return None, f"custom threshold {custom_text!r} is not a number of milliseconds"
    return (value, None) if 0 < value < math.inf else (None, "custom threshold must be more than 0 ms")


def threshold_source(choice: str, threshold: float) -> str:
    """The verdict's provenance for the picked profile: a custom 10 ms is still a custom threshold."""
    return "custom threshold" if choice == "custom" else wal_report.threshold_source(threshold)


def not_durable(target: Target) -> tuple[str, ...]:
    """Why fdatasync is not durable on a target (tmpfs, nobarrier...), in caveats.py's words."""
    return not_durable_of(target.to_json())


def verdict_text(params: WalParams, target: Target, result: WalResult, threshold: float,
                 source: str | None = None, sections: Sections | None = None,
                 caveats: Caveats | None = None) -> tuple[Text, Verdict]:
    """The end-of-run block: verdict with provenance, its interval (what would settle it) and its caveats
    (their tags, the model, the host's contention), the run in numbers, and the fio equivalent."""
    result = judged_result(params, result, threshold, source, sections)  # the figures of the cited load
    verdict = result_verdict(params, result, threshold, source, sections)
    head, rest = verdict_head(verdict)[0], uncertainty_lines(verdict)
    word, _, line = head.partition(" ")
    text = Text(word + " ", style="bold " + verdict_style(verdict))
    text.append(line.strip() + (caveats.suffix() if caveats else "") + "\n", style="bold")
    busy = caveats.host.busy_reason if caveats is not None and caveats.host is not None else None
    settled = False
    for extra in rest:
        if busy and extra.startswith("settle") and QUIETER in extra:  # the host line says who kept it busy
            cannot = "too close to the threshold" in extra  # no longer run settles it (newuser15)
            extra = extra.partition(QUIETER)[0] + ("; a quieter moment might" if cannot else
                                                   "; so would a quieter moment")
            settled = True
        text.append(extra + "\n", style="yellow")
    note = ram_note(target.fstype) if caveats is None else None  # the caveats say it otherwise
    if note:
        text.append(f"Note: {note}\n", style="bold yellow")
    for line in caveats.lines() if caveats is not None else ():
        if busy and line.startswith("host"):
            line = busy_line(busy, settled)
        if not line.startswith("durable"):  # [not durable] above and BENCH-NOT-DURABLE below say it
            text.append(line + "\n", style="bold yellow" if caveats and caveats.tags() else "")
    listed = wal_report.level_verdict_list(params, result, threshold, source, sections)
    text.append_text(levels_table(result, threshold, listed))
    text.append(f"{result.samples:,} writes of {params.bs:,} bytes in {elapsed_text(result.duration_s)}, "
                f"{result.ops_per_s or 0:,.0f} ops/s · {params.sync} · "
                f"{'preallocated' if params.prealloc else 'appending'} · {target.directory} "
                f"({filesystem_on(target.fstype, target.device)})\n")
    text.append("fio equivalent: ", style="bold")
    text.append(fio_command(params, target.directory))
    return text, verdict


QUIETER = "; or run it at a quieter moment"
"""Where a settle line goes on to name the busy host's processes, which the host line under it names."""


def busy_line(reason: str, settled: bool) -> str:
    """The busy host said once and short under a verdict: "host load BUSY: other processes used 83% of the
    CPUs, did 363 MiB/s of I/O (bash, dd)" (newuser14 #5: the settle and host lines said it twice, in 8 of
    17 rows at 80x24, and pushed the per-load table below the fold)."""
    short = visible(reason).replace("; other processes ", ", ")
    advice = "" if settled else ": run again at a quieter moment to judge the disk alone"
    return f"{HOST_LOAD:<9} BUSY: {short}{advice}"


LEVEL_WORDS = {PASS: ("under", "green"), INCONCLUSIVE: ("inconclusive", "yellow"), FAIL: ("over", "red")}
"""Each load's own verdict in the table, from its p99's interval as the headline judges it."""


def levels_table(result: WalResult, threshold: float, verdicts: list[Verdict | None] | None = None) -> Text:
    """Each load of a WAL run in one row (from due time; the capacity: its sync calls alone) with its own
    verdict (`verdicts`, from `level_verdict_list`: the headline's interval logic; without them, the p99
    alone), then what a load the writer could not keep up with did: the CLI's `load` lines, short enough
    for the figures pane."""
    if not result.levels:
        return Text("")
    percents = (50.0, 99.0, 99.9)
    figures_of = [level.sync if level.rate is None else level.latency for level in result.levels]
    columns = [aligned_column([_ms(figures.percentile(p)) for figures in figures_of], 8) for p in percents]
    names = [f"capacity {level.achieved_per_s or 0:,.0f}/s" if level.rate is None else
             wal_report.short_load(level.rate, level.arrival) for level in result.levels]
    width = max([16, *map(len, names)])  # as wide as the longest load, so every row's figures line up
    text = Text(f"{'load':<{width}}" + "".join(f"  {title:>{len(column[0])}}" for title, column in
                                               zip(("p50", "p99", "p99.9"), columns, strict=True)) + "\n",
                style="bold")
    for row, (level, figures, name) in enumerate(zip(result.levels, figures_of, names, strict=True)):
        closed = level.rate is None
        text.append(f"{name:<{width}}" + "".join(f"  {column[row]}" for column in columns))
        p99 = figures.percentile(99.0)
        verdict = verdicts[row] if verdicts is not None and row < len(verdicts) else None
        if closed:
            text.append(f"  {wal_report.SYNC_CALL}, not judged\n", style="dim")
        elif verdict is not None:
            word, style = LEVEL_WORDS[verdict.result]
            text.append(f"  {word}\n", style=style)
        elif p99 is not None and p99 / 1e6 < threshold:
            text.append("  under\n", style="green")
        else:
            text.append("  over\n", style="red")
    document = {"levels": [level.to_json() for level in result.levels]}
    for line in wal_report.level_lines(document, threshold):
        if line.startswith("note"):
            text.append(line.partition(" ")[2].strip() + "\n", style="yellow")
    return text


def previous_line(params: WalParams, target: Target, result: WalResult, threshold: float | None,
                  sections: Sections | None = None) -> Text:
    """One line on the last finished run, kept on screen while the next one runs and after it."""
    text = Text("previous run: ", style="dim bold")
    if threshold is not None:
        verdict = result_verdict(params, result, threshold, sections=sections)
        text.append(verdict_word(verdict) + " ", style=verdict_style(verdict))
    text.append(f"p99 {_ms(result.sync.percentile(99.0))} · {result.ops_per_s or 0:,.0f} ops/s · "
                f"{profile_title(params)}, {result.samples:,} writes in {elapsed_text(result.duration_s)} · "
                f"{target.directory}",
                style="dim")
    return text


def comparison_text(params: WalParams, result: WalResult, fio: FioSyncStats,
                    threshold: float | None = None) -> Text:
    """Our figures next to fio's for the same job: p50 to p99.9 and max, with the ratio and its direction;
    fio's closed loop beside our closed loop (the capacity level) when the run had one, like for like."""
    label = SYNC_LABELS[params.sync]
    capacity = result.capacity if result.model == "open loop" else None
    sync = capacity.sync if capacity is not None else result.sync
    samples = capacity.writes if capacity is not None else result.samples
    ops = capacity.achieved_per_s if capacity is not None else result.ops_per_s
    ours_name = "ours closed" if capacity is not None else "diskdoctor"
    text = Text(f"{label:<12} {ours_name:>12} {fio.version:>12} {'ours/fio':>9}\n", style="bold")
    rows = [(name, sync.percentile(p), fio.percentiles_ns.get(p)) for name, p in SHOWN]
    rows.append(("max", sync.maximum, fio.max_ns))
    ours_column = aligned_column([_ms(ours) for _, ours, _ in rows], 12)
    fio_column = aligned_column([_ms(theirs) for _, _, theirs in rows], 12)
    for (name, ours, theirs), ours_cell, fio_cell in zip(rows, ours_column, fio_column, strict=True):
        text.append(f"{name:<12} {ours_cell} {fio_cell} {_ratio(ours, theirs):>9}\n")
    text.append(f"{'samples':<12} {samples:>12,} {fio.samples:>12,}\n")
    text.append(f"{'ops/s':<12} {ops or 0:>12,.0f} {fio.ops_per_s:>12,.0f} "
                f"{_ratio(ops, fio.ops_per_s):>9}\n")
    text.append("ours/fio above 1.00: our latency is higher (slower); for ops/s, above 1.00 we did more.",
                style="dim")
    disagreement = fio_disagreement(result, fio, threshold) if threshold is not None else None
    if disagreement:
        text.append("\n" + disagreement, style="bold yellow")
    return text


def fio_disagreement(result: WalResult, fio: FioSyncStats, threshold: float | None) -> str | None:
    """A warning when our p99 and fio's land on opposite sides of the threshold (the verdict is marginal);
    never for an open-loop verdict, which fio's closed loop does not measure (as `bench wal` prints it)."""
    ours_ns, theirs_ns = result.sync.percentile(99.0), fio.percentiles_ns.get(99.0)
    if threshold is None or ours_ns is None or theirs_ns is None or result.model == "open loop":
        return None
    ours_pass, fio_pass = ours_ns / 1e6 < threshold, theirs_ns / 1e6 < threshold
    if ours_pass == fio_pass:
        return None
    limit = format_threshold(threshold)
    return (f"fio's p99 {_ms(theirs_ns)} is {'under' if fio_pass else 'at or over'} the {limit} threshold "
            f"while ours ({_ms(ours_ns)}) is {'under' if ours_pass else 'over'}: the verdict is marginal; "
            "run longer (l)")


def _ratio(ours: float | None, theirs: float | None) -> str:
    return "-" if not ours or not theirs else f"{ours / theirs:.2f}"
