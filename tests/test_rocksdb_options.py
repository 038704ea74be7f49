"""`bench interference` beside real RocksDB: OPTIONS files (`--rocksdb-options`) and the store's knobs.

The fixtures are real OPTIONS files: written by Debian's db_bench 7.8.3 (its defaults, and the small
memtables bench/calibrate_rocksdb.py uses) and by RocksDB 9.8.4 through rocksdict (its defaults, and a
tuned store with two column families). The runs start real RocksDB (rocksdict) in the store's engine child."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from diskdoctor.probes.rocksdb_options import RocksdbOptionsError, load_options, parse_options_text
from support.cli_runner import run_cli
from support.wal_support import tmpfs_dir

__all__ = ["tmpfs_dir"]
FIXTURES = Path(__file__).parent / "fixtures" / "rocksdb"
MIB = 1 << 20
QUICK = ["--duration", "1", "--no-save", "--json"]


def small_options(tmp_path: Path, **changes: str) -> Path:
    """The calibration fixture with 1 MiB memtables and files and a 4 MiB L1 (a store that flushes and
    compacts within a second), plus `changes`."""
    text = (FIXTURES / "db_bench-7.8.3-calibration.OPTIONS").read_text()
    text = text.replace("write_buffer_size=8388608", "write_buffer_size=1048576")
    text = text.replace("target_file_size_base=8388608", "target_file_size_base=1048576")
    text = text.replace("max_bytes_for_level_base=33554432", "max_bytes_for_level_base=4194304")
    for name, value in changes.items():
        text = "\n".join(f"  {name}={value}" if line.strip().startswith(f"{name}=") else line
                         for line in text.splitlines())
    path = tmp_path / "OPTIONS-000007"
    path.write_text(text)
    return path


def test_db_bench_options_are_read_as_written() -> None:
    found = load_options(str(FIXTURES / "db_bench-7.8.3-calibration.OPTIONS"))
    assert found.version == "7.8.3" and found.column_family == "default" and found.notes == []
    assert found.values["jobs"] == 2 and found.values["bytes_per_sync"] == 0
    assert found.values["write_buffer_size"] == 8 * MIB and found.values["level_base"] == 32 * MIB
    assert "[DBOptions]" in found.text


def test_rocksdb_9_defaults_and_a_tuned_store_with_two_column_families() -> None:
    defaults = load_options(str(FIXTURES / "rocksdb-9.8.4-defaults.OPTIONS"))
    assert defaults.values["write_buffer_size"] == 64 * MIB and defaults.values["level_base"] == 256 * MIB
    assert any("kSnappyCompression" in note for note in defaults.notes)
    tuned = load_options(str(FIXTURES / "rocksdb-9.8.4-tuned-two-cfs.OPTIONS"))
    assert tuned.values["jobs"] == 4 and tuned.values["bytes_per_sync"] == MIB
    assert "2 column families in the file; the store writes only 'default'" in tuned.notes


@pytest.mark.parametrize(("text", "why"), [
    ("hello world\n", "File contains no section headers"),
    ('{"bytes_per_sync": 0}\n', "File contains no section headers"),
    ("[DBOptions]\n  bytes_per_sync=0\n", "no [Version] section with rocksdb_version"),
    ("[Version]\n  rocksdb_version=7.8.3\n[CFOptions \"default\"]\n", "no [DBOptions] section"),
    ("[Version]\n  rocksdb_version=7.8.3\n[DBOptions]\n  max_background_jobs=2\n", "no [CFOptions"),
    ("[Version]\n  rocksdb_version=7.8.3\n[DBOptions]\n  bytes_per_sync=lots\n[CFOptions \"default\"]\n",
     "bytes_per_sync='lots' is not a value RocksDB writes for it"),
    ("[Version]\n  rocksdb_version=7.8.3\n[DBOptions]\n[CFOptions \"default\"]\n"
     "  disable_auto_compactions=true\n", "the store would never compact"),
])
def test_text_that_is_not_an_options_file_says_why(text: str, why: str) -> None:
    with pytest.raises(RocksdbOptionsError) as caught:
        parse_options_text("OPTIONS-1", text)
    assert why in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("bad", ["binary", "directory", "missing", "symlink", "huge", "ini"])
def test_a_bad_options_file_is_one_line_exit_2_and_leaves_nothing(tmp_path: Path, bad: str) -> None:
    target = tmp_path / "target"
    target.mkdir()
    path = tmp_path / "OPTIONS-000001"
    if bad == "binary":
        path.write_bytes(os.urandom(512) + b"\xff\xfe")
    elif bad == "directory":
        path.mkdir()
    elif bad == "symlink":
        path.symlink_to(FIXTURES / "db_bench-7.8.3-defaults.OPTIONS")
    elif bad == "huge":
        path.write_bytes(b"#" * (5 << 20))
    elif bad == "ini":
        path.write_text("[section]\nkey=value\n")
    result = run_cli("bench", "interference", "--dir", str(target), "--rocksdb-options", str(path),
                     "--no-save")
    assert result.code == 2, result
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.err, result.err
    assert "OPTIONS" in lines[0] or "options file" in lines[0]
    assert os.listdir(target) == []


def test_real_rocksdb_runs_beside_the_wal_from_an_options_file(tmpfs_dir: str, tmp_path: Path) -> None:
    options = small_options(tmp_path, max_background_jobs="3")
    result = run_cli("bench", "interference", "--dir", tmpfs_dir, "--rocksdb-options", str(options), *QUICK)
    assert result.code in (0, 1, 3), result.err  # a verdict (3: INCONCLUSIVE on a busy host)
    document = json.loads(result.out)  # run_cli checked it against docs/schemas/bench-interference
    compaction = document["compaction"]
    assert compaction["aggressor"] == "rocksdb" and document["params"]["aggressor"] == "rocksdb"
    store = compaction["rocksdb"]
    assert store["version"].startswith("9.") and store["puts"] > 0
    assert store["options"]["max_background_jobs"] == 3 and store["options"]["write_buffer_size"] == MIB
    assert compaction["jobs"] == 3 and compaction["bytes_written"] > 0 and compaction["write_mb_s"] > 0
    assert document["params"]["store"]["options_file"] == str(options)
    assert os.listdir(tmpfs_dir) == []


def test_knobs_reach_rocksdb_and_override_the_file(tmpfs_dir: str, tmp_path: Path) -> None:
    options = small_options(tmp_path, max_background_jobs="4")
    result = run_cli("bench", "interference", "--dir", tmpfs_dir, "--rocksdb-options", str(options),
                     "--background-jobs", "2", "--bytes-per-sync", "256k", "--rate-limit-mb-s", "200",
                     "--ingest-mb-s", "5", *QUICK)
    assert result.code in (0, 1, 3), result.err
    store = json.loads(result.out)["compaction"]["rocksdb"]
    assert store["options"]["max_background_jobs"] == 2 and store["options"]["bytes_per_sync"] == 256 << 10
    # puts paced at 5 MB/s of 116-byte entries: about 43,000 a second, never far above
    assert store["puts"] / store["seconds"] < 60_000


def test_summary_names_real_rocksdb_and_the_model_is_labelled(tmpfs_dir: str, tmp_path: Path) -> None:
    options = small_options(tmp_path)
    real = run_cli("bench", "interference", "--dir", tmpfs_dir, "--rocksdb-options", str(options),
                   "--duration", "1", "--no-save")
    assert "beside    real RocksDB 9." in real.out and f"options of {options}" in real.out, real.out
    model = run_cli("bench", "interference", "--dir", tmpfs_dir, "--aggressor", "model", "--jobs", "1",
                    "--file-size", "2m", "--duration", "1", "--no-save")
    assert "the compaction model (1 job, not calibrated against RocksDB)" in model.out, model.out
    both = run_cli("bench", "interference", "--dir", tmpfs_dir, "--aggressor", "model", "--rocksdb-options",
                   str(options), "--no-save")
    assert both.code == 2 and "cannot go with --aggressor model" in both.err


def test_rocksdb_is_imported_only_by_the_store_child() -> None:
    code = ("import sys, diskdoctor.app.cli.main, diskdoctor.probes.engine.workloads as w; "
            "print('rocksdict' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def cli_without_rocksdict(*args: str) -> subprocess.CompletedProcess[str]:
    """The CLI in an interpreter where `import rocksdict` fails (as on a host without it)."""
    code = ("import runpy, sys; sys.modules['rocksdict'] = None; sys.argv = ['diskdoctor', *sys.argv[1:]]; "
            "runpy.run_module('diskdoctor.app', run_name='__main__')")
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120,
                          check=False, stdin=subprocess.DEVNULL)


def test_without_rocksdict_the_model_runs_labelled_and_asking_for_rocksdb_is_one_line(tmpfs_dir: str) -> None:
    model = cli_without_rocksdict("bench", "interference", "--dir", tmpfs_dir, "--jobs", "1", "--file-size",
                                  "2m", "--duration", "0.5", "--no-save")
    assert model.returncode in (0, 1, 3), model.stderr  # 3: 250 writes are too few to settle a p99
    assert "beside    the compaction model (1 job, not calibrated against RocksDB)" in model.stdout
    defaults = str(FIXTURES / "rocksdb-9.8.4-defaults.OPTIONS")
    for extra in (["--aggressor", "rocksdb"], ["--rocksdb-options", defaults]):
        asked = cli_without_rocksdict("bench", "interference", "--dir", tmpfs_dir, *extra, "--no-save")
        assert asked.returncode == 2 and "Traceback" not in asked.stderr, asked.stderr
        assert asked.stderr.strip().endswith("--aggressor model runs the compaction model instead")
    assert os.listdir(tmpfs_dir) == []


def test_a_run_saved_before_the_real_store_reads_as_the_model() -> None:
    from diskdoctor.app.core.bench.interference import summary_lines
    from diskdoctor.probes.engine.workloads.interference import InterferenceParams
    from support.runs_support import kind_run

    old = InterferenceParams().to_json()
    del old["store"], old["aggressor"]
    params = InterferenceParams.from_json(old)
    assert params.aggressor == "model"
    run = kind_run("interference", params, 21)
    assert any(line.startswith("beside    the compaction model (") for line in summary_lines(run.record))
