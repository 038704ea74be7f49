"""Per-device write and flush counters from /proc/diskstats (or /sys/class/block/X/stat), and deltas."""

from __future__ import annotations

from dataclasses import dataclass

DISKSTATS = "/proc/diskstats"
"""Counters of every block device; flush fields (16, 17) exist since Linux 5.5."""


@dataclass(frozen=True, slots=True)
class WriteCounters:
    """Cumulative write/flush counters of one block device."""

    kname: str
    writes: int
    write_ms: int
    sectors_written: int
    flushes: int | None
    flush_ms: int | None


@dataclass(frozen=True, slots=True)
class LayerDelta:
    """What one layer did between two readings: counts and average time per request."""

    kname: str
    writes: int
    flushes: int | None
    write_await_ms: float | None
    flush_await_ms: float | None
    bytes_written: int

    def to_json(self) -> dict[str, object]:
        """The README's `layers[]` entry."""
        return {"kname": self.kname, "writes": self.writes, "flushes": self.flushes,
                "write_await_ms": _round(self.write_await_ms), "flush_await_ms": _round(self.flush_await_ms),
                "bytes_written": self.bytes_written}


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def parse_stat_fields(kname: str, fields: list[str]) -> WriteCounters | None:
    """Counters from the numbers of one stat line (the part after major, minor and name)."""
    try:
        numbers = [int(f) for f in fields]
    except ValueError:
        return None
    if len(numbers) < 11:
        return None
    flushes = numbers[15] if len(numbers) >= 17 else None
    flush_ms = numbers[16] if len(numbers) >= 17 else None
    return WriteCounters(kname, numbers[4], numbers[7], numbers[6], flushes, flush_ms)


def parse_diskstats(text: str) -> dict[str, WriteCounters]:
    """All devices of a /proc/diskstats text, by kernel name."""
    found = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 14:
            continue
        counters = parse_stat_fields(parts[2], parts[3:])
        if counters is not None:
            found[counters.kname] = counters
    return found


def read_write_counters(knames: list[str], proc_path: str = DISKSTATS) -> dict[str, WriteCounters]:
    """Counters of `knames` from /proc/diskstats, falling back to /sys/class/block/X/stat."""
    try:
        with open(proc_path, encoding="ascii", errors="replace") as handle:
            every = parse_diskstats(handle.read())
    except OSError:
        every = {}
    found = {k: every[k] for k in knames if k in every}
    for kname in knames:
        if kname in found:
            continue
        try:
            with open(f"/sys/class/block/{kname}/stat", encoding="ascii") as handle:
                counters = parse_stat_fields(kname, handle.read().split())
        except OSError:
            continue
        if counters is not None:
            found[kname] = counters
    return found


def layer_delta(before: WriteCounters, after: WriteCounters) -> LayerDelta:
    """The activity between two readings; a counter that went backwards counts from zero."""
    writes = _delta(before.writes, after.writes)
    write_ms = _delta(before.write_ms, after.write_ms)
    flushes = flush_ms = None
    if before.flushes is not None and after.flushes is not None:
        flushes = _delta(before.flushes, after.flushes)
        flush_ms = _delta(before.flush_ms or 0, after.flush_ms or 0)
    return LayerDelta(
        kname=after.kname,
        writes=writes,
        flushes=flushes,
        write_await_ms=write_ms / writes if writes else None,
        flush_await_ms=(flush_ms or 0) / flushes if flushes else None,
        bytes_written=_delta(before.sectors_written, after.sectors_written) * 512,
    )


def _delta(before: int, after: int) -> int:
    return after - before if after >= before else after


def layer_deltas(before: dict[str, WriteCounters], after: dict[str, WriteCounters],
                 knames: list[str]) -> list[LayerDelta]:
    """Deltas for every layer present in both readings, in the order of `knames`."""
    return [layer_delta(before[k], after[k]) for k in knames if k in before and k in after]
