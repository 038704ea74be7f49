"""The findings registry: every rule carries its metadata, ids are unique, findings use the typed words."""

from __future__ import annotations

import json
from pathlib import Path

from diskdoctor.app.core.advice.advise import advice_document, advise, load_advice_input
from diskdoctor.app.core.findings import registry
from diskdoctor.app.core.findings.finding import Evidence, Finding
from diskdoctor.app.core.findings.vocabulary import Severity, TrimOutcome
from diskdoctor.app.core.trim.doctor import diagnose
from diskdoctor.probes.host import read_host
from diskdoctor.probes.root import Root
from diskdoctor.probes.trim_facts import read_trim_facts

FIXTURES = Path(__file__).parent / "fixtures"
CATALOG = {"NOBARRIER", "DATA-JOURNAL", "COMMIT-LONG", "ATIME", "BTRFS-AUTODEFRAG-DB", "BTRFS-COMPRESS-RATIO",
           "SCHED-NVME", "SCHED-HDD", "ROTA-VIRT", "WCACHE-OFF", "WCACHE-NO-FUA", "RA-HIGH", "PART-ALIGN",
           "STRIPE-XFS", "STRIPE-EXT4", "SWAP-SHARED", "SATA-LINK", "NVME-APST", "CRYPT-WORKQUEUE",
           "CEPH-ROCKSDB-BUILD", "ETCD-FSYNC-P99", "WAL-COMPACTION-P99", "TRIM-CRYPT-OFF",
           "TRIM-LAYER-BLOCKED", "TRIM-THIN-IGNORE", "TRIM-NO-SCHEDULE", "DISCARD-ONLINE-XFS",
           "DISCARD-ONLINE", "TRIM-LVM-MYTH", "WCACHE-SYSFS-TOGGLED", "TRIM-LONG", "ETCD-COMMIT-P99",
           "FIO-VERSION", "SATA-ALPM"}


def test_every_rule_has_metadata_and_unique_ids() -> None:
    rules = registry.all_rules()
    ids = [rule_id for rule in rules for rule_id in rule.ids]
    assert len(ids) == len(set(ids))
    assert set(ids) >= CATALOG
    for rule in rules:
        assert rule.checks and rule.sources and isinstance(rule.severity, Severity), rule.name
        assert rule.run.__doc__, rule.name
    assert registry.rule_for_id("DISCARD-ONLINE").name == "continuous_discard"


def test_the_trim_doctor_runs_the_registry_trim_rules() -> None:
    root = Root(str(FIXTURES / "lab-ssd"), live=False)
    host = read_host(root)
    verdicts = diagnose(host, read_trim_facts(root, host))
    trim_ids = {rule_id for rule in registry.rules_for(registry.Scope.TRIM) for rule_id in rule.ids}
    assert all(isinstance(v.verdict, TrimOutcome) for v in verdicts)
    assert {f.id for v in verdicts for f in v.findings} <= trim_ids


def test_findings_come_from_the_rule_that_declares_them() -> None:
    for name in ("lab-ssd", "etcd-raid0-lvm-luks", "sata-ext4", "captured-loops"):
        found = advise(load_advice_input(Root(str(FIXTURES / name), live=False)))
        for finding in found:
            owner = registry.rule_for_id(finding.id)
            assert owner is not None, finding.id
            assert finding.severity.rank >= owner.severity.rank or finding.id.startswith("TRIM-"), finding.id
            assert finding.subject and finding.title
            assert all(isinstance(e, Evidence) and e.source for e in finding.evidence), finding.id


def test_json_shape_of_one_finding() -> None:
    finding = Finding("NOBARRIER", Severity.CRIT, "/data", "no barriers",
                      (Evidence("mount options", "rw,nobarrier", "/proc/self/mountinfo (/data)"),),
                      "why", ("mount -o remount,barrier /data",), "risk", ("findmnt",))
    document = json.loads(json.dumps(advice_document([finding])))
    assert document == {"findings": [{
        "id": "NOBARRIER", "severity": "crit", "subject": "/data", "title": "no barriers",
        "evidence": [{"what": "mount options", "value": "rw,nobarrier",
                      "source": "/proc/self/mountinfo (/data)"}],
        "why": "why", "fix": ["mount -o remount,barrier /data"], "risk": "risk", "verify": ["findmnt"]}]}
    assert str(Severity.CRIT) == "crit" and f"{Severity.WARN}" == "warn" and Severity.WARN == "warn"
