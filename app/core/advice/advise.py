"""Run every registered rule over one snapshot and order the findings the way every renderer shows them."""

from __future__ import annotations

from dataclasses import replace

from diskdoctor.probes.advice_facts import read_advice_facts
from diskdoctor.probes.etcd_metrics import EtcdMetrics
from diskdoctor.probes.host import Host, natural_key
from diskdoctor.probes.root import Root
from diskdoctor.probes.trim_facts import TrimFacts

from ..bench.context import BenchContext
from ..findings.finding import Finding
from ..findings.order import in_display_order
from ..findings.registry import Scope, run_rules
from ..snapshot import read_snapshot
from ..trim.doctor import TrimVerdict
from ..trim.peak_window import PeakWindow
from . import catalog  # noqa: F401  (registers every rule)
from .contexts import AdviceInput, DeviceContext, FsContext


def load_advice_input(root: Root, *, data_paths: tuple[str, ...] = (), bench: tuple[BenchContext, ...] = (),
                      peak: PeakWindow | None = None, host: Host | None = None,
                      trim: TrimFacts | None = None,
                      verdicts: list[TrimVerdict] | None = None,
                      etcd_metrics: EtcdMetrics | None = None) -> AdviceInput:
    """Read what the rules need (reusing an already-loaded host, TRIM facts and verdicts when given)."""
    if verdicts is None or host is None or trim is None:
        snapshot = read_snapshot(root, peak=peak, host=host, trim_facts=trim)
        host, trim = snapshot.host, snapshot.trim_facts
        verdicts = list(snapshot.verdicts) if verdicts is None else verdicts
    facts = read_advice_facts(root, host, data_paths)
    return AdviceInput(host, trim, facts, list(verdicts), list(bench), etcd_metrics)


def advise(advice: AdviceInput) -> list[Finding]:
    """Every finding for the snapshot: TRIM verdicts' findings, then filesystem, device, host, bench rules."""
    findings = [finding for verdict in advice.verdicts for finding in verdict.findings]
    for mounted in advice.filesystems():
        findings += run_rules(Scope.FILESYSTEM, FsContext(advice, mounted))
    for kname in sorted(advice.host.devices, key=natural_key):
        findings += run_rules(Scope.DEVICE, DeviceContext(advice, advice.host.devices[kname]))
    findings += run_rules(Scope.HOST, advice)
    for result in advice.bench:
        found = run_rules(Scope.BENCH, result)
        findings += [as_history(finding) for finding in found] if result.not_mounted else found
    return findings


NOT_MOUNTED = " (not mounted now)"
"""Said after the title of a finding about a saved run whose filesystem is gone."""


def as_history(finding: Finding) -> Finding:
    """A saved run's finding on a filesystem not mounted now: said so, and listed after the live ones."""
    return replace(finding, title=finding.title + NOT_MOUNTED, history=True)


def advice_document(findings: list[Finding]) -> dict[str, object]:
    """The `diskdoctor advise --json` document: {"findings": [...]} in display order."""
    return {"findings": [finding.to_json() for finding in in_display_order(findings)]}


def fails_check(findings: list[Finding]) -> bool:
    """Whether any finding is warn or crit (advise then exits 1)."""
    return any(finding.severity.fails_check for finding in findings)
