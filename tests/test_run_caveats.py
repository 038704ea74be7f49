"""Saved runs say what their verdicts cannot see: runs saved before the open-loop WAL test still open and
name the closed-loop model that made them, compare refuses to set the two models side by side, and a
comparison says when one run was taken on a busy host and the other on a quiet one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from support.cli_runner import assert_one_line_error, run_cli
from support.run_fuzz import SAVED_RUNS
from support.wal_support import tmpfs_dir

__all__ = ["tmpfs_dir"]
OLD_WAL = "20261125-142844-wal-0db9"
MODEL_LINE = ("model     closed-loop model (saved before diskdoctor's open-loop WAL test): its figures are "
              "not comparable with open-loop figures and are milder than what etcd waits")


def _runs_dir(state: Path) -> Path:
    runs = state / "diskdoctor" / "runs"
    runs.mkdir(parents=True, exist_ok=True)
    return runs


def _old_runs(state: Path) -> Path:
    """The committed run files of every kind, saved before the open-loop WAL test, in the runs folder."""
    runs = _runs_dir(state)
    for path in SAVED_RUNS.glob("*.json"):
        shutil.copy(path, runs / path.name)
    return runs


def test_old_runs_open_everywhere_and_name_their_model(private_state_dir: Path) -> None:
    _old_runs(private_state_dir)
    listing = run_cli("runs", "list")
    assert listing.code == 0 and listing.err == ""
    [row] = [line for line in listing.out.splitlines() if line.startswith(OLD_WAL)]
    assert "FAIL p99 fsync 19.7 ms ≥ 10 ms" in row and "[closed-loop model]" in row and "[host busy]" in row
    runs = {run["id"]: run for run in json.loads(run_cli("runs", "list", "--json").out)["runs"]}
    assert runs[OLD_WAL]["caveats"]["model"] == "closed loop"
    assert runs[OLD_WAL]["caveats"]["model_note"] == MODEL_LINE.removeprefix("model     ")
    shown = run_cli("runs", "show", OLD_WAL).out.splitlines()
    verdict = next(i for i, line in enumerate(shown) if line.startswith("verdict   FAIL"))
    under = shown[verdict + 1:verdict + 4]  # right under the verdict (with the note that it has no interval)
    assert MODEL_LINE in under
    assert any(line.startswith("host load BUSY during the run: other processes used 53% of the CPUs")
               for line in under)
    report = private_state_dir / "report.md"
    assert run_cli("report", "-o", str(report)).code == 0
    text = report.read_text()
    assert "| model | closed-loop model (saved before" in text
    assert "| contention | BUSY during the run" in text
    advised = json.loads(run_cli("advise", "--bench", OLD_WAL, "--json").out)["findings"]
    assert {"ETCD-FSYNC-P99", "BENCH-HOST-BUSY"} <= {f["id"] for f in advised}


def test_the_busy_host_evidence_says_busy_once(private_state_dir: Path) -> None:
    """The wal run's BENCH-HOST-BUSY evidence read "busy host BUSY during the run" (a doubled word): it
    reads "host BUSY during the run" in the bench summary's evidence line and "host: BUSY ..." in advise."""
    from diskdoctor.app.core.bench.verdict import finding_lines, run_findings
    from diskdoctor.app.core.runs.store import RunStore

    _old_runs(private_state_dir)
    run = RunStore().find(OLD_WAL)
    [evidence] = [line for finding in run_findings(run.record) if finding.id == "BENCH-HOST-BUSY"
                  for line in finding_lines(finding) if line.startswith("evidence")]
    assert "; host BUSY during the run: other processes used 53% of the CPUs" in evidence, evidence
    assert "busy host" not in evidence.lower(), evidence
    advised = json.loads(run_cli("advise", "--bench", OLD_WAL, "--json").out)["findings"]
    busy = next(f for f in advised if f["id"] == "BENCH-HOST-BUSY")
    assert [item["what"] for item in busy["evidence"]] == ["host load", "host"]
    assert busy["evidence"][1]["value"].startswith("BUSY during the run: other processes used 53%")
    shown = " ".join(run_cli("advise", "--bench", OLD_WAL).out.split())
    assert "host: BUSY during the run" in shown and "host BUSY" not in shown


def test_compare_refuses_a_closed_loop_run_beside_an_open_loop_one(private_state_dir: Path,
                                                                     tmpfs_dir: str) -> None:
    _old_runs(private_state_dir)
    fresh = run_cli("bench", "wal", "--dir", tmpfs_dir, "--rate", "500", "--duration", "40ms",
                    "--no-capacity", "--threshold-ms", "5000")
    assert fresh.code in (0, 3), fresh.err  # 20 writes: a finished run, too few for a settled p99
    result = run_cli("runs", "compare", OLD_WAL, "latest")
    assert_one_line_error(result, "was made by the closed loop model and run ")
    assert "their figures are not comparable" in result.err and "REGRESSION" not in result.out


def test_compare_says_when_one_run_was_taken_on_a_busy_host(private_state_dir: Path) -> None:
    runs = _runs_dir(private_state_dir)
    busy = json.loads((SAVED_RUNS / f"{OLD_WAL}.json").read_text())
    quiet = json.loads(json.dumps(busy))
    quiet["id"], quiet["saved_at"] = "20261125-150000-wal-0qui", "2026-11-25T15:00:00+00:00"
    quiet["record"]["host"].update(other_cpu=0.01, other_read_bytes=0, other_write_bytes=0, top_io=[],
                                   busy=None)
    (runs / f"{OLD_WAL}.json").write_text(json.dumps(busy))
    (runs / "20261125-150000-wal-0qui.json").write_text(json.dumps(quiet))
    result = run_cli("runs", "compare", OLD_WAL, "0qui")
    assert result.code == 0, result.err
    assert ("contention DIFFERS: the baseline ran on a busy host and the candidate on a quiet one, so part "
            "of the change is the host, not the disk") in result.out.splitlines()
    document = json.loads(run_cli("runs", "compare", OLD_WAL, "0qui", "--json").out)
    assert document["caveats"] == [line for line in result.out.splitlines() if "DIFFERS" in line]
    assert document["contention"]["baseline"].startswith("BUSY during the run")
    assert document["contention"]["candidate"].startswith("quiet during the run")


def test_compare_says_when_both_runs_were_taken_on_a_busy_host(private_state_dir: Path) -> None:
    """Two runs both taken on a busy host: whatever compare finds, it says the load may have moved."""
    runs = _runs_dir(private_state_dir)
    busy = json.loads((SAVED_RUNS / f"{OLD_WAL}.json").read_text())
    later = json.loads(json.dumps(busy))
    later["id"], later["saved_at"] = "20261125-150000-wal-0bsy", "2026-11-25T15:00:00+00:00"
    (runs / f"{OLD_WAL}.json").write_text(json.dumps(busy))
    (runs / "20261125-150000-wal-0bsy.json").write_text(json.dumps(later))
    result = run_cli("runs", "compare", OLD_WAL, "0bsy")
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert any(line.startswith("contention: both runs ran on a busy host") for line in lines)
