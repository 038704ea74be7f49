"""The kinds table: a workload is one engine module and one row, and every part of the app picks it up:
`bench --help` and its options, the JSON document, saved runs, and the Benchmark screen's form."""

from __future__ import annotations

import argparse
import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from diskdoctor.app.cli.main import main
from diskdoctor.app.core.bench import kinds
from diskdoctor.app.core.bench.kind import CliOptions, Form, FormDefaults, Metric, WorkloadKind
from diskdoctor.app.core.bench.record import BenchRecord
from diskdoctor.app.core.runs.record import SavedRun, new_run_id
from diskdoctor.app.core.runs.store import RunStore
from diskdoctor.app.text.runs import list_lines, show_lines
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.engine import workloads
from diskdoctor.probes.root import live_root
from support import toy_workload
from support.runs_support import HOST, STACK
from test_bench_screen import SIZE, open_bench
from textual.widgets import Input, Select


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rate", type=int, default=100, help="pretend calls per second")


def _document(record: object) -> dict[str, object]:
    params, target, result = record.params, record.target, record.result  # type: ignore[attr-defined]
    return {"workload": "toy", "params": params.to_json(), "target": target.to_json(), **result.to_json()}


def _metrics(record: object) -> list[Metric]:
    calls = record.result.calls  # type: ignore[attr-defined]
    return [Metric("toy_p99", "p99 toy call", "ms", calls.percentile(99.0) / 1e6, judged=True)]


TOY = WorkloadKind(
    workloads.Workload("toy", toy_workload.ToyParams, toy_workload.ToyResult, toy_workload.run),
    "toy call latency", _document, lambda _record: None, lambda record: ["toy: 100 pretend calls"],
    _metrics, lambda _record: [], lambda record: f"rate {record.params.rate}/s", lambda _data: None,
    CliOptions("a toy workload that times nothing", "Pretend calls, for the kinds-table test.", _options,
               lambda args: toy_workload.ToyParams(args.rate)),
    Form((("toy calls", "toy"),), lambda _choice: FormDefaults("1", "7m", "3", ("none",), "none", "jobs"),
         lambda values, _wal: toy_workload.ToyParams(int(values.jobs)), lambda _params: "sync",
         lambda _params: "toy call"),
    record_schema={"type": "object", "required": ["workload", "params", "calls"],
                   "properties": {"params": {"type": "object", "properties": {"rate": {"type": "integer"}}}}})


@pytest.fixture
def toy_kind(monkeypatch: pytest.MonkeyPatch) -> Iterator[WorkloadKind]:
    monkeypatch.setitem(kinds.KINDS, "toy", TOY)
    monkeypatch.setitem(workloads.WORKLOADS, "toy", TOY.engine)
    yield TOY


def _record() -> BenchRecord:
    params = toy_workload.ToyParams(100)
    return BenchRecord("toy", params, STACK.target, toy_workload.run(params, None))


def test_the_cli_offers_a_registered_kind_with_its_options(toy_kind: WorkloadKind,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    for argv, expected in ((["bench", "--help"], "a toy workload that times nothing"),
                           (["bench", "toy", "--help"], "--rate")):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 0
        assert expected in capsys.readouterr().out


def test_a_registered_kinds_record_is_its_json_document_and_back(toy_kind: WorkloadKind) -> None:
    record = _record()
    document = record.to_json()
    assert document["workload"] == "toy" and document["params"] == {"rate": 100}
    again = BenchRecord.from_json(json.loads(json.dumps(document)))
    assert again.params == record.params and again.result.calls.count == 100
    assert record.summary_lines() == record.detail_lines() == ["toy: 100 pretend calls"]
    assert record.verdict() is None and not toy_kind.judged


def test_a_registered_kind_is_saved_listed_and_shown(toy_kind: WorkloadKind, tmp_path: Path) -> None:
    saved_at = dt.datetime(2026, 11, 20, 14, 30, tzinfo=dt.timezone.utc)
    store = RunStore(tmp_path)
    store.save(SavedRun(new_run_id("toy", saved_at), "toy", saved_at, HOST, STACK, _record()))
    [run] = store.scan().runs
    assert run.kind == "toy" and run.kind_info is toy_kind
    assert any("toy" in line for line in list_lines([run]))
    shown = "\n".join(show_lines(run))
    assert "p99 toy call" in shown and "rate 100/s" in shown


async def test_the_benchmark_form_offers_a_registered_kind(toy_kind: WorkloadKind) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_bench(app, pilot)
        profile = screen.query_one("#bench-profile", Select)
        assert "toy" in [value for _, value in profile._options]
        profile.value = "toy"
        await pilot.pause()
        assert screen.query_one("#bench-size", Input).value == "7 MiB"  # the form shows a size with its unit
        assert screen.query_one("#bench-duration", Input).value == "3"
