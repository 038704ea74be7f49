"""Saved runs: typed round trip, never overwriting, the corrupt runs directory, comparison math, the CLI."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import re
import subprocess
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from diskdoctor.app.core.runs.compare import compare_runs
from diskdoctor.app.core.runs.record import SavedRun
from diskdoctor.app.core.runs.store import RunStore, default_runs_dir, save_run
from diskdoctor.app.text.runs import compare_lines
from diskdoctor.probes.engine.workloads.wal import WalResult
from diskdoctor.probes.wal_params import PROFILES, WalParams
from diskdoctor.probes.wal_target import Target
from support.cli_runner import assert_one_line_error, run_cli
from support.runs_support import STACK, saved_run
from support.wal_support import tmpfs_dir

__all__ = ["tmpfs_dir"]


@pytest.fixture
def store(private_state_dir: Path) -> RunStore:
    """The store the CLI uses in this test (XDG_STATE_HOME points at a private folder)."""
    return RunStore(default_runs_dir())


def _snapshot(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in directory.iterdir() if p.is_file() and not p.is_symlink()}


def test_default_dir_follows_xdg(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", "/srv/state")
    assert default_runs_dir() == Path("/srv/state/diskdoctor/runs")
    monkeypatch.setenv("XDG_STATE_HOME", "relative/ignored")  # the XDG spec: relative paths are invalid
    monkeypatch.setenv("HOME", "/home/ops")
    assert default_runs_dir() == Path("/home/ops/.local/state/diskdoctor/runs")


def test_round_trip_gives_back_the_typed_objects(store: RunStore) -> None:
    original = store.save(saved_run())
    loaded = store.find(original.id)
    assert isinstance(loaded.params, WalParams) and loaded.params == original.params
    assert isinstance(loaded.result, WalResult)
    assert isinstance(loaded.stack.target, Target) and loaded.stack == original.stack
    assert loaded.host == original.host and loaded.saved_at == original.saved_at
    assert loaded.result.sync.percentile(99) == original.result.sync.percentile(99) == 2_000_000
    assert loaded.result.sync.counts == original.result.sync.counts
    assert loaded.verdict().line.startswith("p99 fdatasync 2.00 ms < 10 ms: etcd docs")  # type: ignore[union-attr]
    assert loaded.record.threshold == 10.0 and loaded.record.workload == "wal"
    file = store.directory / f"{original.id}.json"
    document = json.loads(file.read_text())
    assert document["format"] == "diskdoctor-run" and document["kind"] == "wal"
    assert document["record"]["params"] == PROFILES["etcd"].to_json()
    assert oct(file.stat().st_mode & 0o777) == "0o644" or file.stat().st_mode & 0o077 == 0


def test_saving_never_replaces_a_file(store: RunStore) -> None:
    first = store.save(saved_run())
    again = store.save(dataclasses.replace(saved_run(), id=first.id))  # same name wanted: a new one is used
    assert again.id != first.id
    names = sorted(p.name for p in store.directory.iterdir())
    assert names == sorted([f"{first.id}.json", f"{again.id}.json"])
    assert [run.id for run in store.scan().runs] == sorted([first.id, again.id])


CORRUPT = {
    "broken.json": b'{"format": "diskdoctor-run", "format_vers',
    "foreign.json": b'{"name": "some other tool"}',
    "array.json": b"[1, 2, 3]",
    "future.json": json.dumps({"format": "diskdoctor-run", "format_version": 99}).encode(),
    "notes.txt": b"my notes about the runs",
    "latin1.json": "caf\xe9".encode("latin-1"),
}


def _damaged(good: SavedRun) -> dict[str, bytes]:
    unknown = good.to_json() | {"kind": "warp-drive"}
    counts = good.to_json()
    counts["record"]["histograms"]["sync"]["counts"] = "lots"  # type: ignore[index]
    missing = good.to_json()
    del missing["stack"]
    return {"unknown-kind.json": json.dumps(unknown).encode(),
            "bad-counts.json": json.dumps(counts).encode(),
            "no-stack.json": json.dumps(missing).encode()}


def test_corrupt_and_foreign_files_are_skipped_and_left_alone(store: RunStore) -> None:
    good = store.save(saved_run())
    for name, data in {**CORRUPT, **_damaged(good)}.items():
        (store.directory / name).write_bytes(data)
    os.symlink("/dev/zero", store.directory / "zero.json")  # would never end if read
    os.mkfifo(store.directory / "pipe.json")  # would block if opened for reading naively
    (store.directory / "dir.json").mkdir()
    (store.directory / "huge.json").write_bytes(b" " * (17 << 20))
    before = _snapshot(store.directory)
    listing = store.scan()
    assert [run.id for run in listing.runs] == [good.id]
    skipped = dict(listing.skipped)
    assert set(skipped) == set(CORRUPT) | {"unknown-kind.json", "bad-counts.json", "no-stack.json",
                                           "zero.json", "pipe.json", "dir.json", "huge.json"}
    assert skipped["broken.json"] == "not valid JSON" and skipped["notes.txt"].startswith("not a run file")
    assert skipped["foreign.json"] == "not a diskdoctor run file"
    assert "version 99" in skipped["future.json"] and "'warp-drive'" in skipped["unknown-kind.json"]
    assert skipped["no-stack.json"] == "damaged run file (missing field 'stack')"
    assert "larger than 16 MiB" in skipped["huge.json"]
    assert _snapshot(store.directory) == before  # nothing changed, nothing removed
    result = run_cli("runs", "list")
    assert result.code == 0 and good.id in result.out
    warnings = result.err.strip().splitlines()
    assert len(warnings) == len(skipped)
    assert all(w.startswith("diskdoctor: warning: skipped ") for w in warnings)
    assert all(w.endswith("(left as it is)") for w in warnings)
    again = store.save(saved_run(21))
    assert _snapshot(store.directory) == before | {f"{again.id}.json": (store.directory / f"{again.id}.json")
                                                   .read_bytes()}


def test_host_strings_in_a_run_file_are_made_visible(store: RunStore) -> None:
    good = store.save(saved_run())
    document = good.to_json()
    document["host"]["hostname"] = "evil\x1b]52;c;cm0gLXJmIH4=\x07"  # type: ignore[index]
    (store.directory / "planted.json").write_text(json.dumps(document))
    planted = store.find("planted")
    assert planted.host.hostname == "evil\\x1b]52;c;cm0gLXJmIH4=\\x07"
    result = run_cli("runs", "show", "planted")
    assert result.code == 0 and "\x1b" not in result.out and "evil\\x1b]52" in result.out


def _delta(comparison, key):  # type: ignore[no-untyped-def]
    return next(delta for delta in comparison.deltas if delta.key == key)


def test_comparison_math_and_regression_flag() -> None:
    before, after = saved_run(20, slow_ms=2.0), saved_run(23, slow_ms=6.8, ops_per_s=1500)
    comparison = compare_runs(after, before)  # argument order does not matter: the older is the baseline
    assert comparison.baseline is before and comparison.same_filesystem
    p99 = _delta(comparison, "sync_p99")
    assert p99.before == 2.0 and p99.after == pytest.approx(6.8, rel=0.01)  # histogram buckets: within 1%
    assert p99.percent == pytest.approx(240.0, abs=1)
    assert p99.worse and p99.regression and p99.ratio_text() == "×3.40"
    ops = _delta(comparison, "ops_per_s")
    assert ops.percent == pytest.approx(-25.0) and ops.worse and ops.regression
    p50 = _delta(comparison, "sync_p50")
    assert p50.percent == 0 and not p50.worse and not p50.regression
    assert comparison.flags() == [
        "REGRESSION p99 fdatasync ×3.40 since 2026-11-20 14:30 UTC on the same filesystem",
        "REGRESSION ops/s ÷1.33 since 2026-11-20 14:30 UTC on the same filesystem"]
    assert comparison.regressed and comparison.param_changes == []


def test_small_changes_and_improvements_are_not_regressions() -> None:
    noise = compare_runs(saved_run(20, slow_ms=2.0), saved_run(21, slow_ms=2.3))  # +15%: under 20%
    assert not noise.regressed and noise.flags() == []
    tiny = compare_runs(saved_run(20, fast_ms=0.001, slow_ms=0.01),
                        saved_run(21, fast_ms=0.001, slow_ms=0.05))
    assert _delta(tiny, "sync_p99").percent == pytest.approx(400) and not tiny.regressed  # 40 µs: noise
    fixed = compare_runs(saved_run(20, slow_ms=12.0), saved_run(21, slow_ms=3.0))
    assert not fixed.regressed
    assert fixed.flags() == ["improved p99 fdatasync ÷4.00 since 2026-11-20 14:30 UTC on the same filesystem"]


def test_a_drop_reads_with_the_digits_of_a_rise() -> None:
    """newuser21 #13: 3.43 ms → 32.3 µs (1/106) read `×0.01` while a 103-fold rise read `×103`; a drop is
    now its factor after ÷, as many digits as a rise, in the rows, the flags and `runs compare`."""
    from diskdoctor.app.core.runs.compare import MetricDelta

    def text(before: float, after: float) -> str:
        return MetricDelta("p99", "p99 fdatasync", "ms", before, after, True, True).ratio_text()

    drop, rise = text(3.43, 0.0323), text(0.0323, 3.33)
    assert (drop, rise) == ("÷106", "×103") and len(drop) == len(rise)
    assert text(3.43, 1.0) == "÷3.43" and text(1.0, 3.43) == "×3.43" and text(10.0, 0.4) == "÷25.0"
    assert text(1.0, 1.02) == "×1.02" and text(1.02, 1.0) == "÷1.02"  # tiny changes: three digits still
    fixed = compare_runs(saved_run(20, slow_ms=42.4), saved_run(21, slow_ms=0.4))  # 400 µs: a bucket's edge
    ratio = _delta(fixed, "sync_p99").ratio_text()
    assert re.fullmatch(r"÷\d{3}", ratio) and f"fdatasync {ratio} since" in fixed.flags()[0]
    assert any(line.rstrip().endswith(f"{ratio}  better") for line in compare_lines(fixed))


def test_comparison_names_what_differs() -> None:
    other_fs = dataclasses.replace(STACK, target=Target("/data", "/data", "xfs", "md1", ("md1",)))
    moved = compare_runs(saved_run(20), saved_run(21, slow_ms=9.0, stack=other_fs))
    assert not moved.same_filesystem
    assert moved.where() == "on another filesystem (/var/lib/etcd (ext4 on dm-2) → /data (xfs on md1))"
    # p99 2.0 → 9.0 ms on another filesystem: the setups differ, so it is no regression (lead, issue 23)
    assert moved.flags() == ["NOT COMPARABLE (not like for like): ext4 on dm-2 against xfs on md1; the "
                             "changes below are the two setups' difference, not a regression"]
    assert not moved.regressed and moved.verdict == "NOT COMPARABLE"
    assert not any(delta.regression for delta in moved.deltas)
    changed = compare_runs(saved_run(20), saved_run(21, params=PROFILES["postgres-wal"]))
    assert ("bs", "2.25 KiB", "8 KiB") in changed.param_changes
    assert ("profile", "etcd", "postgres-wal") in changed.param_changes


def test_runs_cli_show_compare_json_and_plot(store: RunStore) -> None:
    old, new = store.save(saved_run(20)), store.save(saved_run(23, slow_ms=6.8))
    listing = run_cli("runs", "list", "--json")
    assert [run["id"] for run in json.loads(listing.out)["runs"]] == [new.id, old.id]  # newest first
    rows = run_cli("runs", "list").out.splitlines()[1:]
    assert [row.split()[0] for row in rows] == [new.id, old.id]  # as the Runs screen lists them
    shown = run_cli("runs", "show", "latest")
    assert shown.code == 0 and shown.out.startswith(f"run       {new.id} (WAL write + sync latency)")
    assert ("params    etcd WAL: 2,300-byte writes, 22 MiB, fdatasync, "
            "etcd's WAL segments of 64 MB (preallocated), plus a backend commit every 100 ms") in shown.out
    assert "layers    luks-etcd (dm-2) [crypt, scheduler none] → md0 [raid0]" in shown.out
    assert json.loads(run_cli("runs", "show", new.id, "--json").out) == new.to_json()
    compared = run_cli("runs", "compare", "previous", "latest", "--plot")
    assert compared.code == 1, compared.err  # a regression fails the check, for scripts and CI
    assert "REGRESSION p99 fdatasync ×3.40 since 2026-11-20 14:30 UTC on the same filesystem" in compared.out
    assert "fdatasync latency: baseline vs candidate in ms, log scale" in compared.out
    assert "\x1b" not in compared.out
    document = json.loads(run_cli("runs", "compare", old.id, new.id, "--json").out)
    assert document["regression"] and document["baseline"] == old.id
    p99 = next(m for m in document["metrics"] if m["key"] == "sync_p99")
    assert p99 == {"key": "sync_p99", "label": "p99 fdatasync", "load": None, "judged": True, "unit": "ms",
                   "before": 2.0,
                   "after": pytest.approx(6.8, rel=0.01), "change": pytest.approx(4.8, rel=0.01),
                   "percent": pytest.approx(240, abs=1), "worse": True, "regression": True,
                   "beyond_noise": True, "noise": p99["noise"]}
    assert p99["noise"]["tested"] and p99["noise"]["intervals_apart"] and p99["noise"]["rank_p_value"] < 0.05
    assert run_cli("runs", "compare", old.id, old.id[:20]).code == 2


def test_runs_cli_bad_references(store: RunStore) -> None:
    assert_one_line_error(run_cli("runs", "show", "latest"), "there is no latest run: 0 saved in")
    store.save(saved_run(20))
    store.save(saved_run(20))
    assert_one_line_error(run_cli("runs", "show", "2026"), "matches 2 runs; give more of the id")
    assert_one_line_error(run_cli("runs", "show", "nope"), "no saved run 'nope'")
    assert_one_line_error(run_cli("runs", "list", "--sysroot", "/"), "cannot take --sysroot")
    assert run_cli("runs").code == 2


def test_bench_saves_every_run_and_plots(tmpfs_dir: str, store: RunStore) -> None:
    small = ("--rate", "1000", "--duration", "400ms", "--bs", "4k", "--threshold-ms", "5000")
    result = run_cli("bench", "wal", "--dir", tmpfs_dir, *small, "--plot")
    assert result.code == 0, result.err
    assert "fdatasync latency (whole run) in ms, log scale, limit 5000 ms" in result.out
    assert "wal: latency percentiles per interval (ms)" in result.out
    assert "fdatasync latency histogram (samples, log scale)" in result.out
    [run] = store.scan().runs
    assert f"bench wal: saved as run {run.id}" in result.err
    assert run.params == replace(PROFILES["etcd"], profile="custom", bs=4096, duration_s=0.4,
                                 rates=(1000.0,))
    assert run.result.samples == 400 and run.stack.target.fstype == "tmpfs"  # type: ignore[attr-defined]
    assert [level.rate for level in run.result.levels] == [1000.0, None]  # type: ignore[attr-defined]
    assert run.host.source == "live" and run.host.kernel == os.uname().release
    assert run.threshold == 5000.0 and "custom threshold; 400 samples; 95% interval" in run.verdict().line  # type: ignore[union-attr]
    unsaved = run_cli("bench", "wal", "--dir", tmpfs_dir, *small, "--no-save")
    assert unsaved.code == 0 and len(store.scan().runs) == 1


@pytest.fixture
def full_state_dir(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs used as XDG_STATE_HOME with the runs dir made and every byte of it taken."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    mountpoint = tmp_path / "state"
    mountpoint.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mountpoint)], check=True)
    try:
        runs = mountpoint / "diskdoctor" / "runs"
        runs.mkdir(parents=True)
        with open(mountpoint / "filler", "wb", buffering=0) as filler, contextlib.suppress(OSError):
            while True:
                filler.write(b"\0" * 65536)
        yield mountpoint
    finally:
        subprocess.run(["umount", str(mountpoint)], check=False)


@pytest.mark.live
def test_full_disk_when_saving_still_prints_the_result(tmpfs_dir: str, full_state_dir: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(full_state_dir))
    result = run_cli("bench", "wal", "--dir", tmpfs_dir, "--rate", "1000", "--duration", "400ms", "--bs",
                     "4k",
                     "--threshold-ms", "5000")
    assert result.code == 0 and result.out.startswith("PASS  p99 fdatasync")  # the result is all there
    assert "fio cmd   fio --rw=write" in result.out
    [line] = [line for line in result.err.splitlines() if not line.startswith("bench wal: ")]
    assert line == (f"diskdoctor: warning: could not save the run in {full_state_dir}/diskdoctor/runs: "
                    "No space left on device")
    assert os.listdir(full_state_dir / "diskdoctor" / "runs") == []  # no partial or temp file left


KIND_RUNS = {
    "randwrite": ("--size", "1m", "--duration", "0.5"),
    "compaction": ("--duration", "0.5"),
    # a limit no tmpfs sync reaches: this test is about saving and loading, not about the host's load
    "interference": ("--duration", "1", "--threshold-ms", "1000"),
}


def test_every_engine_kind_is_saved_and_loads_back_typed(tmpfs_dir: str, store: RunStore) -> None:
    from diskdoctor.probes.engine.workloads import WORKLOADS

    # a new workload needs a saved-run kind and this test (rocksdb: the store beside interference's WAL)
    assert set(KIND_RUNS) | {"wal", "rocksdb"} == set(WORKLOADS)
    for kind, options in KIND_RUNS.items():
        result = run_cli("bench", kind, "--dir", tmpfs_dir, *options)
        assert result.code == 0, result.err
        assert f"bench {kind}: saved as run " in result.err
    runs = {run.kind: run for run in store.scan().runs}
    for kind, run in runs.items():
        workload = WORKLOADS[kind]
        assert isinstance(run.params, workload.params_type) and isinstance(run.result, workload.result_type)
        assert run.kind_info.metrics(run.record)
        shown = run_cli("runs", "show", run.id, "--plot")
        assert shown.code == 0 and shown.out.startswith(f"run       {run.id}"), shown.err
    assert runs["interference"].verdict().passed  # type: ignore[union-attr]
    assert_one_line_error(run_cli("runs", "compare", runs["compaction"].id, runs["randwrite"].id),
                          "only runs of the same kind can be compared")
    again = run_cli("bench", "compaction", "--dir", tmpfs_dir, "--duration", "0.5")
    assert again.code == 0
    compared = run_cli("runs", "compare", runs["compaction"].id, "latest")
    assert compared.code in (0, 1) and "write MB/s" in compared.out and "read MB/s" in compared.out


def test_no_home_and_no_xdg_state_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bare chroot or container (no HOME, a uid without a passwd entry): saving and listing say why."""
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)

    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(Path, "home", staticmethod(no_home))
    saved, message = save_run(saved_run().record)
    assert saved is None and message == "no folder for saved runs: neither XDG_STATE_HOME nor HOME is set"
    if os.geteuid() == 0:  # the real thing: a uid without a passwd entry and no HOME
        monkeypatch.delenv("HOME", raising=False)
        assert_one_line_error(run_cli("runs", "list", user=54_321), "no folder for saved runs")


def test_compare_latest_previous_takes_the_previous_run_of_the_same_kind(store: RunStore) -> None:
    from diskdoctor.probes.engine.workloads.compaction import CompactionParams
    from support.runs_support import kind_run

    older = store.save(saved_run(20))
    store.save(kind_run("compaction", CompactionParams(), 21))
    newest = store.save(saved_run(22, slow_ms=2.1))
    result = run_cli("runs", "compare", "latest", "previous")
    assert result.code == 0, result.err
    assert f"baseline  {older.id}" in result.out and f"candidate {newest.id}" in result.out
    alone = run_cli("runs", "compare", older.id, "previous")
    assert_one_line_error(alone, f"there is no wal run before {older.id}")


def _two_load_run(day: int, judged: float, fast_ms: float, slow_ms: dict[float, float],
                  rates: tuple[float, ...] = (50.0, 500.0)) -> SavedRun:
    """A WAL run with open-loop levels at `rates` (p99 `slow_ms[rate]`), its verdict citing `judged`."""
    from diskdoctor.probes.engine.workloads.wal import WalLevel
    from diskdoctor.probes.latency_histogram import LatencyHistogram
    from support.runs_support import histogram

    levels = []
    for rate in rates:
        whole = histogram(int(fast_ms * 1e6), int(slow_ms[rate] * 1e6))
        levels.append(WalLevel(rate, "steady", whole.count, whole.count, whole.count / rate, whole, whole,
                               whole, LatencyHistogram(), scheduled_s=whole.count / rate))
    result = WalResult.of_levels(levels)
    result = result.judged_at(next(level for level in levels if level.rate == judged))
    return saved_run(day, result=result)


def test_runs_judged_at_different_loads_are_compared_at_every_load() -> None:
    """Issue (newuser5 #1): a 50/s-judged run against a 500/s-judged one put 500/s figures under "at 50
    writes/s" and called the higher configured rate "ops/s +900% better". Issue 23 (newuser7 #4): the
    comparison then kept only one load, so a run that FAILed at 500/s was compared at 50/s alone."""
    base = _two_load_run(20, 50.0, 0.8, {50.0: 2.7, 500.0: 9.0})
    cand = _two_load_run(21, 500.0, 0.5, {50.0: 2.8, 500.0: 29.8})
    comparison = compare_runs(base, cand)
    p99s = [delta for delta in comparison.deltas if delta.key.startswith("sync_p99@")]
    # every load both measured, the load the newer verdict judged first, each figure against its own load
    assert [delta.key for delta in p99s] == ["sync_p99@500/s steady", "sync_p99@50/s steady"]
    assert p99s[0].after == pytest.approx(29.8, rel=0.02) and p99s[1].after == pytest.approx(2.8, rel=0.02)
    assert all(delta.judged for delta in p99s)
    assert comparison.judged_loads == ["500 writes/s, steady", "50 writes/s, steady"]
    ops = [delta for delta in comparison.deltas if delta.key.startswith("ops_per_s")]
    assert all(delta.percent == pytest.approx(0, abs=1) and not delta.improvement for delta in ops)
    lines = compare_lines(comparison)
    text = "\n".join(lines)
    assert "×10.0" not in text and "better" not in text
    # newuser12 #1: each run judged a different load, so each heading says whose verdict judged it
    heading = lines.index("  at 500 writes/s, steady (judged by the candidate's verdict)")
    assert "  at 50 writes/s, steady (judged by the baseline's verdict)" in lines
    assert comparison.judged_by == {"500 writes/s, steady": "candidate", "50 writes/s, steady": "baseline"}
    assert lines[heading + 3].split()[:4] == ["p99", "fdatasync", "from", "due"]  # the heading names the load
    assert "p99 fdatasync from due at 500 writes/s, steady ×3.31" in text  # the conclusion names its load
    assert comparison.not_comparable() is None
    summary = compare_lines(comparison, judged_only=True)[:14]  # the TRIM guide's before/after summary
    assert any(line.startswith("not flagged: p99 fdatasync from due at 500") for line in summary), summary


def test_runs_compare_names_the_loads_only_one_run_measured(store: RunStore) -> None:
    """Issue 23 (newuser7 #4): the 500/s load of a run that failed there was silently left out."""
    base = store.save(_two_load_run(20, 50.0, 0.8, {50.0: 2.7}, rates=(50.0,)))
    cand = store.save(_two_load_run(21, 500.0, 0.5, {50.0: 2.8, 500.0: 29.8}))
    result = run_cli("runs", "compare", base.id, cand.id)
    assert result.code == 0, result.err
    short = cand.id.rsplit("-", 1)[-1]
    assert (f"not compared, measured by one run only: 500 writes/s, steady: only in the candidate, {short}"
            in result.out.splitlines())
    assert ("p99 fdatasync from due and ops/s at 50 writes/s, steady, the judged metrics, changed by less "
            "than 20%") in result.out
    document = json.loads(run_cli("runs", "compare", base.id, cand.id, "--json").out)  # fits its schema
    assert document["only_in"] == [{"load": "500 writes/s, steady", "side": "candidate", "run": cand.id}]
    assert {m["key"] for m in document["metrics"]} >= {"sync_p99@50/s steady", "ops_per_s@50/s steady"}
    assert all(m["load"] == "50 writes/s, steady" for m in document["metrics"])


def test_runs_compare_shows_the_capacity_never_flagged() -> None:
    """The closed loop (capacity) of two runs is compared last, named, and never flagged."""
    from diskdoctor.probes.engine.workloads.wal import WalLevel
    from support.runs_support import histogram

    def with_capacity(day: int, slow_ms: float) -> SavedRun:
        run = _two_load_run(day, 500.0, 0.5, {50.0: 2.0, 500.0: 5.0})
        whole = histogram(100_000, int(slow_ms * 1e6))
        capacity = WalLevel(None, "closed", whole.count, whole.count, 1.0, whole, whole, whole, whole)
        run.record.result.levels.append(capacity)  # type: ignore[attr-defined]
        return run

    comparison = compare_runs(with_capacity(20, 1.0), with_capacity(21, 9.0))
    capacity = [delta for delta in comparison.deltas if delta.key.endswith("@capacity")]
    assert capacity and comparison.deltas[-1] in capacity  # after every rate
    p99 = next(delta for delta in capacity if delta.key == "sync_p99@capacity")
    assert p99.label == "p99 write+fdatasync at capacity" and p99.percent == pytest.approx(800, rel=0.05)
    assert not p99.judged and not p99.regression and not comparison.regressed
    assert "  closed loop (capacity), not judged" in compare_lines(comparison)


def test_runs_without_a_shared_load_are_not_compared() -> None:
    base = _two_load_run(20, 50.0, 0.8, {50.0: 2.7}, rates=(50.0,))
    cand = _two_load_run(21, 500.0, 0.5, {500.0: 9.8}, rates=(500.0,))
    comparison = compare_runs(base, cand)
    assert comparison.deltas == [] and not comparison.flags()
    note = comparison.not_comparable()
    assert note is not None and "the loads differ, so nothing is compared" in note
    assert f"50 writes/s, steady: only in the baseline, {base.id.rsplit('-', 1)[-1]}" in note
    assert "500 writes/s, steady: only in the candidate" in note
    assert "better" not in "\n".join(compare_lines(comparison))


def test_every_change_is_said_as_a_ratio() -> None:
    """newuser12 #9: `+64004%` read worse than `×641`; newuser17 #13: `×5.4` beside `+155%` read as two
    scales in one column. Every change is one factor in every comparison row, flag line and `runs compare`
    text: a rise as ×, a drop as ÷ (newuser21 #13), its decimal point in one column."""
    from diskdoctor.app.core.runs.compare import MetricDelta

    def text(before: float, after: float) -> str:
        return MetricDelta("p99", "p99 write+fdatasync", "ms", before, after, True, True).ratio_text()

    assert text(0.00622, 3.99) == "×641" and text(2.0, 6.8) == "×3.40"
    assert text(1.0, 3.0) == "×3.00" and text(1.0, 2.4) == "×2.40" and text(2.0, 1.0) == "÷2.00"
    assert text(1.0, 40.0) == "×40.0" and text(1.0, 2000.0) == "×2,000" and text(1.0, 0.0049) == "÷204"
    assert text(1.0, 0.998) == "×1.00" == text(1.0, 1.002)  # newuser15: no `-0%` beside `+0%`
    assert text(1.0, 1.196) == "×1.19" and text(1.0, 0.801) == "÷1.24"  # under the 20% flag, never at it
    assert text(1.0, 1.21) == "×1.21" and text(0.0, 1.0) == "-"
