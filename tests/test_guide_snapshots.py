"""Layout snapshots at 80x24 of each walkthrough step type (question, explanation, a step to run, the
verdict), the walkthrough menu and the monitor screen, on fixture captures.

Review changed SVGs by eye (render them to PNG) before accepting them with --snapshot-update."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.guides.common_steps import Benchmark
from support.guide_pilot import next_step, open_guide, settle

SIZE = (80, 24)


def _app() -> DiskDoctorApp:
    return DiskDoctorApp(fixture_root("etcd-raid0-lvm-luks"))


def test_guide_menu(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def menu(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await pilot.press("ctrl+g")
        await settle(pilot)

    assert snap_compare(_app(), terminal_size=SIZE, run_before=menu)


def test_question_step(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def first(pilot) -> None:  # type: ignore[no-untyped-def]
        await open_guide(pilot, "etcd")

    assert snap_compare(_app(), terminal_size=SIZE, run_before=first)


def test_info_step(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def trim(pilot) -> None:  # type: ignore[no-untyped-def]
        await open_guide(pilot, "etcd")
        await pilot.press("enter")
        await settle(pilot)
        await next_step(pilot)

    assert snap_compare(_app(), terminal_size=SIZE, run_before=trim)


def test_run_step(snap_compare, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(Benchmark, "skip_reason", lambda self, ctx: None)  # the page as on a live host

    async def bench(pilot) -> None:  # type: ignore[no-untyped-def]
        await open_guide(pilot, "etcd")
        await pilot.press("enter")
        await settle(pilot)
        for _ in range(3):
            await next_step(pilot)

    assert snap_compare(_app(), terminal_size=SIZE, run_before=bench)


def test_skipped_step_on_a_capture(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def skipped(pilot) -> None:  # type: ignore[no-untyped-def]
        await open_guide(pilot, "etcd")
        await pilot.press("enter")
        await settle(pilot)
        for _ in range(3):
            await next_step(pilot)

    assert snap_compare(_app(), terminal_size=SIZE, run_before=skipped)


def test_verdict_step(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def verdict(pilot) -> None:  # type: ignore[no-untyped-def]
        await open_guide(pilot, "etcd")
        await pilot.press("enter")
        await settle(pilot)
        for _ in range(5):
            await next_step(pilot)

    assert snap_compare(_app(), terminal_size=SIZE, run_before=verdict)


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)], ids=lambda size: f"{size[0]}x{size[1]}")
def test_monitor_screen_on_a_capture(snap_compare, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    async def monitor(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        await pilot.pause(0.5)  # the arrival's scroll to Stack's group lands first (a loaded host is slow)
        await pilot.press("g")  # then the first row: one view whatever the timing (CI run 12 saw two)
        await settle(pilot)
        await pilot.press("down", "down", "down")
        await settle(pilot)

    assert snap_compare(DiskDoctorApp(fixture_root("lab-ssd")), terminal_size=size, run_before=monitor)
