"""What a report holds, gathered once from the same objects the screens show (never from printed text)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from diskdoctor.probes.etcd_metrics import discover as discover_etcd_metrics
from diskdoctor.probes.host import Host
from diskdoctor.probes.root import Root
from diskdoctor.probes.trim_facts import TrimFacts

from ..core.advice.advise import advise, load_advice_input
from ..core.advice.saved_runs import mounted_now, saved_runs_input
from ..core.findings.finding import Finding
from ..core.findings.order import in_display_order
from ..core.runs.host_fingerprint import HostFingerprint, host_fingerprint
from ..core.runs.record import SavedRun
from ..core.runs.store import RunListing, RunStore
from ..core.snapshot import read_snapshot
from ..core.trim.doctor import TrimVerdict


@dataclass(frozen=True)
class Report:
    """One host at one moment: fingerprint, stack, TRIM verdicts, findings and the chosen benchmark runs."""

    generated_at: dt.datetime
    fingerprint: HostFingerprint
    host: Host
    verdicts: list[TrimVerdict]
    findings: list[Finding]
    runs: list[SavedRun]
    notes: list[str] = field(default_factory=list)
    """Things the reader should know about how the report was made (skipped run files...)."""
    skipped_runs: int = 0
    """Run files of the runs directory that were skipped (damaged or foreign), named in `notes`."""


def build_report(root: Root, runs: list[SavedRun] | None = None, *, store: RunStore | None = None,
                 listing: RunListing | None = None, host: Host | None = None, trim: TrimFacts | None = None,
                 verdicts: list[TrimVerdict] | None = None, now: dt.datetime | None = None) -> Report:
    """Read the host once (or reuse a loaded snapshot: its Host, TRIM facts and verdicts), pick the runs
    (given, or the newest per filesystem of this host from `listing` or a scan), and run the advisor over
    both. Skipped run files are named in the notes."""
    if host is None or trim is None or verdicts is None:
        snapshot = read_snapshot(root, host=host, trim_facts=trim)
        host, trim = snapshot.host, snapshot.trim_facts
        verdicts = list(snapshot.verdicts) if verdicts is None else verdicts
    saved = saved_runs_input(host.hostname, runs=runs, listing=listing, store=store,  # as the Advice screen
                             mounted=mounted_now(host))
    etcd, etcd_notes = discover_etcd_metrics(root)  # as the Advice screen and `advise` do
    notes = [*saved.notes, *etcd_notes]
    advice = load_advice_input(root, host=host, trim=trim, verdicts=verdicts, bench=saved.bench,
                               etcd_metrics=etcd)
    return Report(now or dt.datetime.now(dt.timezone.utc), host_fingerprint(root, host), host,
                  advice.verdicts, in_display_order(advise(advice)), saved.runs, notes, saved.skipped)
