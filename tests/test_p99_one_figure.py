"""One run, one p99: the Runs list, Advice and the Benchmark show the same figure (newuser24 #9)."""

from __future__ import annotations

from pathlib import Path

from diskdoctor.app.core.bench.context import BenchContext
from diskdoctor.app.core.bench.rules import judged_ms, wal_p99
from diskdoctor.app.core.runs.store import RunStore
from diskdoctor.app.text.runs import headline_parts

RUNS = Path(__file__).parent / "fixtures" / "runs-p99-rounding"
"""Run 4348: its p99 is 3.8748 ms (3874.816 µs), saved in the verdict as `value_ms` 3.875."""


def test_the_runs_list_shows_the_benchmarks_figure_not_the_rounded_json() -> None:
    run = RunStore(RUNS).find("4348")
    assert run.record.verdict().line().startswith("p99 fdatasync from due at 50/s steady 3.87 ms,")
    assert headline_parts(run)[0] == ("INCONCLUSIVE p99 3.87 ms", 0)  # was 3.88 ms: 3.875 rounded again


def test_advice_cites_the_same_figure() -> None:
    run = RunStore(RUNS).find("4348")
    document = run.record.to_json()
    assert document["verdict"]["value_ms"] == 3.875  # the stored figure stays as it was
    assert round(judged_ms(document) or 0, 6) == 3.874816
    finding = next(iter(wal_p99(BenchContext(document, "run 4348"))))
    assert finding.evidence[0].value == "3.87 ms"
