"""The live per-layer I/O monitor's model: every device's rates each tick, grouped so one filesystem's
path reads top to bottom, with the saturated layer named, CPU iowait/steal and who does the I/O.

Rates come from the one diskstats model (diskstats.py); this module only decides the layout, keeps the
previous reading, and notices devices that appeared or vanished (the sysfs re-read that works without
udev). On a capture there is one reading: the counters are shown and the rates need the live host.
"""

from __future__ import annotations

import datetime as dt
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import psutil

from .diskstats import DiskCounters, DiskDelta, DiskstatsParser, deltas_since, read_counters
from .host import SWAP_MOUNTPOINT, Host, natural_key, read_host
from .host_load import cpu_shares
from .mountinfo import MOUNTINFO
from .page_cache import PageCache, read_page_cache
from .process_io import ProcessIoSampler, ProcessRates
from .root import Root

SATURATED_UTIL = 0.9
"""A layer busy 90% of the interval or more is saturated (iostat's %util; on SSDs and stacked devices
that serve requests in parallel it is a hint, not a proof: the wait times tell the rest)."""
CAPTURE_NOTE = ("a capture holds one reading of the counters: live rates need the live host "
                "(diskdoctor monitor on that host)")
OTHER_TITLE = "no filesystem"
PROCESS_TOP = 20
"""The busiest processes named each tick (a tall pane lists them all; only these have their names read)."""
RESCAN_EVERY_S = 10.0
"""Without hotplug events, the stack is also re-read this often (a loop device attached in place keeps
its line in /proc/diskstats, so only sysfs shows it)."""


@dataclass(frozen=True, slots=True)
class MonitorRow:
    """One device's place in the layout: its depth under the group's top layer."""

    kname: str
    name: str
    kind: str
    depth: int


@dataclass(frozen=True)
class MonitorGroup:
    """One filesystem's path from its device down to the disks (or the devices under no filesystem)."""

    key: str
    title: str
    rows: tuple[MonitorRow, ...]


def _path_down(host: Host, kname: str) -> list[tuple[str, int]]:
    """`kname` and every device under it, top-down (breadth-first), each with its depth."""
    order, queue, seen = [], [(kname, 0)], {kname}
    while queue:
        current, depth = queue.pop(0)
        order.append((current, depth))
        for parent in host.parents(current):
            if parent not in seen:
                seen.add(parent)
                queue.append((parent, depth + 1))
    return order


def _row(host: Host, kname: str, depth: int) -> MonitorRow:
    device = host.devices.get(kname)
    return MonitorRow(kname, device.name if device else kname, device.kind if device else "?", depth)


def monitor_layout(host: Host, present: set[str] | None = None) -> list[MonitorGroup]:
    """A group per mounted filesystem (and swap) from its device down, then devices under none of them."""
    tops: dict[str, list[str]] = {}
    for mounted in host.block_mounts():
        tops.setdefault(mounted.kname or "", []).append(mounted.mount.mountpoint)
    for kname in host.devices:
        if SWAP_MOUNTPOINT in host.mountpoints(kname):
            tops.setdefault(kname, []).append(SWAP_MOUNTPOINT)
    groups, covered = [], set()
    for kname, points in sorted(tops.items(), key=lambda item: natural_key(item[1][0])):
        if kname not in host.devices:
            continue
        fstype = host.devices[kname].fstype.value
        title = ", ".join(points) + (f" ({fstype})" if fstype and points != [SWAP_MOUNTPOINT] else "")
        path = _path_down(host, kname)
        covered.update(k for k, _ in path)
        groups.append(MonitorGroup(points[0], title, tuple(_row(host, k, d) for k, d in path)))
    others = set(host.devices) - covered  # the Host leaves out unattached loops and RAM disks, as lsblk
    if present is not None:
        others &= present
    if others:
        rows = tuple(_row(host, kname, 0) for kname in sorted(others, key=natural_key))
        groups.append(MonitorGroup("", OTHER_TITLE, rows))
    return groups


@dataclass(slots=True)
class LayerSample:
    """One layer in one group at one tick: its counters, the delta since the last tick (None on the first
    reading or a capture), and whether it is the group's saturated layer. Not frozen: a tick builds one
    per device (5,000 on a big host) and a frozen class's __init__ costs several times a plain one's;
    nothing changes a sample after the tick built it."""

    row: MonitorRow
    counters: DiskCounters | None
    delta: DiskDelta | None
    saturated: bool = False

    def to_json(self) -> dict[str, object]:
        """A `layers[]` entry of `monitor --json-lines` (rates per second; null when unknown)."""
        data: dict[str, object] = {"kname": self.row.kname, "name": self.row.name, "type": self.row.kind,
                                   "depth": self.row.depth, "saturated": self.saturated}
        delta = self.delta
        if delta is not None:
            def rate(value: int | None, scale: float = 1.0) -> float | None:
                per_s = delta.rate(value)
                return None if per_s is None else round(per_s / scale, 3)

            def ms(value: float | None) -> float | None:
                return None if value is None else round(value, 3)

            data.update({
                "r_s": rate(delta.reads), "w_s": rate(delta.writes), "d_s": rate(delta.discards),
                "f_s": rate(delta.flushes), "rmb_s": rate(delta.read_bytes, 1e6),
                "wmb_s": rate(delta.write_bytes, 1e6), "dmb_s": rate(delta.discard_bytes, 1e6),
                "r_await_ms": ms(delta.read_await_ms), "w_await_ms": ms(delta.write_await_ms),
                "d_await_ms": ms(discard_await_ms(delta)), "f_await_ms": ms(delta.flush_await_ms),
                "in_flight": delta.in_flight, "util": ms(delta.util)})
        if self.counters is not None:
            data["counters"] = {name: getattr(self.counters, name) for name in self.counters.__slots__
                                if name != "kname"}
        return data


def discard_await_ms(delta: DiskDelta) -> float | None:
    """Average milliseconds per completed discard (None before Linux 4.18 or without discards)."""
    if delta.discard_ms is None or not delta.discards:
        return None
    return delta.discard_ms / delta.discards


@dataclass(frozen=True)
class GroupSample:
    """One group at one tick, top layer first."""

    group: MonitorGroup
    layers: tuple[LayerSample, ...]

    @property
    def saturated(self) -> LayerSample | None:
        """The group's saturated layer, if any."""
        return next((layer for layer in self.layers if layer.saturated), None)


@dataclass(frozen=True)
class CpuSample:
    """Shares (0-1) of all CPU time over the interval: busy, waiting for I/O, stolen by the hypervisor."""

    busy: float
    iowait: float
    steal: float

    def to_json(self) -> dict[str, float]:
        """The `cpu` object of `monitor --json-lines`."""
        return {"busy": round(self.busy, 4), "iowait": round(self.iowait, 4), "steal": round(self.steal, 4)}


@dataclass(frozen=True)
class MonitorSample:
    """Everything one tick of the monitor shows."""

    taken_at: dt.datetime
    seconds: float | None
    """Length of the interval the rates cover; None on the first reading and on a capture."""
    live: bool
    groups: tuple[GroupSample, ...]
    appeared: tuple[str, ...] = ()
    vanished: tuple[str, ...] = ()
    cpu: CpuSample | None = None
    processes: ProcessRates | None = None
    note: str | None = None
    """Why rates or processes are missing (a capture, the first reading)."""
    late_ticks: int = 0
    page_cache: PageCache | None = None
    """The dirty bytes not yet written back, read with the processes (their writes land there first)."""

    def layers(self) -> list[LayerSample]:
        """Every device once (its first appearance in the layout)."""
        seen: dict[str, LayerSample] = {}
        for group in self.groups:
            for layer in group.layers:
                seen.setdefault(layer.row.kname, layer)
        return list(seen.values())

    def busiest(self) -> LayerSample | None:
        """The device busiest over the interval (highest utilisation), None without rates."""
        rated = [layer for layer in self.layers() if layer.delta is not None and layer.delta.util is not None]
        return max(rated, key=lambda layer: layer.delta.util or 0.0, default=None)  # type: ignore[union-attr]

    def to_json(self) -> dict[str, object]:
        """One line of `monitor --json-lines` (docs/schemas/monitor.schema.json)."""
        return {
            "time": self.taken_at.isoformat(timespec="seconds"), "interval_s": self.seconds,
            "live": self.live, "note": self.note, "late_ticks": self.late_ticks,
            "groups": [{"title": g.group.title, "mountpoint": g.group.key or None,
                        "saturated": g.saturated.row.kname if g.saturated else None,
                        "layers": [layer.to_json() for layer in g.layers]} for g in self.groups],
            "appeared": list(self.appeared), "vanished": list(self.vanished),
            "cpu": self.cpu.to_json() if self.cpu else None,
            "processes": [p.to_json() for p in self.processes.top] if self.processes else None,
            "processes_note": (self.processes.denied_note if self.processes else
                               None if self.live else "per-process I/O needs the live host")}


def _group_sample(group: MonitorGroup, counters: dict[str, DiskCounters],
                  deltas: dict[str, DiskDelta]) -> GroupSample:
    """The group's layers with the saturated one marked (the busiest at or over SATURATED_UTIL)."""
    busiest, busiest_util = None, SATURATED_UTIL
    for row in group.rows:
        delta = deltas.get(row.kname)
        if delta is not None and delta.io_ticks_ms:  # an idle layer (no busy time) is never saturated
            util = delta.util
            if util is not None and util >= busiest_util:
                busiest, busiest_util = row.kname, util
    return GroupSample(group, tuple([
        LayerSample(row, counters.get(row.kname), deltas.get(row.kname), row.kname == busiest)
        for row in group.rows]))


class IoMonitor:
    """Takes one reading per `poll()`; rates are since the previous poll. `request_rescan()` (from a
    hotplug event, any thread) makes the next poll read the stack again; a device appearing in or
    vanishing from /proc/diskstats does the same without udev."""

    def __init__(self, root: Root, *, clock: Callable[[], float] = time.monotonic,
                 processes: bool = True, rates: bool | None = None,
                 rescan_every: float | None = RESCAN_EVERY_S) -> None:
        self.root, self._clock = root, clock
        self.rescan_every = rescan_every
        """Seconds between full re-reads of the stack; None when hotplug events (and a changed set of
        devices or mounts, noticed every poll) are trusted to say when (a full read costs ~0.2 s at
        5,000 devices)."""
        self.sample_processes = True
        """Whether the per-process I/O is wanted (a UI clears it while its pane is hidden: walking /proc
        is most of an idle tick); the next wanted poll starts a fresh baseline."""
        self._processes_stale = False
        self._mounts: bytes | None = None
        self._parser = DiskstatsParser()
        self.rates = root.live if rates is None else rates
        """Whether successive polls give rates (the live host; a test's changing capture files too)."""
        self._scanned_at = -RESCAN_EVERY_S
        self.host: Host | None = None
        self.layout: list[MonitorGroup] = []
        self._last: dict[str, DiskCounters] | None = None
        self._last_at = 0.0
        self._rescan = threading.Event()
        self._cpu = psutil.cpu_times() if root.live else None
        self._processes = ProcessIoSampler({os.getpid()}) if root.live and processes else None
        self._page_cache: PageCache | None = None

    def request_rescan(self) -> None:
        """Read the stack again at the next poll (safe from any thread)."""
        self._rescan.set()

    def _read(self) -> dict[str, DiskCounters]:
        counters = read_counters(self.root, parser=self._parser)
        if self.host is not None:
            missing = [k for k in self.host.devices if k not in counters]
            if missing and not self.root.live:  # a capture without proc/diskstats: sys/block/X/stat
                counters.update(read_counters(self.root, missing))
        return counters

    def poll(self, late_ticks: int = 0) -> MonitorSample:
        """Read every counter now and return the tick (rates need a previous live reading)."""
        now, counters = self._clock(), self._read()
        previous = self._last
        present = set(counters)
        changed = previous is not None and present != set(previous)
        stale = self.rescan_every is not None and now - self._scanned_at >= self.rescan_every
        if self.rescan_every is None:
            mounts, _ = self.root.read_bytes(MOUNTINFO)
            changed = changed or (self._mounts is not None and mounts != self._mounts)
            self._mounts = mounts
        if self.host is None or changed or stale or self._rescan.is_set():
            self._rescan.clear()
            self._scanned_at = now
            self.host = read_host(self.root)
            if not counters:
                counters = read_counters(self.root, list(self.host.devices))
                present = set(counters)
            self.layout = monitor_layout(self.host, present)
        seconds = now - self._last_at if previous is not None and self.rates else None
        deltas = {} if previous is None or not seconds else deltas_since(previous, counters, seconds)
        self._last, self._last_at = counters, now
        groups = tuple(_group_sample(group, counters, deltas) for group in self.layout)
        appeared = tuple(sorted(present - set(previous), key=natural_key)) if previous is not None else ()
        vanished = tuple(sorted(set(previous) - present, key=natural_key)) if previous is not None else ()
        cpu = self._cpu_sample() if seconds else None
        processes = self._process_sample(seconds)
        page_cache = self._page_cache_sample(seconds) if processes is not None else None
        note = CAPTURE_NOTE if not self.rates else (
            "first reading: rates follow at the next tick" if previous is None else None)
        return MonitorSample(dt.datetime.now().astimezone(), seconds, self.rates, groups, appeared,
                             vanished, cpu, processes, note, late_ticks, page_cache)

    def _process_sample(self, seconds: float | None) -> ProcessRates | None:
        """The processes' rates when wanted; after a gap the counters are read again as a new baseline."""
        if self._processes is None or not seconds or not self.sample_processes:
            self._processes_stale = self._processes is not None
            return None
        if self._processes_stale:
            self._processes_stale = False
            self._processes.restart()
            self._page_cache = read_page_cache(self.root)  # the baseline of Dirty's growth too
            return None
        return self._processes.sample(seconds, limit=PROCESS_TOP)

    def _page_cache_sample(self, seconds: float | None) -> PageCache | None:
        """The dirty bytes now, with their growth since the last reading (one reading after a gap)."""
        cache = read_page_cache(self.root)
        before, self._page_cache = self._page_cache, cache
        return cache.since(before, seconds) if cache is not None else None

    def _cpu_sample(self) -> CpuSample | None:
        if self._cpu is None:
            return None
        before, self._cpu = self._cpu, psutil.cpu_times()
        shares = cpu_shares(before, self._cpu)
        return CpuSample(shares["busy"], shares.get("iowait", 0.0), shares.get("steal", 0.0))


class TickSchedule:
    """Deadlines every `interval` seconds for a poll loop; a poll that overran skips the ticks it missed
    (and counts them) instead of queueing them, so one poll is in flight at a time and never piles up."""

    def __init__(self, interval: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval, self._clock = interval, clock
        self.next = clock() + interval

    def wait_s(self) -> float:
        """Seconds until the next tick is due (0 when it already is)."""
        return max(self.next - self._clock(), 0.0)

    def advance(self) -> int:
        """Move to the next tick after a poll; returns how many ticks passed during it (skipped)."""
        now, skipped = self._clock(), 0
        self.next += self.interval
        while self.next <= now:
            self.next += self.interval
            skipped += 1
        return skipped
