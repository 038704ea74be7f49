"""A finding's verify line repeats the run like for like: same directory, sizes, duration, threshold."""

from __future__ import annotations

import subprocess

from diskdoctor.app.core.bench.rerun import rerun_command


def wal(params: dict[str, object], verdict: dict[str, object] | None = None) -> dict[str, object]:
    return {"workload": "wal", "target": {"dir": "/var/lib/etcd/x"}, "params": params,
            "verdict": verdict or {"threshold_ms": 10.0, "source": "etcd docs threshold"}}


ETCD = {"profile": "etcd", "bs": 2300, "size": 22 << 20, "duration_s": None, "sync": "fdatasync",
        "prealloc": True}


def test_etcd_defaults_need_no_options() -> None:
    assert rerun_command(wal(ETCD)) == "diskdoctor bench wal --dir /var/lib/etcd/x"


def test_a_custom_run_and_threshold_are_repeated() -> None:
    custom = {**ETCD, "profile": "custom", "bs": 8192, "size": 4 << 20, "sync": "fsync", "prealloc": False}
    command = rerun_command(wal(custom, {"threshold_ms": 0.01, "source": "custom threshold"}))
    assert command == ("diskdoctor bench wal --dir /var/lib/etcd/x --bs 8k --size 4m --sync fsync "
                       "--no-prealloc --threshold-ms 0.01")
    timed = rerun_command(wal({**ETCD, "profile": "postgres-wal", "bs": 8192, "duration_s": 30.0}))
    assert timed == "diskdoctor bench wal --dir /var/lib/etcd/x --profile postgres-wal --duration 30s"


def test_an_interference_run_keeps_its_compaction_shape() -> None:
    document = {"target": {"dir": "/data"}, "alone": wal(ETCD), "under_compaction": wal(ETCD),
                "params": {"wal": {**ETCD, "duration_s": 4.0},
                           "compaction": {"jobs": 2, "inputs": 2, "file_size": 16 << 20}}}
    assert rerun_command(document) == ("diskdoctor bench interference --dir /data --duration 4s "
                                       "--aggressor model --inputs 2 --file-size 16m")


def test_an_interference_run_beside_real_rocksdb_keeps_its_store_options() -> None:
    store = {"background_jobs": 4, "bytes_per_sync": 0, "rate_limit_mb_s": 50.0, "direct_io": True,
             "ingest_mb_s": None, "options_file": "/var/lib/db/OPTIONS-000012"}
    document = {"target": {"dir": "/data"}, "alone": wal(ETCD), "under_compaction": wal(ETCD),
                "params": {"wal": ETCD, "compaction": {"jobs": 2}, "store": store, "aggressor": "rocksdb"}}
    assert rerun_command(document) == (
        "diskdoctor bench interference --dir /data --rocksdb-options /var/lib/db/OPTIONS-000012 "
        "--background-jobs 4 --bytes-per-sync 0 --rate-limit-mb-s 50 --direct-io")


def test_a_hostile_directory_is_one_quoted_word() -> None:
    document = wal(ETCD)
    document["target"] = {"dir": "/mnt/x; rm -rf /\x1b[2J"}
    command = rerun_command(document)
    assert "\x1b" not in command  # printable, and bash's $'...' gives the program the real name
    words = subprocess.run(["bash", "-c", "printf '%s\\0' " + command], capture_output=True,
                           check=True).stdout.split(b"\0")[:-1]
    assert words == [b"diskdoctor", b"bench", b"wal", b"--dir", b"/mnt/x; rm -rf /\x1b[2J"]


def test_an_inconclusive_verdicts_verify_is_the_longer_run_not_the_inconclusive_one() -> None:
    """Issue 23 (newuser7 #5): Fix said `--duration 10s` and Verify `--duration 5s`, the very run that was
    inconclusive; Verify is the longer run whose verdict settles it."""
    from diskdoctor.app.core.bench.rules import inconclusive_finding

    document = wal({**ETCD, "profile": "custom", "duration_s": 5.0})
    settle = "a run about 5 s longer (about 10 s per load) would settle it"
    finding = inconclusive_finding("ETCD-FSYNC-P99", "/var/lib/etcd/x", "WAL p99", 10.0, (), settle, document)
    longer = "diskdoctor bench wal --dir /var/lib/etcd/x --duration 10s"
    assert [line.split("   #")[0] for line in finding.fix] == [longer]
    assert [line.split("   #")[0] for line in finding.verify] == [longer]
    assert "--duration 5s" not in " ".join(finding.verify)
    assert "PASS or FAIL" in finding.verify[0]
