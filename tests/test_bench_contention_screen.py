"""The Benchmark screen says the host's contention while a run goes and beside the verdict after it, and
that a RAM-backed target's figures are not a durable write's, from the moment the run starts."""

from __future__ import annotations

import os

from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.root import live_root
from diskdoctor.widgets import StatusLine
from support.wal_support import tmpfs_dir
from test_bench_screen import SIZE, fill_form, open_bench, text_of, until

__all__ = ["tmpfs_dir"]


async def test_contention_during_and_after_a_run(tmpfs_dir: str) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_bench(app, pilot)
        fill_form(screen, tmpfs_dir, "1.5")  # 50/s, 500/s and the capacity: 1.5 s each
        await pilot.pause()  # the form fits the values set first (Start may move)
        await pilot.click("#bench-start")
        status = screen.query_one(StatusLine)
        await until(pilot, lambda: screen.busy and "NOT DURABLE: tmpfs keeps files in memory" in status.plain)
        await until(pilot, lambda: screen.busy and "during the run" in status.plain, timeout=15)
        during = status.plain  # while it runs: "host BUSY during the run: ..." or "host quiet during the run"
        assert "host BUSY during the run" in during or "host quiet during the run" in during
        await until(pilot, lambda: screen.result is not None, timeout=30)
        await pilot.pause()
        verdict = text_of(app, "#bench-verdict")
        assert "[not durable]" in verdict.splitlines()[0]
        host = next(line for line in verdict.splitlines() if line.startswith("host load "))
        assert host.split()[2].rstrip(":") in ("BUSY", "quiet")  # after the run: the whole run's contention
        assert "BENCH-NOT-DURABLE" in text_of(app, "#bench-advice")
        assert os.listdir(tmpfs_dir) == []
