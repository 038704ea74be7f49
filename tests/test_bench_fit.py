"""Benchmarks that fit the space they have, on a real 150 MiB tmpfs: compaction (~567 MiB), randwrite
(~286 MiB) and interference refuse it naming the flag that shrinks them; --fit sizes the run to the free
space and says the trade-off; the Benchmark screen sets its size field to what fits."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from diskdoctor.app.core.bench.fit import fit_to_free, room_for
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.engine.workloads.compaction import CompactionParams
from diskdoctor.probes.engine.workloads.interference import InterferenceParams
from diskdoctor.probes.engine.workloads.randwrite import RandwriteParams
from diskdoctor.probes.root import live_root
from diskdoctor.probes.wal_target import space_needed
from diskdoctor.widgets import StatusLine
from support.cli_runner import run_cli
from support.wal_support import small_tmpfs
from test_bench_screen import SIZE, open_bench, until
from textual.widgets import Input, Select, Static

MIB = 1 << 20


@pytest.fixture
def small_fs(tmp_path: Path) -> Iterator[str]:
    with small_tmpfs(tmp_path / "small", "150m") as where:
        yield str(where)
        assert os.listdir(where) == []  # no scratch left behind


@pytest.mark.parametrize("params", [CompactionParams(), RandwriteParams(),
                                    InterferenceParams(aggressor="rocksdb"), InterferenceParams()],
                         ids=["compaction", "randwrite", "interference-rocksdb", "interference-model"])
def test_a_fitted_run_fits_and_says_what_it_costs(params: object) -> None:
    free = 150 * MIB
    fitted = fit_to_free(params, free)
    assert fitted is not None
    assert space_needed(fitted.params.scratch_bytes) <= free  # type: ignore[attr-defined]
    assert fitted.params.scratch_bytes > free // 2  # type: ignore[attr-defined]  # not needlessly small
    fitted.params.validate()  # type: ignore[attr-defined]
    assert fitted.said.startswith(f"sized to {fitted.sized} to fit 150 MiB free: ")
    assert "figures" in fitted.cost or "lower bound" in fitted.cost
    assert fit_to_free(fitted.params, free) is None  # it fits: nothing more to do
    assert fit_to_free(params, 3 * MIB) is None  # nothing sensible fits 3 MiB
    assert room_for(free) and space_needed(room_for(free)) <= free < space_needed(room_for(free) + 1)


def test_the_cli_refusal_names_the_flag_and_fit_runs_the_smaller_compaction(small_fs: str) -> None:
    refused = {kind: run_cli("bench", kind, "--dir", small_fs, "--no-save")
               for kind in ("compaction", "randwrite", "interference")}
    for kind, flag in (("compaction", "add --file-size 16m (or --fit)"), ("randwrite", "add --size 132m"),
                       ("interference", "--aggressor model --segment-size 16m (or --fit)")):
        assert refused[kind].code == 2, refused[kind].err
        line = refused[kind].err.strip()
        assert "\n" not in line and "not enough free space" in line and flag in line, line
    fitted = run_cli("bench", "compaction", "--dir", small_fs, "--fit", "--json", "--no-save")
    assert fitted.code == 0, fitted.err
    assert ("bench compaction: sized to 128 MiB to fit 150 MiB free: a smaller compaction (4 input files of "
            "16 MiB, not 64 MiB, and as much output, written before the inputs are deleted: 2 × 4 × 16 MiB = "
            "128 MiB)") in fitted.err
    assert json.loads(fitted.out)["params"]["file_size"] == 16 * MIB


async def test_the_benchmark_screen_sets_the_size_that_fits_and_says_the_trade_off(small_fs: str) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_bench(app, pilot)
        screen.query_one("#bench-profile", Select).value = "compaction"
        await pilot.pause()
        screen.query_one("#bench-dir", Input).value = small_fs
        await pilot.pause()
        await pilot.click("#bench-start")
        await until(pilot, lambda: screen.query_one("#bench-size", Input).value != "64 MiB", timeout=20)
        await pilot.pause()
        said = screen.query_one(StatusLine).plain
        assert screen.query_one("#bench-size", Input).value == "16 MiB"
        assert said == "Too big for 150 MiB free: size now 16m, figures less stable; s runs it"
        whole = str(screen.query_one("#bench-progress-text", Static).render())
        assert "The size field is now 16m: sized to 128 MiB to fit 150 MiB free: a smaller" in whole
        assert app.screen.focused is screen.query_one("#bench-start")
        assert not screen.busy
        await app.workers.wait_for_complete()


def test_the_etcd_guide_runs_its_compaction_step_sized_to_fit_and_says_so(small_fs: str) -> None:
    from diskdoctor.app.tui.guides.common_steps import Benchmark
    from diskdoctor.app.tui.guides.quick_bench import QuickSizes
    from diskdoctor.app.tui.guides.steps import GuideContext

    sizes = QuickSizes(wal_bytes=MIB // 4, phase_s=1.0, compaction_file=64 * MIB, compaction_jobs=2,
                       store_memtable=64 * MIB, store_level_base=256 * MIB)  # RocksDB at its default sizes
    ctx = GuideContext(live_root(), sizes, answers={"dir": small_fs})
    step = Benchmark("Under compaction", "interference", "interference")  # the etcd guide's step 6
    said = step.run(ctx, lambda _text: None).plain
    assert "Not enough room for the usual run: sized to" in said and "150 MiB free" in said, said
    assert "lower bound" in said and "interference" in ctx.results
    assert ctx.results["interference"].record.params.compaction.file_size < 64 * MIB
