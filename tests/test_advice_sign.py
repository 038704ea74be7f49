"""Advice says a verdict over its limit with the sign Benchmark and Runs say it with (newuser19: Advice
`WAL p99 20.1 ms ≥ 10 ms`, Benchmark and Runs `FAIL p99 20.1 ms >= 10 ms`): one constant, units.AT_LEAST."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.base import units
from diskdoctor.app.core.findings.finding import Finding
from diskdoctor.app.core.findings.vocabulary import Severity
from diskdoctor.app.tui.app import DiskDoctorApp
from test_advice_fit import _cells, _listed
from textual.widgets import DataTable

TITLE = "WAL p99 fdatasync from due at 50/s steady is 20.1 ms, at or over the 10 ms threshold"


@pytest.mark.parametrize("sign", [units.AT_LEAST, ">="])
async def test_advice_says_the_verdict_sign_benchmark_and_runs_say(sign: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(units, "AT_LEAST", sign)  # whichever sign the shared verdict text uses, Advice too
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _listed(app, pilot, [Finding("ETCD-FSYNC-P99", Severity.CRIT, "/tmp/x", TITLE)])
        title = _cells(screen.query_one("#advice-table", DataTable), 0)[1]
        assert title.startswith(f"WAL p99 20.1 ms {sign} 10 ms"), title
