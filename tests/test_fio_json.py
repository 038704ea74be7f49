"""fio's JSON as fio 3.x writes it: a committed real sample, and fresh output from the installed fio."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import FIXTURES
from diskdoctor.probes.fio_json import FioOutputError, parse_fio_json
from diskdoctor.probes.fio_run import run_fio
from diskdoctor.probes.wal_params import PROFILES, WalParams, fio_argv, fio_command
from diskdoctor.probes.wal_target import leftover_scratch

SAMPLE = FIXTURES / "fio" / "etcd-fdatasync-1m-fio-3.33.json"
needs_fio = pytest.mark.skipif(shutil.which("fio") is None, reason="fio is not installed")


def test_committed_fio_333_sample() -> None:
    stats = parse_fio_json(SAMPLE.read_text())
    assert stats.version == "fio-3.33" and stats.metric == "sync"
    assert stats.samples == 455 == stats.writes  # lat_ns.N, while sync.total_ios is 0 in this file
    assert stats.percentiles_ns[99.0] == 305152 and stats.percentile_us(99.0) == 305.152
    assert sorted(stats.percentiles_ns)[0] == 1.0 and sorted(stats.percentiles_ns)[-1] == 99.99
    assert round(stats.ops_per_s) == 4789


def test_warnings_before_json_and_concatenated_reports() -> None:
    text = SAMPLE.read_text()
    stats = parse_fio_json("fio: some warning line\n" + text + text)
    assert stats.samples == 455


@pytest.mark.parametrize("text", ["", "fio: failed to open file", '{"fio version": "x", "jobs": []}',
                                  '{"jobs": [{"sync": {}}]}'])
def test_unusable_output_is_one_clear_error(text: str) -> None:
    with pytest.raises(FioOutputError):
        parse_fio_json(text)


def test_canonical_etcd_command() -> None:
    assert fio_command(PROFILES["etcd"], "test-data") == (
        "fio --rw=write --ioengine=sync --fdatasync=1 --directory=test-data --size=22m --bs=2300 "
        "--name=mytest")
    argv = fio_argv(WalParams(profile="custom", bs=8192, size=1 << 20, duration_s=5, sync="dsync",
                              prealloc=False), "/d", json_output=True)
    assert argv[3] == "--sync=dsync" and "--bs=8k" in argv and "--fallocate=none" in argv
    assert argv[-3:] == ["--runtime=5s", "--name=mytest", "--output-format=json"]


@needs_fio
@pytest.mark.parametrize("sync", ["fdatasync", "fsync", "dsync"])
def test_parser_on_fresh_fio_output(tmp_path: Path, sync: str) -> None:
    params = WalParams(profile="custom", bs=4096, size=64 << 10, sync=sync)
    out = subprocess.run(fio_argv(params, str(tmp_path), json_output=True), capture_output=True, text=True,
                         check=True).stdout
    stats = parse_fio_json(out)
    assert stats.writes == 16
    # fio does not time the sync after the last write when size is a multiple of bs: N is 15 then
    assert stats.samples == (16 if sync == "dsync" else 15)
    assert stats.metric == ("write (O_DSYNC)" if sync == "dsync" else "sync")
    # fio reports its own bucket values: a percentile may sit a little above the exact max
    assert 0 < stats.min_ns <= stats.percentiles_ns[99.0] <= stats.max_ns * 1.05


@needs_fio
def test_run_fio_uses_and_removes_a_scratch_dir(tmp_path: Path) -> None:
    stats = run_fio(WalParams(profile="custom", bs=2300, size=128 << 10), str(tmp_path))
    assert stats.samples == (128 << 10) // 2300
    assert list(tmp_path.iterdir()) == [] and leftover_scratch(str(tmp_path)) == []
