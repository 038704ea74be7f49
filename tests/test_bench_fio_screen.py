"""fio side by side on the Benchmark screen for every workload (Pilot, real fio on tmpfs): the job shown,
the comparison table with ratios and their meaning, Esc stopping fio with its scratch directory removed."""

from __future__ import annotations

import os
import shutil

import pytest
from diskdoctor.app.base.units import format_latency
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.engine.workloads.interference import InterferenceParams
from diskdoctor.probes.latency_histogram import LatencyHistogram
from diskdoctor.probes.root import live_root
from diskdoctor.probes.wal_params import WalParams
from support.wal_support import tmpfs_dir
from test_bench_screen import SIZE, open_bench, text_of, until
from test_bench_workloads_screen import MIB, SMALL_COMPACTION
from textual.widgets import Input, Select

__all__ = ["tmpfs_dir"]
pytestmark = pytest.mark.skipif(not shutil.which("fio"), reason="fio is not installed")


async def _run_from_form(app: DiskDoctorApp, pilot, profile: str, values: dict[str, str]):  # type: ignore[no-untyped-def]
    screen = await open_bench(app, pilot)
    screen.query_one("#bench-profile", Select).value = profile
    await pilot.pause()
    for name, value in values.items():
        screen.query_one(f"#bench-{name}", Input).value = value
    await pilot.pause()  # the form fits the values set first (Start may move)
    await pilot.click("#bench-start")
    await until(pilot, lambda: screen.result is not None, timeout=30)
    await pilot.pause()
    return screen


async def test_compaction_side_by_side_with_fio(tmpfs_dir: str) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=SIZE) as pilot:
        screen = await _run_from_form(app, pilot, "compaction",
                                      {"dir": tmpfs_dir, "size": "4m", "duration": "1"})
        assert "runtime=1s" in text_of(app, "#bench-verdict")  # the job fio will run, stopping with ours
        assert screen.query_one("#bench-run-fio").display
        await pilot.press("f")
        await until(pilot, lambda: "ours/fio" in text_of(app, "#bench-fio")
                    or "fio:" in text_of(app, "#bench-status"), timeout=30)
        table = text_of(app, "#bench-fio")
        for row in ("read MB/s (in calls)", "write MB/s (in calls)", "sync p99 (range + file)", "fio-3"):
            assert row in table
        merged = LatencyHistogram()  # the row is our range syncs and file syncs merged, as fio counts them
        for name in ("range_sync", "file_sync"):
            merged.merge(screen.result.streams[name])  # type: ignore[attr-defined]
        [sync_row] = [line for line in table.splitlines() if line.startswith("sync p99 (range + file)")]
        assert " ".join(sync_row.split()[5:7]) == format_latency(merged.percentile(99.0))
        ranges, files = (screen.result.streams[name].count for name in ("range_sync", "file_sync"))  # type: ignore[attr-defined]
        assert f"ours merge the same two kinds, {ranges:,} range syncs and {files:,} file syncs" in table
        assert "measured apart" not in table
        assert any(word in table for word in ("ours faster", "ours slower", "about the same"))
        assert "fio ran the equivalent job shown above" in table
        await app.workers.wait_for_complete()
    assert os.listdir(tmpfs_dir) == []


async def test_randwrite_side_by_side_with_fio(tmpfs_dir: str) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=SIZE) as pilot:
        await _run_from_form(app, pilot, "randwrite", {"dir": tmpfs_dir, "size": "1m", "duration": "0.5"})
        await pilot.press("f")
        await until(pilot, lambda: "ours/fio" in text_of(app, "#bench-fio"), timeout=30)
        table = text_of(app, "#bench-fio")
        for row in ("p50", "p99", "p99.9", "stdev", "ops/s"):
            assert row in table
        await app.workers.wait_for_complete()
    assert os.listdir(tmpfs_dir) == []


async def test_interference_side_by_side_then_escape_stops_fio(tmpfs_dir: str) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_bench(app, pilot)
        wal = WalParams(profile="custom", bs=4096, size=2 * MIB, duration_s=1.0)
        screen.start_run(InterferenceParams(wal, SMALL_COMPACTION), tmpfs_dir)
        await until(pilot, lambda: screen.result is not None, timeout=30)
        await pilot.pause()
        assert text_of(app, "#bench-advice").startswith("Advisor: ")  # the advisor's two WAL rules ran
        await pilot.press("f")
        await until(pilot, lambda: "ours/fio" in text_of(app, "#bench-fio"), timeout=60)
        table = text_of(app, "#bench-fio")
        assert "WAL p99 alone" in table and "WAL p99 under compaction" in table and "under / alone" in table
        await pilot.press("f")  # again, and stop it while it runs
        await until(pilot, lambda: screen._fio_process is not None and bool(os.listdir(tmpfs_dir)))
        await pilot.press("escape")
        await until(pilot, lambda: not screen.busy, timeout=15)
        await app.workers.wait_for_complete()
        assert text_of(app, "#bench-status") == "fio cancelled; its scratch directory was removed."
    assert os.listdir(tmpfs_dir) == []
