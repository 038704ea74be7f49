"""The page cache's dirty bytes: written by processes, not yet on any device (/proc/meminfo, /proc/sys/vm).

A process's write_bytes (/proc/PID/io) counts a buffered write when it dirties the page cache; the devices
see those bytes only at writeback (the kernel's flusher threads, once a page has been dirty
dirty_expire_centisecs, or sooner past the background threshold). So a process can "write 57 MB/s" while
no device shows it: Dirty grows instead. This reading says so with figures.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .root import Root

MEMINFO = "proc/meminfo"
DIRTY_EXPIRE = "proc/sys/vm/dirty_expire_centisecs"
MEMINFO_BYTES = 16_384
"""/proc/meminfo is about 1.5 KiB; a capture's bigger one is not a real meminfo."""


@dataclass(frozen=True, slots=True)
class PageCache:
    """Bytes dirty in the page cache and under writeback now, and how old a dirty page gets before the
    flusher writes it (None when the file is missing)."""

    dirty_bytes: int
    writeback_bytes: int
    expire_s: float | None
    dirty_growth_s: float | None = None
    """How fast Dirty grew since the last reading (bytes/s; negative when it shrank; None on the first)."""

    def since(self, before: PageCache | None, seconds: float | None) -> PageCache:
        """This reading with Dirty's growth per second since `before`."""
        if before is None or not seconds or seconds <= 0:
            return self
        return replace(self, dirty_growth_s=(self.dirty_bytes - before.dirty_bytes) / seconds)

    def to_json(self) -> dict[str, object]:
        """The `page_cache` object of `monitor --json-lines`."""
        return {"dirty_bytes": self.dirty_bytes, "writeback_bytes": self.writeback_bytes,
                "dirty_expire_s": self.expire_s, "dirty_growth_bytes_s": self.dirty_growth_s}


def parse_meminfo_kib(text: str, names: tuple[str, ...]) -> dict[str, int]:
    """`names`' values in bytes from meminfo's "Dirty:   1234 kB" lines (a name missing is left out)."""
    found: dict[str, int] = {}
    for line in text.splitlines():
        name, _, rest = line.partition(":")
        fields = rest.split()
        if name in names and fields and fields[0].isdigit():
            found[name] = int(fields[0]) * (1024 if fields[1:2] == ["kB"] else 1)
    return found


def read_page_cache(root: Root) -> PageCache | None:
    """The dirty and writeback bytes now (None when /proc/meminfo is unreadable or has neither)."""
    data, _ = root.read_bytes(MEMINFO, MEMINFO_BYTES)
    if data is None:
        return None
    found = parse_meminfo_kib(data.decode("ascii", "replace"), ("Dirty", "Writeback"))
    if "Dirty" not in found:
        return None
    expire, _ = root.read_attr(DIRTY_EXPIRE)
    expire_s = int(expire) / 100 if expire is not None and expire.isdigit() else None
    return PageCache(found["Dirty"], found.get("Writeback", 0), expire_s)
