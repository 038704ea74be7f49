"""The Benchmark screen with the other workloads (Pilot): the two-series interference chart, compaction's
MB/s, randwrite's form, all from real short runs on tmpfs; compaction and randwrite, which the screen does not
judge, show no threshold and are saved without a verdict."""

from __future__ import annotations

import json
import os
import re

from diskdoctor.app.core.runs.store import RunStore, default_runs_dir
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.engine.workloads.compaction import CompactionParams
from diskdoctor.probes.engine.workloads.interference import InterferenceParams
from diskdoctor.probes.root import live_root
from diskdoctor.probes.wal_params import WalParams
from diskdoctor.widgets import PercentileChart
from support.wal_support import tmpfs_dir
from test_bench_screen import SIZE, open_bench, text_of, until
from textual.widgets import Checkbox, Input, Select
from textual.widgets._footer import FooterKey

__all__ = ["tmpfs_dir"]
MIB = 1 << 20
SMALL_COMPACTION = CompactionParams(inputs=2, file_size=2 * MIB, read_bs=512 << 10, write_bs=256 << 10,
                                    bytes_per_sync=256 << 10, jobs=2)


async def test_interference_draws_both_series_on_one_chart(tmpfs_dir: str) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_bench(app, pilot)
        wal = WalParams(profile="custom", bs=4096, size=2 * MIB, duration_s=1.0)
        screen.start_run(InterferenceParams(wal, SMALL_COMPACTION), tmpfs_dir)
        await until(pilot, lambda: screen.result is not None, timeout=30)
        await pilot.pause()
        chart = screen.query_one(PercentileChart)
        series = chart._series
        assert list(series) == ["p99 alone", "p99 under compaction"]
        alone = [v for v in series["p99 alone"] if v is not None]
        under = [v for v in series["p99 under compaction"] if v is not None]
        assert alone and under  # both phases drawn, one after the other on the same time axis
        times = list(chart._times)
        assert times == sorted(times)
        legend = "".join(segment.text for segment in chart._legend(160))
        assert "p99 alone" in legend and "p99 under compaction" in legend
        verdict = text_of(app, "#bench-verdict")
        assert verdict.startswith("PASS  WAL p99 fdatasync ") and "under compaction" in verdict
        assert "the compaction model (2 jobs" in verdict
        progress = text_of(app, "#bench-progress-text")  # the WAL beside the store: its writes and rate
        assert re.search(r"[\d,]+ writes · [1-9][\d,]* ops/s · .* · done$", progress), progress
        await app.workers.wait_for_complete()
    assert os.listdir(tmpfs_dir) == []


def chart_title(screen) -> str:  # type: ignore[no-untyped-def]
    return "".join(segment.text for segment in screen.query_one(PercentileChart)._title(160))


def judged_on_screen(screen) -> bool:  # type: ignore[no-untyped-def]
    """The threshold row is shown and the chart draws the limit line."""
    row = screen.query_one("#bench-threshold-row").display
    limit = screen.query_one(PercentileChart).threshold_ms is not None
    assert row == limit == ("limit" in chart_title(screen))
    return row


def saved_without_verdict(kind: str) -> None:
    """The one saved run is `kind`, with no threshold, no verdict, and `"verdict": null` in its file."""
    [saved] = RunStore().scan().runs
    assert saved.kind == kind and saved.threshold is None and saved.record.verdict() is None
    [path] = default_runs_dir().glob("*.json")
    document = json.loads(path.read_text())
    assert document["record"]["verdict"] is None


async def test_compaction_from_the_form_shows_mb_s_and_its_summary(tmpfs_dir: str) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_bench(app, pilot)
        assert judged_on_screen(screen)  # the etcd WAL: "╌ limit 10 ms (etcd docs)"
        screen.query_one("#bench-profile", Select).value = "compaction"
        await pilot.pause()
        assert not judged_on_screen(screen)  # a compaction has no verdict: no limit line, no threshold row
        await pilot.press("t")
        assert screen.query_one("#bench-threshold", Select).value == "etcd"  # t does nothing here
        assert screen.query_one("#bench-jobs").display and not screen.query_one("#bench-prealloc").display
        assert screen.query_one("#bench-size", Input).value == "64 MiB"
        screen.query_one("#bench-dir", Input).value = tmpfs_dir
        screen.query_one("#bench-size", Input).value = "4m"
        await pilot.pause()  # the form fits the values set first (Start may move)
        await pilot.click("#bench-start")
        await until(pilot, lambda: screen.result is not None, timeout=30)
        await pilot.pause()
        assert "MB/s" in text_of(app, "#bench-stats") and "file sync" in text_of(app, "#bench-stats")
        assert text_of(app, "#bench-verdict").startswith("compaction read ")
        assert not screen.query_one("#bench-longer").display
        progress = text_of(app, "#bench-progress-text")  # MB/s, not ops/s, and a sub-second run in ms
        assert re.search(r"read [\d,.]+ MB/s · write [\d,.]+ MB/s · \d+(\.\d+)? m?s · done$", progress)
        assert "ops/s" not in progress and "writes" not in progress
        assert "no block device" in text_of(app, "#bench-layers-title")  # tmpfs: no empty layer table
        await pilot.pause()
        footer = [key.description for key in screen.query(FooterKey)]
        assert "Run again" in footer and "Run longer" not in footer  # as the buttons: no longer compaction
        assert not judged_on_screen(screen)
        saved_without_verdict("compaction")
        screen.query_one("#bench-profile", Select).value = "etcd"  # the next Start is judged: the row is back
        await pilot.pause()
        assert screen.query_one("#bench-threshold-row").display
        # the compaction is set aside (newuser15 #1): what Start runs, not its chart, until its tab again
        assert not screen.query_one("#bench-left").display and screen.query_one("#bench-plan").display
        screen.query_one("#bench-profile", Select).value = "compaction"
        await pilot.pause()
        assert screen.query_one("#bench-left").display
        assert text_of(app, "#bench-verdict").startswith("compaction")
        assert screen.query_one(PercentileChart).threshold_ms is None  # the compaction's chart: no limit
        await app.workers.wait_for_complete()
    assert os.listdir(tmpfs_dir) == []


async def test_randwrite_form_offers_no_sync_and_o_direct(tmpfs_dir: str) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_bench(app, pilot)
        screen.query_one("#bench-profile", Select).value = "randwrite"
        await pilot.pause()
        assert not judged_on_screen(screen)
        screen.query_one("#bench-profile", Select).value = "postgres-wal"
        await pilot.pause()
        assert judged_on_screen(screen)  # back on a WAL profile: the limit and the row come back
        screen.query_one("#bench-profile", Select).value = "randwrite"
        await pilot.pause()
        assert screen.query_one("#bench-direct", Checkbox).display
        screen.query_one("#bench-sync", Select).value = "none"
        for name, value in (("dir", tmpfs_dir), ("size", "1m"), ("duration", "0.6")):
            screen.query_one(f"#bench-{name}", Input).value = value
        await pilot.pause()  # the form fits the values set first (Start may move)
        await pilot.click("#bench-start")
        await until(pilot, lambda: screen.result is not None, timeout=30)
        await pilot.pause()
        assert screen.result.sync.count == 0 and screen.result.write.count > 100  # type: ignore[attr-defined]
        assert text_of(app, "#bench-verdict").startswith("randwrite ") and "O_DIRECT" in text_of(
            app, "#bench-verdict")
        assert not judged_on_screen(screen) and "PASS" not in text_of(app, "#bench-status")
        saved_without_verdict("randwrite")
        await app.workers.wait_for_complete()
    assert os.listdir(tmpfs_dir) == []
