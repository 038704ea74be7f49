"""Turn a Host into tree rows (disks up or mountpoints down) and detail groups for the widgets."""

from __future__ import annotations

from functools import lru_cache

from diskdoctor.probes.blockdev import BlockDevice, scheduler_shown
from diskdoctor.probes.discard_path import discard_reach
from diskdoctor.probes.facts import Fact
from diskdoctor.probes.host import Host, natural_key
from diskdoctor.probes.layer_details import DetailSection
from diskdoctor.widgets import DetailGroup, DetailRow, StackRow
from diskdoctor.widgets.filter_bar import matches

from ..base.formatting import human_bytes, yes_no
from ..core.trim.order import WORST_FIRST
from ..core.trim.summary import MountTrim, mount_trims

DISKS_UP = "disks-up"
MOUNTS_DOWN = "mounts-down"
SEPARATOR = ">"
MOUNT_PREFIX = "mount:"


def verdict_text(verdict: str, trim_verdict: str | None = None) -> str:
    """TRIM column text for a mountpoint row in the TRIM screen's words and case: its verdict once it is
    read (a path that reaches the disk but is never trimmed says UNSCHEDULED, as there); before, what the
    discard path alone settles (BLOCKED, UNSUPPORTED, UNKNOWN), or "?" while a schedule is still unread."""
    if trim_verdict is not None:
        return trim_verdict.upper()
    if verdict in ("blocked", "unsupported", "unknown"):
        return verdict.upper()
    return "?"


def device_extra(device: BlockDevice) -> tuple[str, str, str, str]:
    """ROTA (yes/no, as `diskdoctor devices` and the TRIM column say it), SCHED, DISC-MAX and DISC-GRAN as
    lsblk prints them, never a blank cell: SCHED `none` for a bio-based device (zram, md), whose sysfs says
    it has no scheduler (an empty or, on 6.x, no queue/scheduler), and "-" only where the value is unknown
    (no queue/ at all on old kernels, a file missing from a capture)."""
    rota = device.rotational.value
    return ("-" if rota is None else yes_no(rota), scheduler_shown(device),
            _lsblk_bytes(device.discard_max_bytes.value), _lsblk_bytes(device.discard_granularity.value))


@lru_cache(maxsize=4096)
def _size(value: int | None) -> str:
    """`human_bytes`, remembered: a big host repeats a few sizes over thousands of rows (the SIZE,
    DISC-MAX and DISC-GRAN of 3,000 rows were a third of making them)."""
    return human_bytes(value)


def _lsblk_bytes(value: int | None) -> str:
    """0B, 512B, 4K, 4G: lsblk's short sizes."""
    return "-" if value is None else "0B" if value == 0 else _size(value)


class StackView:
    """Rows for the tree in either direction; keys are paths so a shared device has unique rows."""

    def __init__(self, host: Host, mode: str = DISKS_UP, trim_verdicts: dict[str, str] | None = None) -> None:
        self.host = host
        self.mode = mode
        self.trim_verdicts = trim_verdicts or {}
        """The TRIM screen's verdict word by mountpoint, worst first (empty until the TRIM facts are read)."""
        self.filter_text = ""
        """Only the rows that match (`/` on the Stack screen), the rows they rest on and the rows on them
        (`_kept`); the rows that match themselves carry the filter's words (`StackRow.marks`)."""
        self._counts: tuple[int, int] | None = None
        self._reaches: dict[tuple[str, bool], bool] = {}
        self._trims: dict[str, MountTrim] | None = None

    def _own_match(self, kname: str) -> bool:
        """Whether the device itself (its name, kernel name, type, filesystem or a mountpoint) matches."""
        device = self.host.devices[kname]
        return matches(self.filter_text, device.name, kname, device.kind, device.fstype.value or "",
                       " ".join(self.host.mountpoints(kname)))

    def _marks(self, found: bool) -> tuple[str, ...]:
        """The filter's words for a row that matches it itself (drawn marked), none for a row kept only
        because something in its stack matches."""
        return tuple(self.filter_text.split()) if found and self.filter_text else ()

    def _device_matches(self, kname: str, seen: set[str], down: bool) -> bool:
        """Whether `kname` or any device above it (below it when `down`) matches the filter (remembered per
        filter: every row of the tree asks it of the rows under it)."""
        if kname in seen or kname not in self.host.devices:
            return False
        known = self._reaches.get((kname, down))
        if known is not None:
            return known
        seen.add(kname)
        nexts = self.host.parents(kname) if down else self.host.children(kname)
        found = self._own_match(kname) or any(self._device_matches(k, seen, down) for k in nexts)
        self._reaches[(kname, down)] = found
        return found

    def _mount_match(self, mountpoint: str) -> bool:
        """Whether a mountpoint row itself matches the filter (its path, its device's type, its filesystem
        type or its TRIM word: what the row shows)."""
        trims = self._mount_trims()
        trim = trims.get(mountpoint)
        if trim is None:
            return False
        word = verdict_text(trim.reach.verdict, self.trim_verdicts.get(mountpoint))
        kind = self.host.devices[trim.kname].kind if trim.kname in self.host.devices else ""
        return matches(self.filter_text, mountpoint, kind, trim.fstype, word)

    def _mount_trims(self) -> dict[str, MountTrim]:
        """Every mounted filesystem's TRIM reach by mountpoint, read once per view."""
        if self._trims is None:
            self._trims = {trim.mountpoint: trim for trim in mount_trims(self.host)}
        return self._trims

    def _under_match(self, key: str) -> bool:
        """Whether the row `key` or a row above it matches the filter itself: the rows under it are then
        its stack (what sits on a matching device, or what a matching mountpoint rests on), kept whole."""
        for part in key.split(SEPARATOR):
            if part.startswith(MOUNT_PREFIX):
                if self._mount_match(part[len(MOUNT_PREFIX):]):
                    return True
            elif part in self.host.devices and self._own_match(part):
                return True
        return False

    def _kept(self, rows: list[StackRow]) -> list[StackRow]:
        """The rows a filter keeps, at any level: a row that matches, a row with a match under it (the
        parents of a match, so no match shows without them), and everything under a match; siblings kept
        for nothing else are left out, as k9s and lazygit leave out what does not match."""
        if not self.filter_text:
            return rows
        down = self.mode == MOUNTS_DOWN
        kept = []
        for row in rows:
            if row.key.startswith(MOUNT_PREFIX) and SEPARATOR not in row.key:
                mounted = self.host.mount_for_path(row.key[len(MOUNT_PREFIX):])
                found = bool(row.marks) or bool(
                    mounted and mounted.kname and self._device_matches(mounted.kname, set(), True))
            else:
                found = self._device_matches(row.key.rsplit(SEPARATOR, 1)[-1], set(), down)
            if found:
                kept.append(row)
        return kept

    def device_row(self, key: str, kname: str, has_children: bool) -> StackRow:
        """A row for one device; under a mountpoint row its mountpoints leave out that one (the row's
        own name at the top of the view, not worth a column)."""
        device = self.host.devices[kname]
        named = key.split(SEPARATOR, 1)[0][len(MOUNT_PREFIX):] if key.startswith(MOUNT_PREFIX) else None
        mounts = [point for point in self.host.mountpoints(kname) if point != named]
        return StackRow(key=key, name=device.name, kind=device.kind,
                        size=_size(device.size_bytes.value),
                        trim=yes_no(device.accepts_discard), fstype=device.fstype.value or "",
                        mounts=" ".join(mounts), has_children=has_children,
                        extra=device_extra(device),
                        marks=self._marks(bool(self.filter_text) and self._own_match(kname)))

    def mount_row(self, trim: MountTrim) -> StackRow:
        """A row for a mountpoint at the top of the mounts-down view (its device is the row beneath it
        and the details' title, so its MOUNTPOINTS cell stays empty and the names get the room). TYPE is
        its device's layer type, as lsblk's TYPE and the disks-up view say it (`crypt`, `lvm`, `part`),
        FSTYPE the filesystem: TYPE repeated `ext4` from FSTYPE (newuser15)."""
        device = self.host.devices[trim.kname]
        trim_word = verdict_text(trim.reach.verdict, self.trim_verdicts.get(trim.mountpoint))
        found = bool(self.filter_text) and self._mount_match(trim.mountpoint)
        return StackRow(key=MOUNT_PREFIX + trim.mountpoint, name=trim.mountpoint, kind=device.kind,
                        size=human_bytes(device.size_bytes.value), trim=trim_word, fstype=trim.fstype,
                        mounts="", has_children=True, emphasis="bold cyan",
                        extra=device_extra(device),  # its device's, as its size is: no blank cell
                        marks=self._marks(found))

    def children(self, key: str | None) -> list[StackRow]:
        """Rows under `key` (None for the top level); with a filter, those it keeps (`_kept`)."""
        if self.mode == MOUNTS_DOWN:
            rows = self._down_children(key)
        elif key is None:
            rows = [self.device_row(k, k, bool(self.host.children(k))) for k in self.host.roots()]
        else:
            kname = key.rsplit(SEPARATOR, 1)[-1]
            rows = [self.device_row(f"{key}{SEPARATOR}{child}", child, bool(self.host.children(child)))
                    for child in self.host.children(kname)]
        if not self.filter_text or (key is not None and self._under_match(key)):
            return rows
        return self._kept(rows)

    def _worst_first(self, trims: list[MountTrim]) -> list[MountTrim]:
        """Mountpoints in the TRIM screen's order (`trim_verdicts` is in it); before the TRIM facts are
        read, by what the discard path alone settles, then by path."""
        placed = {point: index for index, point in enumerate(self.trim_verdicts)}
        return sorted(trims, key=lambda trim: (
            (0, placed[trim.mountpoint], []) if trim.mountpoint in placed else
            (1, WORST_FIRST.get(trim.reach.verdict, len(WORST_FIRST)), natural_key(trim.mountpoint))))

    def _down_children(self, key: str | None) -> list[StackRow]:
        if key is None:
            return [self.mount_row(trim) for trim in self._worst_first(mount_trims(self.host))]
        if key.startswith(MOUNT_PREFIX) and SEPARATOR not in key:
            mounted = self.host.mount_for_path(key[len(MOUNT_PREFIX):])
            below = [mounted.kname] if mounted and mounted.kname else []
        else:
            below = self.host.parents(key.rsplit(SEPARATOR, 1)[-1])
        return [self.device_row(f"{key}{SEPARATOR}{k}", k, bool(self.host.parents(k)))
                for k in below]

    @staticmethod
    def ancestor_keys(key: str) -> list[str]:
        """Keys of the rows from the top level down to `key` (keys are paths)."""
        parts = key.split(SEPARATOR)
        return [SEPARATOR.join(parts[: index + 1]) for index in range(len(parts))]

    def key_for(self, kname: str) -> str | None:
        """The key of a row showing `kname` in this view (the first path found, in the order the rows are
        shown: the topmost row), to keep a selection."""
        if kname not in self.host.devices:
            return None
        if self.mode == DISKS_UP:
            path = [kname]
            while self.host.parents(path[-1]) and len(path) <= len(self.host.devices):
                path.append(self.host.parents(path[-1])[0])
            return SEPARATOR.join(reversed(path))
        for trim in self._worst_first(mount_trims(self.host)):
            found = self._path_down(trim.kname, kname, set())
            if found is not None:
                return SEPARATOR.join([MOUNT_PREFIX + trim.mountpoint, *found])
        return None

    def _path_down(self, start: str, wanted: str, seen: set[str]) -> list[str] | None:
        if start == wanted:
            return [start]
        if start in seen:
            return None
        seen.add(start)
        for below in self.host.parents(start):
            found = self._path_down(below, wanted, seen)
            if found is not None:
                return [start, *found]
        return None

    def mountpoint_of(self, key: str) -> str | None:
        """The mountpoint a row stands for or whose device is mounted, for "benchmark this filesystem"."""
        if key.startswith(MOUNT_PREFIX) and SEPARATOR not in key:
            return key[len(MOUNT_PREFIX):]
        kname = key.rsplit(SEPARATOR, 1)[-1]
        points = [point for point in self.host.mountpoints(kname) if point.startswith("/")]
        return points[0] if points else None

    def shown_devices(self) -> int:
        """How many devices the tree holds with the filter applied (each once, however often it shows)."""
        return self.counts()[0]

    def counts(self) -> tuple[int, int]:
        """How many devices the tree holds with the filter applied, and how many of them match it
        themselves (each once, however often it shows; a mountpoint row counts for its device); the rest
        are there for their stacks. Counted once per filter."""
        if self._counts is not None:
            return self._counts
        seen: set[str] = set()
        matched: set[str] = set()
        rows = list(self.children(None))
        while rows:
            row = rows.pop()
            kname = self.kname_of(row.key)
            if kname is None:
                continue
            seen.add(kname)
            if row.marks:
                matched.add(kname)
            if row.has_children:
                rows.extend(self.children(row.key))
        self._counts = (len(seen), len(matched))
        return self._counts

    def kname_of(self, key: str) -> str | None:
        """The device a row stands for (a mountpoint row stands for the device it is on)."""
        if key.startswith(MOUNT_PREFIX) and SEPARATOR not in key:
            mounted = self.host.mount_for_path(key[len(MOUNT_PREFIX):])
            return mounted.kname if mounted else None
        return key.rsplit(SEPARATOR, 1)[-1]


def format_fact(label: str, fact: Fact) -> str:
    """A fact's value for display, or "unknown: <why>"."""
    if fact.value is None:
        return f"unknown: {fact.why_unknown}" if fact.why_unknown else "unknown"
    value = fact.value
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) and ("bytes" in label or label == "discard_granularity"):
        return f"{value:,} ({human_bytes(value)})" if value >= 1024 else str(value)
    return str(value)


def detail_groups(sections: list[DetailSection]) -> list[DetailGroup]:
    """Probe detail sections as widget groups."""
    return [DetailGroup(section.title, tuple(
        DetailRow(d.label, format_fact(d.label, d.fact), d.fact.source, d.note or "",
                  d.fact.value is not None) for d in section.details))
        for section in sections]


def trim_group(host: Host, kname: str, trim_summary: str | None = None) -> DetailGroup:
    """The discard walk under a device as a details group; its first row is the TRIM screen's verdict
    (`trim_summary`) for a device a filesystem is mounted on, else where discard passes down to."""
    reach = discard_reach(host, kname)
    source = "queue/discard_max_bytes of every layer"
    if trim_summary:
        source = "the TRIM screen: discard_max_bytes of every layer, mount options, fstrim.timer and cron"
    rows = [DetailRow("verdict", trim_summary or reach.summary, source,
                      known=reach.verdict != "unknown")]
    for layer in reach.layers:
        accepts = yes_no(layer.accepts)
        value = f"{accepts} (discard_max_bytes {human_bytes(layer.discard_max_bytes)})"
        note = "first layer that drops discard" if layer.kname == reach.blocked_at else ""
        rows.append(DetailRow(f"{layer.name} ({layer.kind})", value, layer.source, note))
    return DetailGroup("TRIM (discard) path", tuple(rows))
