"""How a monitor tick reads as text: the cells of a layer's row (shared by the CLI and the screen) and the
plain-text block `diskdoctor monitor` prints each tick."""

from __future__ import annotations

import re

from diskdoctor.probes.diskstats import DiskDelta
from diskdoctor.probes.host_text import visible
from diskdoctor.probes.io_monitor import CpuSample, LayerSample, MonitorSample, discard_await_ms
from diskdoctor.probes.process_io import ProcessRate, ProcessRates
from rich.cells import cell_len, set_cell_size

from ..base.formatting import human_bytes

COLUMNS: tuple[tuple[str, str, int], ...] = (
    ("util", "util", 5), ("r/s", "r_s", 7), ("w/s", "w_s", 7), ("rMB/s", "rmb_s", 7), ("wMB/s", "wmb_s", 7),
    ("r_await", "r_await", 8), ("w_await", "w_await", 8), ("f/s", "f_s", 6), ("f_await", "f_await", 8),
    ("d/s", "d_s", 6), ("dMB/s", "dmb_s", 7), ("d_await", "d_await", 8), ("inflight", "in_flight", 8))
"""(heading, key, width) of every figure, most telling first: a narrow screen keeps the first ones."""
COUNTER_COLUMNS: tuple[tuple[str, str, int], ...] = (
    ("reads", "reads", 11), ("writes", "writes", 11), ("read", "sectors_read", 8),
    ("written", "sectors_written", 8), ("discards", "discards", 9), ("flushes", "flushes", 9),
    ("inflight", "in_flight", 8), ("busy s", "io_ticks_ms", 9))
"""What a capture's single reading shows: cumulative counters since boot."""
NAME_WIDTH = 22


def figure(value: float) -> str:
    """A figure of the table's columns: whole from 100 ("1,640"), one decimal under it ("15.1")."""
    return f"{value:,.0f}" if value >= 100 else f"{value:,.1f}"


def _rate(delta: DiskDelta, value: int | None, scale: float = 1.0) -> str:
    per_s = delta.rate(value)
    return "-" if per_s is None else figure(per_s / scale)


def _ms(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:,.0f}" if value >= 100 else f"{value:.2f}"


def rate_cells(delta: DiskDelta | None) -> dict[str, str]:
    """Every figure of a layer's row as text ("-" when unknown or idle for that kind)."""
    if delta is None:
        return {key: "" for _, key, _ in COLUMNS}
    util = delta.util
    return {
        "util": "-" if util is None else f"{util:.0%}", "r_s": _rate(delta, delta.reads),
        "w_s": _rate(delta, delta.writes), "rmb_s": _rate(delta, delta.read_bytes, 1e6),
        "wmb_s": _rate(delta, delta.write_bytes, 1e6), "r_await": _ms(delta.read_await_ms),
        "w_await": _ms(delta.write_await_ms), "f_s": _rate(delta, delta.flushes),
        "f_await": _ms(delta.flush_await_ms), "d_s": _rate(delta, delta.discards),
        "dmb_s": _rate(delta, delta.discard_bytes, 1e6), "d_await": _ms(discard_await_ms(delta)),
        "in_flight": str(delta.in_flight)}


def rate_cells_key(delta: DiskDelta | None) -> tuple[object, ...] | None:
    """What rate_cells' text depends on: deltas with equal keys give the same cells (an idle device's
    every tick, whatever the interval's length), so a screen can leave such a row alone."""
    if delta is None:
        return None
    amounts = (delta.reads, delta.writes, delta.read_bytes, delta.write_bytes, delta.read_ms, delta.write_ms,
               delta.io_ticks_ms, delta.discards, delta.discard_bytes, delta.discard_ms, delta.flushes,
               delta.flush_ms)
    return (*amounts, delta.in_flight, delta.seconds if any(amounts) else delta.seconds > 0)


def counter_cells(layer: LayerSample) -> dict[str, str]:
    """A capture's cumulative counters as text (sectors as bytes, busy time in seconds)."""
    counters = layer.counters
    if counters is None:
        return {key: "?" for _, key, _ in COUNTER_COLUMNS}

    def sectors(value: int | None) -> str:
        return "-" if value is None else column_bytes(value * 512)

    return {"reads": f"{counters.reads:,}", "writes": f"{counters.writes:,}",
            "sectors_read": sectors(counters.sectors_read),
            "sectors_written": sectors(counters.sectors_written),
            "discards": "-" if counters.discards is None else f"{counters.discards:,}",
            "flushes": "-" if counters.flushes is None else f"{counters.flushes:,}",
            "in_flight": str(counters.in_flight), "io_ticks_ms": f"{counters.io_ticks_ms / 1000:,.0f}"}


def column_bytes(count: int) -> str:
    """A size for a capture's byte columns, one rule on every row: lsblk's units, whole from 100 ("279M",
    "303M", "607K"), one decimal under it unless it is .0 ("1.8M", "12M"): newuser16 saw `279M` above
    `302.6M`, newuser14 `607.0K` beside `1.8M`."""
    text = human_bytes(count)
    number, unit = text[:-1], text[-1]
    if unit == "B" or float(number) < 100:
        return text
    return f"{float(number):.0f}{unit}"


def layer_label(layer: LayerSample) -> str:
    """The device's name indented by its depth under the group's top layer."""
    return "  " * layer.row.depth + visible(layer.row.name)


def cpu_line(cpu: CpuSample | None, live: bool) -> str:
    """e.g. "CPU busy 12% · iowait 3% · steal 0%"."""
    if cpu is None:
        return "CPU: needs the live host" if not live else "CPU: next tick"
    return f"CPU busy {cpu.busy:.0%} · iowait {cpu.iowait:.0%} · steal {cpu.steal:.0%}"


def bytes_rate(value: float) -> str:
    """Bytes per second in lsblk's units: "0B/s", "512K/s", "1.5M/s"."""
    return human_bytes(int(value)) + "/s"


def mb_rate(value: float) -> str:
    """Bytes per second in the table's unit (its rMB/s and wMB/s columns, 10^6 bytes): "217.7 MB/s",
    "1,640 MB/s", a trickle in kB/s ("55 kB/s"), so the process lines and the figures beside them read
    alike (newuser10 saw `write 207.6M/s` beside `wMB/s 247`)."""
    if value <= 0:
        return "0 MB/s"
    mb = value / 1e6
    if mb < 0.1:
        return f"{value / 1e3:,.0f} kB/s"
    return f"{figure(mb)} MB/s"


PROGRAM_CELLS = 32
"""A process's program ("python3 etcd_sim.py") longer than this is cut in its middle (both ends say most)."""


def program_text(label: str, cells: int = PROGRAM_CELLS) -> str:
    """A process's name or program made safe for the terminal, cut in its middle when longer than `cells`."""
    text = visible(label)
    if cell_len(text) <= cells:
        return text
    head = set_cell_size(text, cells // 2)
    tail = set_cell_size(text[::-1], cells - 1 - cells // 2)[::-1]
    return head + "…" + tail


def process_lines(processes: ProcessRates | None, live: bool, limit: int = 5) -> list[str]:
    """Who did the I/O: "etcd[812] read 0 MB/s write 2.2 MB/s" (an interpreter with its script: "python3
    etcd_sim.py[11858] …"), and who could not be seen."""
    if processes is None:
        return ["per-process I/O needs the live host" if not live else "per-process I/O from the next tick"]
    lines = [f"{program_text(p.label)}[{p.pid}] read {mb_rate(p.read_bytes_s)} "
             f"write {mb_rate(p.write_bytes_s)}" + (" (the same data again)" if rewriter(p) else "")
             for p in process_order(processes, limit)]
    lines = lines or ["no process read or wrote storage bytes"]
    if processes.denied_note:
        lines.append(processes.denied_note)
    return lines


PROCESS_NAME_CELLS = 26
"""The process column of "who does the I/O": a longer program[pid] is cut in its middle (pid kept whole)."""
PROCESS_FIGURE_CELLS = 7
"""Its rMB/s and wMB/s columns (the table's headings and unit: "1,640", "217.7", "<0.1")."""
PROCESS_TABLE_CELLS = PROCESS_NAME_CELLS + 2 * (1 + PROCESS_FIGURE_CELLS)
"""A process row's width: every row and the heading are this wide, so the pane is sized once from it."""


def mb_figure(value: float) -> str:
    """Bytes per second (or bytes) as a figure of the table's MB/s columns: "0", "<0.1", "15.1", "1,640"."""
    if value <= 0:
        return "0"
    mb = value / 1e6
    return "<0.1" if mb < 0.1 else figure(mb)


def process_name_cells(processes: ProcessRates | None, limit: int = 5) -> int:
    """The widest whole program[pid] of the processes a table of `limit` rows lists (0 for none)."""
    if processes is None:
        return 0
    return max((cell_len(visible(p.label)) + len(f"[{p.pid}]") for p in processes.top[:limit]), default=0)


KERNEL_WORKER = re.compile(r"kworker/[^+-]*(?:[+-](?P<job>.*))?")
"""A workqueue's kernel thread, named after its last job ("kworker/u8:1+loop0": running loop0's, "-" done)."""
LOOP_JOB = re.compile(r"loop[0-9]+")


def rewriter(process: ProcessRate) -> bool:
    """Whether the process is a kernel worker: its write_bytes are data some process wrote already, written
    again on its behalf (a loop device's worker dirties the same data in its backing file's page cache; a
    pooled worker is named after its last job, so "-writeback" may have done loop0's)."""
    return KERNEL_WORKER.fullmatch(process.name) is not None


def process_order(processes: ProcessRates, limit: int = 5) -> list[ProcessRate]:
    """The `limit` busiest processes as the table lists them: who wrote first, then the kernel workers that
    wrote the same data again (newuser24 #3 read 2.4 GB/s summed over rows for a disk writing 303 MB/s)."""
    return sorted(processes.top[:limit], key=rewriter)


def rewriter_notes(shown: list[ProcessRate]) -> list[str]:
    """What the dim rows are, in short lines that fit the process table's width (none without a kernel
    worker that wrote): "dim: kernel worker, the same data again" / "(a loop device's, into its backing
    file)"; a pooled worker is named after its last job only, so which loop is not said."""
    workers = [p for p in shown if rewriter(p) and p.write_bytes_s > 0]
    if not workers:
        return []
    loop = any(LOOP_JOB.search(p.name) for p in workers)
    return [f"dim: kernel worker{'s' if len(workers) > 1 else ''}, the same data again",
            "(a loop device's, into its backing file)" if loop else "(e.g. a loop's, into its backing file)"]


def process_table(processes: ProcessRates | None, live: bool, limit: int = 5,
                  name_cells: int = PROCESS_NAME_CELLS) -> tuple[list[str], list[str]]:
    """Who did the I/O as a table (heading, then one row a process: program[pid] in `name_cells`, cut in its
    middle only when longer, rMB/s and wMB/s right-aligned, every row `name_cells` + 16 wide), and the short
    notes under it (who could not be seen, and why, on a line each; no processes yet)."""
    if processes is None:
        note = "per-process I/O from the next tick" if live else "per-process I/O needs the live host"
        return [], [note]
    figure = PROCESS_FIGURE_CELLS
    rows = [f"{'process':<{name_cells}} {'rMB/s':>{figure}} {'wMB/s':>{figure}}"]
    shown = process_order(processes, limit)
    for p in shown:
        pid = f"[{p.pid}]"
        name = program_text(p.label, max(name_cells - cell_len(pid), 4)) + pid
        name = set_cell_size(name, name_cells)
        rows.append(f"{name} {mb_figure(p.read_bytes_s):>{figure}} {mb_figure(p.write_bytes_s):>{figure}}")
    notes = rewriter_notes(shown) if processes.top else ["no process read or wrote storage bytes"]
    if processes.denied_note:  # who and why on a line each: neither wraps mid-phrase in the pane
        who, bracket, why = processes.denied_note.partition(" (")
        notes += [who, f"({why}"] if bracket else [who]
    return (rows if len(rows) > 1 else []), notes


def mb_amount(count: int) -> str:
    """A byte count in the Monitor's one unit, MB (10^6 bytes, as its rMB/s and wMB/s columns and the
    process table): "0 MB", "<0.1 MB", "0.4 MB", "315 MB", "1,640 MB", so "0.4 MB dirty, +2.5 MB/s" never
    mixes kB with MB/s (newuser15)."""
    return f"{mb_figure(count)} MB"


DIRTY_GROWTH_BYTES_S = 1e6
"""Dirty data growing this fast: say why the processes' writes are on no device yet."""


def dirty_trend(growth_s: float) -> str:
    """How the dirty bytes change, in words a reader says ("up 22.0 MB/s", "down < 0.1 MB/s", "steady"):
    newuser22 #13 read `-<0.1 MB/s` as a typo; short enough that "page cache: 1,640 MB dirty, down 164 MB/s"
    keeps to the process table's width (the pane under the table at 80 columns)."""
    figure_s = mb_figure(abs(growth_s))
    if figure_s == "0":
        return "steady"
    return f"{'up' if growth_s > 0 else 'down'} {figure_s.replace('<', '< ')} MB/s"


def writeback_lines(sample: MonitorSample) -> list[str]:
    """The page cache under the processes in MB and MB/s: "page cache: 182 MB dirty, up 22.0 MB/s" / "0 MB
    being written back", and while it grows, why no device shows the processes' writes yet (they wait
    there for writeback), in lines short enough for the Monitor's side pane."""
    cache = sample.page_cache
    if cache is None or sample.processes is None:
        return []
    growth = cache.dirty_growth_s
    grew = f", {dirty_trend(growth)}" if growth is not None else ""
    return [f"page cache: {mb_amount(cache.dirty_bytes)} dirty{grew}",  # two short lines: neither
            f"{mb_amount(cache.writeback_bytes)} being written back",    # wraps mid-phrase in the pane
            *writeback_note(sample)]


def writeback_note(sample: MonitorSample) -> list[str]:
    """While the dirty data grows, why no device shows the processes' writes yet, in short lines (the
    screen joins them into one paragraph wrapped at its pane's width; none while it does not grow)."""
    cache = sample.page_cache
    growth = cache.dirty_growth_s if cache is not None else None
    if cache is None or growth is None or growth < DIRTY_GROWTH_BYTES_S:
        return []
    expire = f"{cache.expire_s:g} s" if cache.expire_s else "a while"
    return ["a write counts when it reaches the page cache;",
            f"devices get it at writeback (once dirty {expire},",
            "sooner past vm.dirty_background_ratio or at fsync)"]


def sample_text(sample: MonitorSample) -> str:
    """The block `diskdoctor monitor` prints for one tick."""
    head = sample.taken_at.strftime("%H:%M:%S")
    if sample.seconds:
        head += f" · over {sample.seconds:.1f} s"
    if sample.late_ticks:
        head += f" · {sample.late_ticks} late ticks skipped"
    lines = [head + " · " + cpu_line(sample.cpu, sample.live)]
    if sample.note:
        lines.append(f"note: {sample.note}")
    if sample.appeared:
        lines.append("appeared: " + ", ".join(visible(k) for k in sample.appeared))
    if sample.vanished:
        lines.append("vanished: " + ", ".join(visible(k) for k in sample.vanished))
    columns = COLUMNS if sample.seconds else COUNTER_COLUMNS
    header = f"{'DEVICE':<{NAME_WIDTH}}" + "".join(f"{name:>{width + 1}}" for name, _, width in columns)
    lines.append(header)
    for group in sample.groups:
        lines.append(visible(group.group.title))
        for layer in group.layers:
            cells = rate_cells(layer.delta) if sample.seconds else counter_cells(layer)
            row = f"{layer_label(layer)[:NAME_WIDTH - 1]:<{NAME_WIDTH}}" + "".join(
                f"{cells[key]:>{width + 1}}" for _, key, width in columns)
            lines.append(row + ("  <- saturated" if layer.saturated else ""))
    lines.append("who: " + "; ".join(process_lines(sample.processes, sample.live)))
    lines += writeback_lines(sample)
    return "\n".join(lines)
