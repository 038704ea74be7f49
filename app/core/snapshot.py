"""The one gather: read the host, then its TRIM facts, then the TRIM verdicts, once per snapshot.

The TUI, every CLI command, the advisor, the report and the walkthroughs take their host, TRIM facts
and verdicts from `read_snapshot`, so the sequence is written once and a host is read once per snapshot."""

from __future__ import annotations

from dataclasses import dataclass

from diskdoctor.probes import host as host_probe
from diskdoctor.probes import trim_facts as trim_probe
from diskdoctor.probes.host import Host
from diskdoctor.probes.root import Root
from diskdoctor.probes.trim_facts import TrimFacts

from .trim.doctor import TrimVerdict, diagnose
from .trim.peak_window import PeakWindow


@dataclass(frozen=True)
class Snapshot:
    """One reading of a root: the Host, its TRIM facts, and the TRIM verdict per filesystem."""

    host: Host
    trim_facts: TrimFacts
    verdicts: tuple[TrimVerdict, ...]
    peak: PeakWindow | None = None


def read_snapshot(root: Root, *, peak: PeakWindow | None = None, host: Host | None = None,
                  trim_facts: TrimFacts | None = None) -> Snapshot:
    """Read `root`'s host, its TRIM facts and judge them; a host or TRIM facts already read for this
    snapshot (the TUI draws the host before the slower TRIM facts are in) are reused, not read again."""
    host = host or host_probe.read_host(root)  # looked up at call time: a test's stand-in never sticks
    trim_facts = trim_facts or trim_probe.read_trim_facts(root, host)
    return Snapshot(host, trim_facts, tuple(diagnose(host, trim_facts, peak)), peak)
