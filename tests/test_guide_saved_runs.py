"""A walkthrough's findings about a stack are the Advice screen's for it: saved runs' findings included."""

from __future__ import annotations

from pathlib import Path

from conftest import fixture_root
from diskdoctor.app.core.runs.store import RunStore
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.guides.common_steps import findings_text, stack_findings
from diskdoctor.app.tui.guides.quick_bench import QuickSizes
from diskdoctor.app.tui.guides.steps import GuideContext
from support.runs_support import saved_run
from test_tui_layout import open_advice

FIXTURE = "etcd-raid0-lvm-luks"
"""Its hostname is etcd-2, the host the saved test runs were taken on; /var/lib/etcd is mounted there."""


def etcd_findings() -> tuple[GuideContext, list]:  # type: ignore[type-arg]
    ctx = GuideContext(fixture_root(FIXTURE), QuickSizes(), answers={"mountpoint": "/var/lib/etcd"})
    mounted = ctx.mount()
    assert mounted is not None
    return ctx, stack_findings(ctx, mounted)


async def test_the_slow_guide_counts_a_saved_runs_finding_as_advice_does(private_state_dir: Path) -> None:
    """newuser16: step 3 said `1 finding (1 warn)` for a filesystem where Advice showed a CRIT `WAL p99
    16.5 ms ≥ 10 ms` from a run saved on it; the guide judges the saved runs Advice judges."""
    RunStore().save(saved_run(20, slow_ms=16.5))  # p99 16.5 ms: etcd's 10 ms is missed
    _, findings = etcd_findings()
    wal = [finding for finding in findings if finding.id == "ETCD-FSYNC-P99"]
    assert len(wal) == 1 and wal[0].severity.value == "crit", [f.id for f in findings]
    text = findings_text(findings).plain
    assert "1 crit" in text and "ETCD-FSYNC-P99" in text and "saved benchmark runs included" in text
    subjects = {finding.subject for finding in findings}
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_advice(pilot)
        on_advice = {(f.id, f.subject, f.title) for f in screen.findings if f.subject in subjects}
    assert {(f.id, f.subject, f.title) for f in findings} == on_advice


def test_without_saved_runs_the_guide_has_no_benchmark_finding(private_state_dir: Path) -> None:
    _, findings = etcd_findings()
    assert "ETCD-FSYNC-P99" not in {finding.id for finding in findings}
