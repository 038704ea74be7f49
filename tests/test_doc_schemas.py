"""The JSON Schemas in docs/schemas/ are the one contract of every JSON output: each is a valid schema whose
references resolve, and real outputs (golden files, every fixture host, fixed runs) fit them. The CLI tests'
own JSON outputs are validated too, by `cli_runner.run_cli`."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from conftest import FIXTURES, fixture_root
from support.cli_runner import run_cli
from support.doc_schemas import SCHEMAS, registry, schema_for, schema_names, validate, validator

GOLDEN = Path(__file__).parent / "golden"
FIXTURE_HOSTS = sorted(path.name for path in FIXTURES.iterdir() if (path / "sys").is_dir())


def _refs(node: object) -> list[str]:
    if isinstance(node, dict):
        own = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return own + [ref for value in node.values() for ref in _refs(value)]
    if isinstance(node, list):
        return [ref for value in node for ref in _refs(value)]
    return []


@pytest.mark.parametrize("name", schema_names())
def test_each_schema_is_valid_and_every_reference_resolves(name: str) -> None:
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    resolver = registry().resolver(base_uri=f"{name}.schema.json")
    for ref in _refs(schema):
        resolver.lookup(ref)  # raises Unresolvable for a file or a pointer that is not there


def test_every_documented_output_has_a_schema() -> None:
    expected = {"devices", "trim", "advise", "monitor", "report", "runs-list", "runs-compare",
                *(f"bench-{kind}" for kind in ("wal", "compaction", "randwrite", "interference"))}
    assert expected <= set(schema_names())


@pytest.mark.parametrize("golden", sorted(GOLDEN.glob("*.devices.json")), ids=lambda path: path.name)
def test_golden_devices_documents_fit(golden: Path) -> None:
    validate("devices", json.loads(golden.read_text()))


@pytest.mark.parametrize("host", FIXTURE_HOSTS)
def test_devices_trim_and_advise_on_every_fixture_host_fit(host: str) -> None:
    for command in (("devices", "--json", "--all"), ("trim", "--json"), ("advise", "--json")):
        result = run_cli("--sysroot", str(FIXTURES / host), *command)  # run_cli validates what it printed
        assert result.code in (0, 1), result.err
        assert schema_for(("--sysroot", str(FIXTURES / host), *command)) == command[0]


def test_fixed_runs_of_every_kind_fit_and_so_does_a_report_holding_them() -> None:
    from diskdoctor.app.report.json_report import report_document
    from diskdoctor.app.report.model import build_report
    from diskdoctor.probes.engine.workloads.compaction import CompactionParams
    from diskdoctor.probes.engine.workloads.interference import InterferenceParams
    from diskdoctor.probes.engine.workloads.randwrite import RandwriteParams
    from support.bench_fixed_run import fixed_result
    from support.runs_support import kind_run, saved_run

    runs = [saved_run(20, result=fixed_result()), kind_run("randwrite", RandwriteParams(), threshold=5.0),
            kind_run("compaction", CompactionParams(), threshold=100.0),
            kind_run("interference", InterferenceParams())]
    assert runs[0].record.to_json()["layers"], "the fixed run has per-layer figures to check"
    for run in runs:
        validate(f"bench-{run.kind}", run.record.to_json())
    validate("report", json.loads(json.dumps(report_document(build_report(fixture_root("etcd-raid0-lvm-luks"),
                                                                          runs)))))


def test_the_schemas_are_closed_so_an_undocumented_key_is_caught() -> None:
    document = json.loads((GOLDEN / "etcd-raid0-lvm-luks.devices.json").read_text())
    document["devices"][0]["children"][0]["undocumented"] = 1
    with pytest.raises(jsonschema.ValidationError, match="undocumented"):
        validator("devices").validate(document)
    with pytest.raises(AssertionError, match=r"devices\.schema\.json at devices/0/type"):
        validate("devices", {"devices": [{**document["devices"][0], "type": 7}]})
