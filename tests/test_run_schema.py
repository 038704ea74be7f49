"""The run file schema (docs/schemas/run.schema.json): shipped in the package, valid JSON Schema 2020-12,
true of every run diskdoctor writes, and read the same by fastjsonschema (used) and jsonschema (reference)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from diskdoctor.app.core.runs.run_schema import run_schema, schema_problem
from diskdoctor.probes.engine.workloads.compaction import CompactionParams
from diskdoctor.probes.engine.workloads.interference import InterferenceParams
from diskdoctor.probes.engine.workloads.randwrite import RandwriteParams
from support.run_fuzz import KINDS, SAVED_RUNS, real_run
from support.runs_support import kind_run, saved_run
from test_runs_fuzz import sample

SCHEMA_FILE = Path(__file__).resolve().parent.parent / "docs" / "schemas" / "run.schema.json"


def test_the_package_ships_the_schema_file_and_it_is_valid_json_schema() -> None:
    assert run_schema() == json.loads(SCHEMA_FILE.read_text())
    jsonschema.Draft202012Validator.check_schema(run_schema())


def test_every_run_diskdoctor_writes_matches_it() -> None:
    validator = jsonschema.Draft202012Validator(run_schema())
    written = [saved_run(), kind_run("randwrite", RandwriteParams(), threshold=5.0),
               kind_run("randwrite", RandwriteParams(sync="none")),
               kind_run("compaction", CompactionParams(), threshold=100.0),
               kind_run("compaction", CompactionParams()), kind_run("interference", InterferenceParams())]
    documents = [json.loads(json.dumps(run.to_json())) for run in written]
    documents += [json.loads(path.read_text()) for path in sorted(SAVED_RUNS.glob("*.json"))]
    assert len(documents) == len(written) + len(KINDS)
    for document in documents:
        assert schema_problem(document) is None
        validator.validate(document)


@pytest.mark.parametrize("kind", KINDS)
def test_fastjsonschema_and_jsonschema_agree_on_damaged_files(kind: str) -> None:
    validator = jsonschema.Draft202012Validator(run_schema())
    assert validator.is_valid(real_run(kind))
    for mutation in sample(kind):
        document = json.loads(mutation.text())
        if mutation.wrong == "nan":
            continue  # JSON has no such numbers: jsonschema takes NaN for a number, diskdoctor refuses it
        assert (schema_problem(document) is None) == validator.is_valid(document), mutation.field
