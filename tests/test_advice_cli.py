"""`diskdoctor advise` end to end: text at 80 columns, the JSON document, exit codes, bad input."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import fixture_root
from support.cli_runner import assert_one_line_error, run_cli

FIXTURES = Path(__file__).parent / "fixtures"
FINDING_KEYS = {"id", "severity", "subject", "title", "evidence", "why", "fix", "risk", "verify"}


def test_json_document_has_the_documented_shape_and_order() -> None:
    result = run_cli("advise", "--json", "--sysroot", str(FIXTURES / "lab-ssd"))
    assert result.code == 1
    findings = json.loads(result.out)["findings"]
    assert findings and all(set(f) == FINDING_KEYS for f in findings)
    assert all(set(e) == {"what", "value", "source"} for f in findings for e in f["evidence"])
    assert all(f["severity"] in ("info", "warn", "crit") for f in findings)
    subjects = [f["subject"] for f in findings]
    assert subjects == sorted(subjects, key=subjects.index)  # grouped: a subject never comes back
    crypt = next(f for f in findings if f["id"] == "TRIM-CRYPT-OFF" and f["subject"] == "/lab/luks1")
    assert crypt["fix"][0] == "cryptsetup refresh --allow-discards luks1"


def test_text_fits_80_columns_when_piped_and_keeps_commands_whole() -> None:
    result = run_cli("advise", "--sysroot", str(FIXTURES / "etcd-raid0-lvm-luks"))
    assert result.code == 1
    lines = result.out.splitlines()
    assert lines[0] == "diskdoctor advise: capture etcd-raid0-lvm-luks · kernel 6.1.0-26-amd64"
    assert "\x1b" not in result.out
    prose = [line for line in lines if not line.lstrip().startswith(("fix ", "verify "))]
    assert max(len(line) for line in prose) <= 80
    assert "    fix       cryptsetup refresh --allow-discards --persistent luks-etcd" in lines
    assert lines[-1] == "3 findings: 2 warn, 1 info"


def test_bench_results_join_the_findings(tmp_path: Path) -> None:
    result_file = tmp_path / "wal.json"
    result_file.write_text(json.dumps({"target": {"dir": "/var/lib/etcd/x", "mountpoint": "/var/lib/etcd"},
                                       "samples": 100, "sync_latency_us": {"p99": 25000.0}}))
    result = run_cli("advise", "--json", "--bench", str(result_file), "--sysroot",
                     str(FIXTURES / "etcd-raid0-lvm-luks"))
    wal = next(f for f in json.loads(result.out)["findings"] if f["id"] == "ETCD-FSYNC-P99")
    assert wal["severity"] == "crit" and wal["subject"] == "/var/lib/etcd"


def test_bad_bench_files_are_one_line_errors(tmp_path: Path) -> None:
    root = str(fixture_root("etcd-raid0-lvm-luks").path)
    (tmp_path / "junk.json").write_text("{not json")
    (tmp_path / "other.json").write_text('{"devices": []}')
    (tmp_path / "randwrite.json").write_text(json.dumps({"workload": "randwrite", "samples": 10,
                                                         "sync_latency_us": {"p99": 25000.0}}))
    for name, words in (("junk.json", "not JSON"), ("other.json", "not a `bench wal --json`"),
                        ("missing.json", "cannot read"),
                        ("randwrite.json", "a randwrite result; the advisor judges wal and interference")):
        result = run_cli("advise", "--bench", str(tmp_path / name), "--sysroot", root)
        assert_one_line_error(result, words)


def test_saved_runs_are_bench_input_by_file_or_id(tmp_path: Path, private_state_dir: Path) -> None:
    from diskdoctor.app.core.runs.store import RunStore, default_runs_dir
    from support.runs_support import saved_run

    run = RunStore(default_runs_dir()).save(saved_run(20, slow_ms=25.0))
    shown = run_cli("runs", "show", run.id, "--json")
    (tmp_path / "run.json").write_text(shown.out)
    root = str(FIXTURES / "etcd-raid0-lvm-luks")
    for given in (str(tmp_path / "run.json"), run.id):
        result = run_cli("advise", "--json", "--bench", given, "--sysroot", root)
        assert result.code in (0, 1), result.err
        wal = next(f for f in json.loads(result.out)["findings"] if f["id"] == "ETCD-FSYNC-P99")
        assert wal["severity"] == "crit" and f"run {run.id}" in json.dumps(wal)
    assert_one_line_error(run_cli("advise", "--bench", "nosuchrun", "--sysroot", root), "no saved run")


def test_a_data_directory_that_does_not_exist_is_refused() -> None:
    result = run_cli("advise", "--data", "/nonexistent", "--sysroot", str(FIXTURES / "etcd-raid0-lvm-luks"))
    assert_one_line_error(result, "--data /nonexistent: no such directory")
    assert result.code == 2


def test_a_randwrite_result_is_never_judged_as_etcd_s_wal(tmp_path: Path) -> None:
    """A 4 KiB random-write run has a sync p99 too, but etcd's WAL verdicts do not apply to it."""
    from diskdoctor.app.core.advice.contexts import BenchContext
    from diskdoctor.app.core.bench.rules import wal_p99

    randwrite = {"workload": "randwrite", "samples": 10, "sync_latency_us": {"p99": 25000.0}}
    assert list(wal_p99(BenchContext(randwrite, "run x"))) == []
    as_wal = BenchContext({**randwrite, "workload": "wal"}, "run x")
    assert [finding.id for finding in wal_p99(as_wal)] == ["ETCD-FSYNC-P99"]
