"""The Advice screen judges the saved runs `diskdoctor report` judges (the newest run of each kind on each
filesystem of the host), so a failed run's finding is on both, also when it was saved while the app ran."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from conftest import fixture_root
from diskdoctor.app.core.runs.store import RunStore
from diskdoctor.app.report.model import build_report
from diskdoctor.app.tui.advice_screen import AdviceScreen
from diskdoctor.app.tui.app import DiskDoctorApp
from support.runs_support import STACK, TARGET, saved_run
from test_tui_layout import open_advice, settle
from textual.widgets import DataTable, Static

FIXTURE = "etcd-raid0-lvm-luks"
"""Its hostname is etcd-2, the host the saved test runs were taken on."""


def shown(screen: AdviceScreen) -> set[tuple[str, str, str]]:
    return {(finding.id, finding.subject, finding.title) for finding in screen.findings}


async def test_a_saved_runs_finding_is_on_the_advice_screen_as_in_the_report(private_state_dir: Path) -> None:
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_advice(pilot)
        assert "ETCD-FSYNC-P99" not in {finding.id for finding in screen.findings}
        before = shown(screen)
        await pilot.press("1")
        await settle(pilot)
        run = RunStore().save(saved_run(20, slow_ms=25.0))  # p99 25 ms: etcd's 10 ms is missed
        await pilot.press("4")
        for _ in range(100):  # the rules run again off the UI thread once the folder changed
            await settle(pilot)
            if shown(screen) != before:
                break
        wal = [finding for finding in screen.findings if finding.id == "ETCD-FSYNC-P99"]
        assert len(wal) == 1 and wal[0].severity.value == "crit"
        assert any(f"run {run.id}" in item.source for item in wal[0].evidence)
        on_screen = shown(screen)
    report = build_report(fixture_root(FIXTURE))
    assert [saved.id for saved in report.runs] == [run.id]
    assert on_screen == {(finding.id, finding.subject, finding.title) for finding in report.findings}


GONE = "/tmp/newuser5/mnt-ext4-data"
"""A filesystem benchmarked earlier and unmounted since (not in the fixture's mounts)."""


async def test_a_run_on_a_filesystem_not_mounted_now_is_history_after_the_live_findings(
        private_state_dir: Path) -> None:
    """newuser5: the top CRIT was `WAL p99 33.9 ms ≥ 10 ms · fdatas…  /tmp/fo…/mnt-ext4-data`, a run on a
    filesystem unmounted since: it says so and comes after every live finding, on the screen and in the
    report alike."""
    gone = replace(STACK, target=replace(TARGET, directory=GONE, mountpoint=GONE))
    store = RunStore()
    store.save(saved_run(20, slow_ms=40.0, stack=gone))
    live = store.save(saved_run(21, slow_ms=25.0))
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_advice(pilot)
        for _ in range(50):
            if any(GONE in row.subjects for row in screen.rows):
                break
            await settle(pilot)
        subjects = [row.subjects for row in screen.rows]
        history = [i for i, row in enumerate(screen.rows) if GONE in row.subjects]
        assert history and history == list(range(len(screen.rows) - len(history), len(screen.rows))), subjects
        assert all(screen.rows[i].title.endswith("(not mounted now)") for i in history)
        wal = [row for row in screen.rows if row.finding.id == "ETCD-FSYNC-P99" and GONE not in row.subjects]
        assert wal and wal[0].finding.severity.value == "crit" and "not mounted" not in wal[0].title
        assert any(f"run {live.id}" in item.source for item in wal[0].finding.evidence)
        on_screen = shown(screen)
    report = build_report(fixture_root(FIXTURE))
    assert on_screen == {(finding.id, finding.subject, finding.title) for finding in report.findings}
    subjects_in_order = list(dict.fromkeys(finding.subject for finding in report.findings))
    assert subjects_in_order[-1] == GONE, subjects_in_order
    assert all(f.title.endswith("(not mounted now)") for f in report.findings if f.subject == GONE)


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)], ids=["80x24", "120x40", "200x60"])
async def test_a_run_on_a_filesystem_not_mounted_now_says_so_first_at_every_width(
        private_state_dir: Path, size: tuple[int, int]) -> None:
    """newuser7: `CRIT  WAL p99 33.9 ms, at or over the…` under INFO rows gave its reason, "(not mounted
    now)", only at 200 columns; now the listed title opens with it and reads as the live rows do."""
    gone = replace(STACK, target=replace(TARGET, directory=GONE, mountpoint=GONE))
    RunStore().save(saved_run(20, slow_ms=40.0, stack=gone))
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=size) as pilot:
        screen = await open_advice(pilot)
        for _ in range(50):
            if any(GONE in row.subjects for row in screen.rows):
                break
            await settle(pilot)
        table = screen.query_one("#advice-table", DataTable)
        titles = [table.get_row_at(index)[1].plain for index in range(table.row_count)]
        history = [title for title, row in zip(titles, screen.rows, strict=True) if GONE in row.subjects]
        assert history and all(title.startswith("not mounted now · ") for title in history), titles
        crit = next(title for title, row in zip(titles, screen.rows, strict=True)
                    if GONE in row.subjects and row.finding.severity.value == "crit")
        assert crit.startswith("not mounted now · WAL p99 40") and "≥ 10 ms" in crit, crit
        assert not any(title.startswith("not mounted") for title, row in zip(titles, screen.rows, strict=True)
                       if GONE not in row.subjects)
        summary = str(screen.query_one("#advice-summary", Static).render())
        if size[0] > 80:  # at 80 the phrase gives way whole to the counts and the source (adv8)
            assert "saved runs on unmounted filesystems last" in summary
