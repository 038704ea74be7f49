"""What `runs show`, `runs compare` and reports say about runs of every kind, as a person reads it."""

from __future__ import annotations

import re

from diskdoctor.app.core.bench.interference import summary_lines as interference_summary
from diskdoctor.app.core.runs.compare import compare_runs, different_kinds
from diskdoctor.app.core.runs.store import RunStore, default_runs_dir
from diskdoctor.app.report.sections import run_rows
from diskdoctor.app.text.runs import compare_lines, headline, show_lines
from diskdoctor.probes.engine.workloads.compaction import CompactionParams
from diskdoctor.probes.engine.workloads.interference import InterferenceParams
from diskdoctor.probes.engine.workloads.randwrite import RandwriteParams
from diskdoctor.probes.wal_params import WalParams
from support.cli_runner import run_cli
from support.runs_support import kind_run
from support.wal_support import tmpfs_dir

__all__ = ["tmpfs_dir"]

PYTHON_LEAKS = re.compile(r"None|True|False|\{|\[|'(?!s\b)|_s\b|ready_barrier|bytes_per_sync|file_size|"
                          r"\b\d{5,}\b")


def _no_leaks(lines: list[str]) -> None:
    for line in (line for line in lines if line.startswith(("params", "parameters", "wal ", "compaction "))):
        assert not PYTHON_LEAKS.search(line), line


def test_show_gives_labelled_sizes_and_hides_engine_fields() -> None:
    run = kind_run("compaction", CompactionParams(inputs=4, file_size=8 << 20, read_bs=2 << 20))
    lines = show_lines(run)
    params = next(line for line in lines if line.startswith("params"))
    assert "inputs 4, file size 8 MiB, read bs 2 MiB, write bs 1 MiB, bytes per sync 1 MiB, jobs 1" in params
    _no_leaks(lines)


def test_compare_lists_changed_params_with_units() -> None:
    first = kind_run("randwrite", RandwriteParams(size=2 << 20, duration_s=None, writes=500), 20)
    second = kind_run("randwrite", RandwriteParams(size=22 << 20, duration_s=30.0), 21)
    lines = compare_lines(compare_runs(first, second))
    changed = next(line for line in lines if line.startswith("params"))
    assert "size 2 MiB → 22 MiB" in changed and "duration — → 30 s" in changed and "writes 500 → —" in changed
    _no_leaks(lines)


def test_interference_params_are_flattened_everywhere() -> None:
    first = kind_run("interference", InterferenceParams(WalParams(profile="custom", bs=2300),
                                                        CompactionParams(inputs=4)), 20)
    second = kind_run("interference", InterferenceParams(WalParams(profile="custom", bs=2300),
                                                         CompactionParams(inputs=2)), 21)
    lines = compare_lines(compare_runs(first, second))
    assert any("compaction inputs 4 → 2" in line for line in lines)
    _no_leaks(lines)
    rows = run_rows(first)
    assert ("wal bs", "2.25 KiB") in rows and ("compaction file size", "64 MiB") in rows
    assert not any(label.startswith("compaction duration") or "ready" in label for label, _ in rows)
    _no_leaks([f"{label} {value}" for label, value in rows])


def test_runs_judged_on_different_calls_are_not_compared_on_them() -> None:
    synced = kind_run("randwrite", RandwriteParams(sync="fdatasync"), 20, slow_ms=9.0)
    unsynced = kind_run("randwrite", RandwriteParams(sync="none"), 21, slow_ms=0.5)
    comparison = compare_runs(synced, unsynced)
    lines = compare_lines(comparison)
    assert not any(line.startswith(("improved", "REGRESSION")) and "p99" in line for line in lines), lines
    assert not any("p99 fdatasync" in line and "p99 write()" not in line
                   for line in lines if line.startswith("  p99")), lines
    assert any(line.startswith("not comparable on p99 fdatasync") and "p99 write()" in line for line in lines)
    assert comparison.to_json()["not_comparable"]


def test_counts_and_articles_read_as_english() -> None:
    run = kind_run("compaction", CompactionParams(), write_mb_s=273.0)
    assert headline(run) == "write 273 MB/s"
    other = kind_run("interference", InterferenceParams(), 21)
    assert "is an interference run" in different_kinds(other, run) and "is a compaction run" in \
        different_kinds(run, other)
    document = interference_summary(other.record)
    assert any("the compaction model (1 job, not calibrated" in line for line in document), document


def test_a_change_just_under_the_flag_does_not_read_as_the_flag() -> None:
    base = kind_run("compaction", CompactionParams(), 20, write_mb_s=200.0)
    cand = kind_run("compaction", CompactionParams(), 21, write_mb_s=161.0)
    delta = next(d for d in compare_runs(base, cand).deltas if d.key == "write_mb_s")
    assert not delta.regression and delta.ratio_text() == "÷1.24"  # under the flag: never "÷1.25"
    worse = kind_run("compaction", CompactionParams(), 21, write_mb_s=100.0)
    assert next(d for d in compare_runs(base, worse).deltas if d.key == "write_mb_s").ratio_text() == "÷2.00"


def test_a_compaction_run_shows_and_draws_its_per_call_latencies() -> None:
    from diskdoctor.app.cli.runs import _plot_run

    run = kind_run("compaction", CompactionParams(), slow_ms=9.0, threshold=100.0)
    lines = show_lines(run)
    assert any(line.strip().startswith("p99 file sync") and "ms" in line for line in lines), lines
    assert any(line.strip().startswith("p50 read") for line in lines), lines
    chart = "\n".join(_plot_run(run))
    assert "per-call latency" in chart and "file sync" in chart


def test_interference_progress_names_its_compaction_jobs(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from support.cli_runner import run_cli

    result = run_cli("bench", "interference", "--dir", str(tmp_path), "--duration", "0.3", "--jobs", "1",
                     "--aggressor", "model", "--no-save")
    assert result.code in (0, 1, 3), result.err  # 3: INCONCLUSIVE, a 0.3 s phase cannot bound its p99
    assert "the WAL beside 1 compaction job" in result.err and "Job object" not in result.err


def test_a_saved_wal_run_shows_every_load_and_reads_its_params_in_words(tmpfs_dir: str) -> None:
    """`runs show` and the report give each open-loop load and the capacity, as `bench wal` printed them,
    and the parameters as a person says them (loads, layout, segment size; no seed)."""
    ran = run_cli("bench", "wal", "--dir", tmpfs_dir, "--rate", "200,400", "--duration", "0.2s",
                  "--threshold-ms", "5000")
    assert ran.code in (0, 3), ran.err  # 40 and 80 writes: INCONCLUSIVE (exit 3), saved all the same
    shown = run_cli("runs", "show", "latest").out.splitlines()
    loads = [line for line in shown if line.startswith(("load ", "capacity "))]
    assert [line.split(":")[0] for line in loads] == ["load      200 writes/s, steady",
                                                      "load      400 writes/s, steady",
                                                      "capacity  closed loop (capacity)"]
    assert any(line.startswith("  p99 fdatasync from due at 400 writes/s, steady") or
               line.startswith("  p99 fdatasync from due at 200 writes/s, steady") for line in shown)
    run = RunStore(default_runs_dir()).find("latest")
    rows = dict(run_rows(run))
    assert rows["loads"] == "200 and 400 writes/s" and rows["file layout"] == "etcd's WAL segments"
    assert rows["WAL segment size"] == "64 MB" and rows["backend commit every"] == "100 ms"
    assert "seed" not in rows and "time per load" not in rows  # --duration set every load's time
    assert rows["capacity"].startswith("closed loop (capacity): ")
    _no_leaks(shown)
