"""The one diskstats model: every counter of /proc/diskstats and /sys/block/X/stat, read through a Root,
and the deltas and rates between two readings, computed here and nowhere else."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, fields

from .root import Root

DISKSTATS = "proc/diskstats"
"""Counters of every block device: 11 fields up to 4.17, +4 discard fields (4.18), +2 flush fields (5.5)."""
SECTOR = 512
"""The counters count 512-byte sectors whatever the device's sector size (Documentation/block/stat.rst)."""
MIN_FIELDS = 11


@dataclass(frozen=True, slots=True)
class DiskCounters:
    """Cumulative counters of one block device, in the kernel's order; later fields are None when absent."""

    kname: str
    reads: int
    reads_merged: int
    sectors_read: int
    read_ms: int
    writes: int
    writes_merged: int
    sectors_written: int
    write_ms: int
    in_flight: int
    io_ticks_ms: int
    time_in_queue_ms: int
    discards: int | None = None
    discards_merged: int | None = None
    sectors_discarded: int | None = None
    discard_ms: int | None = None
    flushes: int | None = None
    flush_ms: int | None = None


COUNTER_FIELDS = tuple(f.name for f in fields(DiskCounters))[1:]


def parse_stat_fields(kname: str, numbers_text: list[str]) -> DiskCounters | None:
    """Counters from the numbers of one stat line (the part after major, minor and name); None if junk."""
    try:
        numbers = [int(text) for text in numbers_text[:len(COUNTER_FIELDS)]]
    except ValueError:
        return None
    if len(numbers) < MIN_FIELDS:
        return None
    if len(numbers) < 15:  # discard fields come as four, flush fields as two
        numbers = numbers[:MIN_FIELDS]
    elif len(numbers) < 17:
        numbers = numbers[:15]
    return DiskCounters(kname, *numbers)


def parse_diskstats(text: str) -> dict[str, DiskCounters]:
    """All devices of a /proc/diskstats text, by kernel name."""
    found = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 3 + MIN_FIELDS:
            continue
        counters = parse_stat_fields(parts[2], parts[3:])
        if counters is not None:
            found[counters.kname] = counters
    return found


class DiskstatsParser:
    """parse_diskstats that reuses the counters of every line unchanged since its previous text: on a big
    host most devices are idle, and an unchanged line gives the same object (so disk_delta knows it idle
    without comparing a field)."""

    def __init__(self) -> None:
        self._known: dict[str, DiskCounters] = {}

    def parse(self, text: str) -> dict[str, DiskCounters]:
        """All devices of a /proc/diskstats text, by kernel name."""
        found, known, previous = {}, {}, self._known
        for line in text.splitlines():
            counters = previous.get(line)
            if counters is None:
                parts = line.split()
                if len(parts) < 3 + MIN_FIELDS:
                    continue
                counters = parse_stat_fields(parts[2], parts[3:])
                if counters is None:
                    continue
            found[counters.kname] = known[line] = counters
        self._known = known
        return found


def read_counters(root: Root, knames: list[str] | tuple[str, ...] | None = None, *,
                  parser: DiskstatsParser | None = None) -> dict[str, DiskCounters]:
    """Counters of `knames` (every device when None) from proc/diskstats, else each /sys/block/X/stat."""
    text, _ = root.read_text(DISKSTATS)
    every = parser.parse(text or "") if parser is not None else parse_diskstats(text or "")
    if knames is None:
        return every
    found = {k: every[k] for k in knames if k in every}
    for kname in knames:
        if kname in found:
            continue
        for rel in (f"sys/block/{kname}/stat", f"sys/class/block/{kname}/stat"):
            stat_text, _ = root.read_text(rel)
            counters = parse_stat_fields(kname, (stat_text or "").split()) if stat_text else None
            if counters is not None:
                found[kname] = counters
                break
    return found


WRAP_32 = 1 << 32
"""Some counters are 32-bit (io_ticks and the ms fields on 32-bit kernels): they wrap past 2**32 - 1."""


def _delta(before: int | None, after: int | None) -> int | None:
    """after - before, never negative: a 32-bit counter that wrapped counts across the wrap; any other
    counter that went backwards (device removed and re-added, stats reset) counts from zero."""
    if before is None or after is None:
        return None
    if after >= before:
        return after - before
    across_wrap = WRAP_32 - before + after
    return across_wrap if before < WRAP_32 and across_wrap < WRAP_32 // 2 else after


def _per(total: int | None, count: int | None) -> float | None:
    return total / count if total is not None and count else None


@dataclass(slots=True)
class DiskDelta:
    """What one device did between two readings `seconds` apart: counts, bytes, times and rates. Not
    frozen: the monitor builds one per device each tick (5,000 on a big host), and a frozen class's
    __init__ (object.__setattr__ per field) costs ~6x a plain one's; nothing changes a delta once built
    (a sum of deltas is a new one, dataclasses.replace)."""

    kname: str
    seconds: float
    reads: int
    writes: int
    read_bytes: int
    write_bytes: int
    read_ms: int
    write_ms: int
    io_ticks_ms: int
    in_flight: int
    discards: int | None = None
    discard_bytes: int | None = None
    discard_ms: int | None = None
    flushes: int | None = None
    flush_ms: int | None = None

    @property
    def read_await_ms(self) -> float | None:
        """Average milliseconds per completed read."""
        return _per(self.read_ms, self.reads)

    @property
    def write_await_ms(self) -> float | None:
        """Average milliseconds per completed write."""
        return _per(self.write_ms, self.writes)

    @property
    def flush_await_ms(self) -> float | None:
        """Average milliseconds per completed flush (None before Linux 5.5)."""
        return _per(self.flush_ms, self.flushes)

    @property
    def util(self) -> float | None:
        """Fraction of the time the device had I/O in flight (iostat's %util / 100)."""
        return min(self.io_ticks_ms / (self.seconds * 1000), 1.0) if self.seconds > 0 else None

    def rate(self, amount: int | None) -> float | None:
        """`amount` per second over this delta."""
        return amount / self.seconds if amount is not None and self.seconds > 0 else None

    def to_json(self) -> dict[str, object]:
        """The `layers[]` entry of results and intervals: raw deltas plus the derived figures."""
        data: dict[str, object] = {name: getattr(self, name) for name in self.__dataclass_fields__}
        data.update({"bytes_written": self.write_bytes, "read_await_ms": _round(self.read_await_ms),
                     "write_await_ms": _round(self.write_await_ms),
                     "flush_await_ms": _round(self.flush_await_ms), "util": _round(self.util)})
        return data

    @classmethod
    def from_json(cls, data: dict[str, object]) -> DiskDelta:
        """Inverse of `to_json` (derived figures are recomputed; unknown keys ignored)."""
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)  # type: ignore[arg-type]


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


_IDLE_TAILS = {(no_discards, no_flushes): (None,) * 3 * no_discards + (0,) * 3 * (not no_discards)
               + (None,) * 2 * no_flushes + (0,) * 2 * (not no_flushes)
               for no_discards in (False, True) for no_flushes in (False, True)}
"""An idle delta's discard and flush fields: zeros where the kernel counts them, None where it does not."""


def disk_delta(before: DiskCounters, after: DiskCounters, seconds: float) -> DiskDelta:
    """The activity of one device between two readings."""
    if before is after:  # the same unchanged line (DiskstatsParser): an idle device, no field to compare
        return DiskDelta(after.kname, round(seconds, 4), 0, 0, 0, 0, 0, 0, 0, after.in_flight,
                         *_IDLE_TAILS[after.discards is None, after.flushes is None])
    return _busy_delta(before, after, seconds)


def _busy_delta(before: DiskCounters, after: DiskCounters, seconds: float) -> DiskDelta:
    """disk_delta of a device whose counters may have moved: every field compared."""

    def d(name: str) -> int | None:
        return _delta(getattr(before, name), getattr(after, name))

    sectors_discarded = d("sectors_discarded")
    return DiskDelta(
        kname=after.kname, seconds=round(seconds, 4), reads=d("reads") or 0, writes=d("writes") or 0,
        read_bytes=(d("sectors_read") or 0) * SECTOR, write_bytes=(d("sectors_written") or 0) * SECTOR,
        read_ms=d("read_ms") or 0, write_ms=d("write_ms") or 0, io_ticks_ms=d("io_ticks_ms") or 0,
        in_flight=after.in_flight, discards=d("discards"),
        discard_bytes=None if sectors_discarded is None else sectors_discarded * SECTOR,
        discard_ms=d("discard_ms"), flushes=d("flushes"), flush_ms=d("flush_ms"))


def deltas_since(before: dict[str, DiskCounters], after: dict[str, DiskCounters],
                 seconds: float) -> dict[str, DiskDelta]:
    """disk_delta of every device in both readings, by kernel name: the monitor's tick, where most devices
    of a big host are idle (their unchanged counters are the same object), so an idle delta is built
    without comparing a field or rounding the interval again."""
    rounded, tails, found = round(seconds, 4), _IDLE_TAILS, {}
    for kname, now in after.items():
        then = before.get(kname)
        if then is now:
            found[kname] = DiskDelta(kname, rounded, 0, 0, 0, 0, 0, 0, 0, now.in_flight,
                                     *tails[now.discards is None, now.flushes is None])
        elif then is not None:
            found[kname] = _busy_delta(then, now, seconds)
    return found


def disk_deltas(before: dict[str, DiskCounters], after: dict[str, DiskCounters], knames: list[str],
                seconds: float) -> list[DiskDelta]:
    """Deltas for every device present in both readings, in the order of `knames`."""
    return [disk_delta(before[k], after[k], seconds) for k in knames if k in before and k in after]


class DiskSampler:
    """Reads the counters of a fixed list of devices and returns the delta since its previous reading."""

    def __init__(self, root: Root, knames: list[str], clock: Callable[[], float] = time.monotonic) -> None:
        self.root, self.knames, self._clock = root, list(knames), clock
        self.first_at = self.last_at = clock()
        self.first = self.last = read_counters(root, self.knames) if self.knames else {}

    def interval(self) -> list[DiskDelta]:
        """Deltas since the previous call (or since construction)."""
        if not self.knames:
            return []
        now, counters = self._clock(), read_counters(self.root, self.knames)
        deltas = disk_deltas(self.last, counters, self.knames, now - self.last_at)
        self.last, self.last_at = counters, now
        return deltas

    def total(self) -> list[DiskDelta]:
        """Deltas from construction to the latest reading."""
        return disk_deltas(self.first, self.last, self.knames, self.last_at - self.first_at)
