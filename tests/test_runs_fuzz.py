"""Every field of a real run file of each kind with a wrong type: the file is skipped by name and field and
left as it is, and nothing that lists, shows, compares, reports or advises on runs crashes (CLI and TUI)."""

from __future__ import annotations

import json
import math
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import FIXTURES, fixture_root
from diskdoctor.app.base.formatting import counted
from diskdoctor.app.core.runs.compare import compare_runs
from diskdoctor.app.core.runs.record import RunFormatError, SavedRun, run_from_json
from diskdoctor.app.core.runs.store import default_runs_dir
from diskdoctor.app.report.html_report import html_report
from diskdoctor.app.report.json_report import report_document
from diskdoctor.app.report.markdown_report import markdown_report
from diskdoctor.app.report.model import build_report
from diskdoctor.app.text.runs import compare_lines, list_lines, show_lines
from support.cli_runner import Result
from support.report_support import report_written
from support.run_fuzz import KINDS, WRONG_VALUES, Mutation, field_name, mutate, mutations, real_run

FIXTURE = "etcd-raid0-lvm-luks"
SYSROOT = str(FIXTURES / FIXTURE)
HOSTNAME = "etcd-2"
"""The fixture's host: runs saved "on" it are the ones a report of it picks by itself."""
REFUSED_FOR_ANY_FIELD = ("list", "object", "negative", "huge", "nan", "infinity")
"""No field of the format takes these (but for an empty list or object where one belongs), so each must
skip the file."""
IDENTITY_MESSAGES = {"format": "not a diskdoctor run file", "format_version": "format version",
                     "kind": "benchmark kind"}
DAMAGE_MARKS = ("DAMAGED", "damaged, not shown", "cannot be shown")
"""What a list, show, comparison or report says when a loaded run failed to render (never expected here:
the schema must have refused the file first)."""


def must_refuse(mutation: Mutation, original: object) -> bool:
    """Whether a wrong value can never be valid where it was put (a nullable field takes null, a text field
    takes "s", an optional field may be missing, a list may be empty: those may load and must render)."""
    wrong = WRONG_VALUES[mutation.wrong]
    if mutation.wrong in REFUSED_FOR_ANY_FIELD:
        return not (isinstance(original, list) and wrong == []) and \
            not (isinstance(original, dict) and wrong == {})
    if mutation.wrong == "string":
        return isinstance(original, (int, float, bool, dict, list))  # a null may be nullable text
    return False


def value_at(document: object, path: tuple[str | int, ...]) -> object:
    for part in path:
        document = document[part]  # type: ignore[index]
    return document


def loaded(mutation: Mutation) -> SavedRun:
    """The mutation read back as the runs folder reads it (NaN and Infinity as Python's json reads them)."""
    return run_from_json(json.loads(mutation.text()), mutation.file_name.removesuffix(".json"))


def real_saved_run(kind: str) -> SavedRun:
    document = real_run(kind)
    return run_from_json(document, str(document["id"]))


def assert_rendered(text: str, what: str) -> None:
    marks = [mark for mark in DAMAGE_MARKS if mark in text]
    assert not marks, f"{what} shows a run as damaged: {marks}"


@pytest.mark.parametrize("kind", KINDS)
def test_every_wrong_field_skips_the_file_by_name_or_loads_and_renders(kind: str) -> None:
    real = real_saved_run(kind)
    original = real_run(kind)
    problems: list[str] = []
    accepted: list[SavedRun] = []
    for mutation in mutations(kind):
        try:
            run = loaded(mutation)
        except RunFormatError as err:
            name = IDENTITY_MESSAGES.get(mutation.field, mutation.field)
            if name not in str(err):
                problems.append(f"{mutation.field} = {mutation.wrong}: the reason does not name it: {err}")
            continue
        except Exception as err:
            problems.append(f"{mutation.field} = {mutation.wrong}: loading raised {err!r}")
            continue
        if must_refuse(mutation, value_at(original, mutation.path)):
            problems.append(f"{mutation.field} = {mutation.wrong}: a wrong type was loaded, not skipped")
        try:
            text = "\n".join(show_lines(run))
            compared = compare_runs(real, run)
            text += "\n".join(compare_lines(compared))
            json.dumps(compared.to_json(), allow_nan=False)
            json.dumps(run.to_json(), allow_nan=False)
            assert_rendered(text, "show/compare")
        except Exception as err:
            problems.append(f"{mutation.field} = {mutation.wrong}: loaded, then {type(err).__name__}: {err}")
            continue
        accepted.append(run)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])
    assert accepted, "no wrong value was valid anywhere: the rendering half of this test ran on nothing"
    assert_rendered("\n".join(list_lines([real, *accepted])), "runs list")
    report = build_report(fixture_root(FIXTURE), [real, *accepted])
    for text in (markdown_report(report), html_report(report),
                 json.dumps(report_document(report), allow_nan=False)):
        assert_rendered(text, "the report")


# --- the CLI, in process (as `diskdoctor ...` runs it), over a runs folder holding damaged files --------

SAMPLE_FIELDS = {
    "wal": ["record.verdict.threshold_ms", "record.host.steal", "record.histograms.sync.count",
            "record.params.bs", "record.fio.raw.percentiles_ns", "stack.layers[0].rotational", "saved_at",
            "host.hostname", "record.sync_latency_us.p99"],
    "randwrite": ["record.verdict.threshold_ms", "record.host.steal", "record.histograms.write.min",
                  "record.params.sync", "record.direct", "record.layers[0].writes", "stack.target.device",
                  "record.note"],
    "compaction": ["record.verdict.threshold", "record.host.steal", "record.histograms.read.counts",
                   "record.params.jobs", "record.resident_after_evict", "record.fio.sync_p99_us",
                   "record.host.top_io", "stack.mount_options"],
    "interference": ["record.verdict.threshold_ms", "record.host.steal", "record.alone.histograms.sync",
                     "record.under_compaction.samples", "record.compaction.jobs", "record.params.wal.sync",
                     "record.fio.alone.p99", "record.notes", "record.p99_ratio"],
}
"""Fields the CLI and TUI tests damage (every wrong value each): the two from the attack report, one in
each part of the file (host, stack, params, figures, histograms, fio, layers) and some nullable ones."""
ISSUE_CASES = {"record.verdict.threshold_ms": "string", "record.host.steal": "null"}
"""`threshold_ms: "s"` broke runs list/show, report, advise --bench and the Runs screen; `host.steal: null`
blocked report -o and the TUI's report key."""


def sample(kind: str) -> list[Mutation]:
    """Every wrong value in each sampled field of the real `kind` run (hostname set to the fixture's)."""
    document = real_run(kind)
    document["host"]["hostname"] = HOSTNAME  # type: ignore[index]
    wanted = set(SAMPLE_FIELDS[kind])
    paths = [path for path in _all_paths(document) if field_name(path) in wanted]
    assert {field_name(path) for path in paths} == wanted
    return [Mutation(kind, path, name, mutate(document, path, wrong))
            for path in paths for name, wrong in WRONG_VALUES.items()]


def _all_paths(document: object, path: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    items = document.items() if isinstance(document, dict) else \
        enumerate(document) if isinstance(document, list) else []
    for key, value in items:
        yield (*path, key)
        yield from _all_paths(value, (*path, key))


def write_folder(directory: Path, kinds: tuple[str, ...]) -> tuple[list[str], dict[str, Mutation],
                                                                     dict[str, Mutation]]:
    """The real run of each kind (on the fixture's host) and every sampled mutation, as files; returns the
    real ids, and the mutations that load (by id) and that must be skipped (by file name)."""
    directory.mkdir(parents=True, exist_ok=True)
    reals, good, bad = [], {}, {}
    for kind in kinds:
        document = real_run(kind)
        document["host"]["hostname"] = HOSTNAME  # type: ignore[index]
        (directory / f"{document['id']}.json").write_text(json.dumps(document))
        reals.append(str(document["id"]))
        for mutation in sample(kind):
            (directory / mutation.file_name).write_text(mutation.text())
            try:
                loaded(mutation)
            except RunFormatError:
                bad[mutation.file_name] = mutation
            else:
                good[mutation.file_name.removesuffix(".json")] = mutation
    return reals, good, bad


def folder_bytes(directory: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in directory.iterdir()}


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> Result:
    """`diskdoctor ARGS` in this process (the same `main` the command runs), with its exit code and output."""
    from diskdoctor.app.cli.main import main

    handlers = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGHUP)}
    try:
        code = main(list(args))
    finally:
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, err
    return Result(code, out, err)


def _no_constant(name: str) -> None:
    raise AssertionError(f"the output is not JSON: it holds {name}")


def assert_skips_named(err: str, bad: dict[str, Mutation]) -> None:
    """One warning line per damaged file, naming the file and the field, and nothing else on stderr."""
    warnings = [line for line in err.splitlines() if line.startswith("diskdoctor: warning: skipped ")]
    for name, mutation in bad.items():
        [line] = [line for line in warnings if line.startswith(f"diskdoctor: warning: skipped {name}: ")]
        assert mutation.field in line and line.endswith("(left as it is)"), line
    assert len(warnings) == len(bad)


@pytest.mark.parametrize("kind", KINDS)
def test_cli_lists_shows_compares_reports_and_advises_around_damaged_files(
        kind: str, private_state_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runs_dir = default_runs_dir()
    [real], good, bad = write_folder(runs_dir, (kind,))
    before = folder_bytes(runs_dir)

    listing = cli(capsys, "runs", "list")
    assert listing.code == 0
    issue = [m for m in [*bad.values(), *good.values()] if ISSUE_CASES.get(m.field) == m.wrong]
    assert issue and all(m.file_name in bad for m in issue)  # the attack report's files are skipped
    assert_skips_named(listing.err, bad)
    assert_rendered(listing.out, "runs list")
    assert {line.split()[0] for line in listing.out.splitlines()[1:]} == {real, *good}
    document = json.loads(cli(capsys, "runs", "list", "--json").out, parse_constant=_no_constant)
    assert {run["id"] for run in document["runs"]} == {real, *good}
    assert {entry["file"] for entry in document["skipped"]} == set(bad)

    for run_id in [real, *good]:
        shown = cli(capsys, "runs", "show", run_id, "--plot")
        assert shown.code == 0 and shown.out.startswith(f"run       {run_id}")
        assert_rendered(shown.out, "runs show")
        compared = cli(capsys, "runs", "compare", real, run_id) if run_id != real else None
        if compared is not None:
            assert compared.code in (0, 1, 3) and "baseline" in compared.out  # 3: not like for like
    assert json.loads(cli(capsys, "runs", "show", real, "--json").out)["id"] == real
    skipped_id = next(iter(bad)).removesuffix(".json")
    refused = cli(capsys, "runs", "show", skipped_id)
    assert refused.code == 2
    assert refused.err.splitlines()[-1].startswith(f"diskdoctor: error: run '{skipped_id}' was not read: "
                                                   f"skipped {skipped_id}.json: damaged run file (")

    runs = [arg for run_id in [real, *good] for arg in ("--run", run_id)]
    for suffix in ("md", "html", "json"):
        out = tmp_path / f"report.{suffix}"
        written = cli(capsys, "report", "-o", str(out), "--sysroot", SYSROOT, *runs)
        assert written.code == 0 and f"{counted(1 + len(good), 'run')})" in written.out
        assert_skips_named(written.err, bad)
        text = out.read_text()
        assert_rendered(text, f"report.{suffix}")
        assert all(name in text for name in bad)  # every skipped file is named in the report's notes
    report = json.loads((tmp_path / "report.json").read_text())
    assert all(isinstance(value, (int, float)) and math.isfinite(value)
               for run in report["runs"] for metric in run["metrics"]
               for value in [metric["value"]] if value is not None)
    default = cli(capsys, "report", "-o", str(tmp_path / "default.md"), "--sysroot", SYSROOT)
    assert default.code == 0
    assert_rendered((tmp_path / "default.md").read_text(), "the default report")

    advise = ["advise", "--sysroot", SYSROOT]
    if kind in ("wal", "interference"):
        judged = cli(capsys, *advise, *[arg for run_id in [real, *good]
                                         for arg in ("--bench", str(runs_dir / f"{run_id}.json"))])
        assert judged.code in (0, 1)
    for name, mutation in bad.items():
        if ISSUE_CASES.get(mutation.field) == mutation.wrong or mutation.wrong in ("nan", "missing"):
            refused = cli(capsys, *advise, "--bench", str(runs_dir / name))
            assert refused.code == 2 and mutation.field in refused.err and name in refused.err
            assert len(refused.err.splitlines()) == 1
    by_id = cli(capsys, *advise, "--bench", real)  # a saved run named by its id
    assert by_id.code in ((0, 1) if kind in ("wal", "interference") else (2,)), by_id.err
    assert folder_bytes(runs_dir) == before  # nothing rewritten, nothing removed


# --- the TUI (Pilot): the Runs screen and the report key over the same folder --------------------------

async def test_runs_screen_and_report_key_carry_on_around_damaged_files(private_state_dir: Path,
                                                                        tmp_path: Path) -> None:
    from diskdoctor.app.tui.app import DiskDoctorApp
    from diskdoctor.app.tui.report_dialog import ReportDialog
    from diskdoctor.app.tui.runs_screen import RunsScreen
    from textual.widgets import DataTable, Input, Static

    runs_dir = default_runs_dir()
    reals, good, bad = write_folder(runs_dir, KINDS)
    before = folder_bytes(runs_dir)
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.app.workers.wait_for_complete()
        await pilot.press("5")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RunsScreen)
        table = screen.query_one(DataTable)
        assert {run.id for run in screen.runs} == {*reals, *good}
        assert table.row_count == len(reals) + len(good)
        status = str(screen.query_one("#runs-status", Static).render())
        assert f"skipped {len(bad)} files" in status
        notices = [str(notice.message) for notice in app._notifications]
        assert any("damaged run file (" in notice and "(left as it is)" in notice for notice in notices)
        detail = screen.query_one("#runs-detail", Static)
        for row in range(table.row_count):  # every run's detail pane, one after the other
            table.move_cursor(row=row)
            await pilot.pause()
            assert str(detail.render()).startswith("run "), str(detail.render())[:200]
            assert_rendered(str(detail.render()), "the Runs screen")
        for kind in KINDS:  # two runs of each kind side by side
            rows = [index for index, run in enumerate(screen.runs) if run.kind == kind][:2]
            await pilot.press("c")
            for row in rows:
                table.move_cursor(row=row)
                await pilot.press("space")
            await pilot.pause()
            assert str(detail.render()).startswith("Comparison (the older run is the baseline")
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, ReportDialog)
        app.screen.query_one(Input).value = str(tmp_path / "case.md")
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        result = report_written(app)
        assert result.startswith(f"Wrote {tmp_path / 'case.md'}: ") and f"Skipped {len(bad)} files" in result
    text = (tmp_path / "case.md").read_text()
    assert_rendered(text, "the TUI's report")
    assert all(name in text for name in bad)
    assert folder_bytes(runs_dir) == before
