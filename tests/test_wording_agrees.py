"""Words that must agree wherever they appear (issue 23, new-user pass 4): the TRIM verdict of a filesystem
in `devices`, `trim`, the Stack screen and its status line; ROTA as yes/no in the CLI and the TUI; the
slow-node verdict and its figures; the Runs list's results;
a fitted benchmark's sum; the report dialog's outcomes."""

from __future__ import annotations

import json

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.engine.workloads.compaction import CompactionParams
from diskdoctor.probes.engine.workloads.interference import InterferenceParams
from diskdoctor.widgets import StackTree, StatusLine
from support.cli_runner import run_cli

LAB = "lab-ssd"
MIB = 1 << 20


def _lab() -> str:
    return str(fixture_root(LAB).path)


def test_devices_says_each_filesystems_trim_verdict_in_trims_words() -> None:
    """`devices` said 'discard reaches sda' where `trim` said UNSCHEDULED (nothing trims it), and 'BLOCKED
    at vg0-pool_nopassdown-tpool (... discards=ignore?)' where `trim` names the nopassdown pool."""
    devices = run_cli("devices", "--sysroot", _lab())
    trim = run_cli("trim", "--json", "--sysroot", _lab())
    assert devices.code == 0, devices.err
    verdicts = json.loads(trim.out)["filesystems"]
    assert verdicts
    lines = devices.out.splitlines()
    for verdict in verdicts:
        line = next(line for line in lines if line.startswith(f"  {verdict['mountpoint']} ("))
        assert line.endswith(f"): {verdict['summary']}"), (line, verdict["summary"])
    data = next(line for line in lines if line.startswith("  /lab/data ("))
    assert "UNSCHEDULED: discard passes down to sda through vg0-data, sda3; nothing trims it" in data
    assert "discard reaches" not in devices.out


def test_rota_is_yes_or_no_in_the_cli_and_the_tui() -> None:
    devices = run_cli("devices", "--sysroot", _lab())
    table = devices.out.split("\n\n", 1)[0].splitlines()
    start = table[0].index("ROTA")
    rota = {line[start:start + 4].strip() for line in table[1:]}
    assert rota and rota <= {"yes", "no"}, rota

    from diskdoctor.app.tui.stack_view import device_extra
    from diskdoctor.probes.host import read_host

    host = read_host(fixture_root(LAB))
    assert {device_extra(device)[0] for device in host.devices.values()} <= {"yes", "no"}


async def test_stack_status_line_and_details_say_the_trim_screens_verdict() -> None:
    """On the Stack screen, the device /lab/data sits on said 'discard reaches sda' in the status line and
    the details while the TRIM screen said UNSCHEDULED."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        tree = app.screen.query_one(StackTree)
        for _ in range(tree.last_line + 1):
            node = tree.cursor_node
            if node is not None and node.data is not None and node.data.name == "vg0-data":
                break
            await pilot.press("down")
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.pause()
        said = app.screen.query_one(StatusLine).plain
        wanted = "UNSCHEDULED: discard passes down to sda through vg0-data, sda3; nothing trims it"
        assert said.startswith(wanted), said
        rows = app.screen.query_one("#details")._groups  # type: ignore[attr-defined]
        verdict = next(row for group in rows for row in group.rows if row.label == "verdict")
        assert verdict.value.startswith("UNSCHEDULED: "), verdict


class _Delta:
    util = 0.12


class _Row:
    name = "loop1"


class _Busiest:
    delta, row, saturated = _Delta(), _Row(), False


def _sample(busy: float, iowait: float, steal: float = 0.0) -> object:
    from diskdoctor.probes.io_monitor import CpuSample

    class Sample:
        cpu = CpuSample(busy=busy, iowait=iowait, steal=steal)

    return Sample()


def test_slow_node_verdict_says_the_figures_it_rests_on_and_their_thresholds() -> None:
    """The guide said 'Storage looks idle enough right now: … little iowait' above 'iowait 9%'."""
    from diskdoctor.app.text.monitor import cpu_line
    from diskdoctor.app.tui.guides.slow_guide import slow_verdict

    sample = _sample(busy=0.3, iowait=0.09)
    headline, style = slow_verdict(sample, _Busiest())  # type: ignore[arg-type]
    assert "little" not in headline and "idle" not in headline, headline
    assert "iowait 9% (under 20%)" in headline and "iowait 9%" in cpu_line(sample.cpu, True), headline
    assert "loop1, the busiest device, is 12% busy (under 60%)" in headline
    assert "steal 0% (under 5%)" in headline
    assert style == "bold green"


def test_slow_node_verdict_judges_the_figures_as_printed() -> None:
    """iowait 19.6% prints as 20%: the verdict counts it at the 20% threshold, never 'under 20%'."""
    from diskdoctor.app.text.monitor import cpu_line
    from diskdoctor.app.tui.guides.slow_guide import slow_verdict

    sample = _sample(busy=0.3, iowait=0.196)
    headline, style = slow_verdict(sample, _Busiest())  # type: ignore[arg-type]
    assert "iowait 20%" in cpu_line(sample.cpu, True)
    assert headline.startswith("Storage is a likely cause: the CPUs wait for I/O 20% of the time"), headline
    assert style == "bold red"


def test_one_finding_is_counted_in_the_singular() -> None:
    """The guide's findings list said '1 findings (1 warn)'."""
    from diskdoctor.app.core.findings.finding import Finding
    from diskdoctor.app.core.findings.vocabulary import Severity
    from diskdoctor.app.tui.guides.common_steps import findings_text

    one = Finding("TRIM-NO-SCHEDULE", Severity.WARN, "/data", "nothing trims it")
    assert findings_text([one]).plain.startswith("1 finding (1 warn):\n")
    assert findings_text([one, one]).plain.startswith("2 findings (2 warn):\n")


def test_runs_results_drop_the_same_parts_on_every_row_tags_last() -> None:
    """At 120 the Runs list showed 'PASS p99 3.42 ms [not durable] [host busy]' (its '< 10 ms' dropped for
    the tags) beside 'PASS p99 8.55 ms < 10 ms'; a limit is now on every row or on none, tags after it, and
    a row that leaves its limit out ends in '…' (newuser16)."""
    from diskdoctor.app.tui.runs_screen import fit_result, shown_parts

    heads = [[("PASS p99 3.42 ms", 0), ("< 10 ms", 1), ("[not durable] [host busy]", 3)],
             [("PASS p99 8.55 ms", 0), ("< 10 ms", 1), ("", 3)],
             [("FAIL p99 15.6 ms", 0), ("≥ 10 ms", 1), ("[host busy]", 3)]]
    for width, wanted in ((60, ["PASS p99 3.42 ms < 10 ms [not durable] [host busy]",
                                "PASS p99 8.55 ms < 10 ms", "FAIL p99 15.6 ms ≥ 10 ms [host busy]"]),
                          (40, ["PASS p99 3.42 ms < 10 ms [not durable] …", "PASS p99 8.55 ms < 10 ms",
                                "FAIL p99 15.6 ms ≥ 10 ms [host busy]"]),
                          (27, ["PASS p99 3.42 ms < 10 ms …", "PASS p99 8.55 ms < 10 ms",
                                "FAIL p99 15.6 ms ≥ 10 ms …"]),
                          (24, ["PASS p99 3.42 ms …", "PASS p99 8.55 ms …", "FAIL p99 15.6 ms …"])):
        shown = shown_parts(heads, width)
        assert [fit_result(parts, width, shown) for parts in heads] == wanted, width


async def test_runs_list_shows_every_limit_or_none_at_80_and_120(private_state_dir) -> None:  # type: ignore[no-untyped-def]
    """A FAIL row dropped '>= 10 ms' at 80 where a PASS row kept '< 10 ms'."""
    import dataclasses
    import shutil
    from pathlib import Path

    from diskdoctor.app.core.runs.store import RunStore
    from support.runs_support import saved_run
    from textual.widgets import DataTable

    runs = private_state_dir / "diskdoctor" / "runs"
    runs.mkdir(parents=True)
    for run in (Path(__file__).parent / "fixtures" / "runs-list").glob("*.json"):
        shutil.copy(run, runs / run.name)
        (runs / run.name).chmod(0o600)
    RunStore().save(dataclasses.replace(saved_run(24, slow_ms=2.0), id="20261124-143000-wal-0009"))
    for size in ((80, 24), (120, 40)):
        app = DiskDoctorApp(fixture_root(LAB))
        async with app.run_test(size=size) as pilot:
            await app.workers.wait_for_complete()
            await pilot.press("5")
            await app.workers.wait_for_complete()
            await pilot.pause()
            await pilot.pause()
            table = app.screen.query_one(DataTable)
            results = [str(table.get_cell_at((row, 5))) for row in range(table.row_count)]
            judged = [text for text in results if text.startswith(("PASS", "FAIL"))]
            assert len(judged) == 2, results
            limits = [(" < " in text or " ≥ " in text) for text in judged]
            assert all(limits) or not any(limits), (size, results)
            cut = [text for text in results if "[" in text and not text.rstrip("…").rstrip().endswith("]")]
            assert not cut, results  # a tag is whole or replaced by "…", never "[ho…"


def _evaluate(sum_text: str) -> int:
    """'64 MiB + 2 × 2 × 4 × 12 MiB' -> MiB."""
    total = 0
    for term in sum_text.split(" + "):
        product = 1
        for factor in term.replace(" MiB", "").split(" × "):
            product *= int(factor)
        total += product
    return total


@pytest.mark.parametrize("params", [CompactionParams(), CompactionParams(jobs=2),
                                    CompactionParams(inputs=1, file_size=512 * MIB),
                                    InterferenceParams(), InterferenceParams(aggressor="rocksdb")],
                         ids=["compaction", "compaction-2-jobs", "compaction-1-input", "interference-model",
                              "interference-rocksdb"])
def test_a_fitted_runs_message_adds_up_to_the_size_it_names(params: object) -> None:
    """`bench compaction` said 'size it to 448 MiB: a smaller compaction (4 files of 56 MiB…)': 4 × 56 is
    224; the other 224 MiB are the outputs, written before the inputs are deleted. The message says so."""
    import re

    from diskdoctor.app.core.bench.fit import fit_to_free

    fits = [fit_to_free(params, free_mib * MIB) for free_mib in (150, 313, 500)]
    assert any(fits)
    for fitted in filter(None, fits):
        found = re.search(r": ((?:[\d ×+]+ MiB ?)+)= (\d+) MiB", fitted.cost)
        assert found, fitted.cost
        assert _evaluate(found.group(1).strip()) == int(found.group(2)), fitted.cost
        assert f"{found.group(2)} MiB" == fitted.sized, (fitted.sized, fitted.cost)
        assert "output" in fitted.cost


async def test_the_report_dialog_says_every_outcome_and_closes_once_written(  # type: ignore[no-untyped-def]
        tmp_path, private_state_dir) -> None:
    """A newcomer wrote a report; the dialog stayed open with Close focused, so Ctrl-U, a typed path and
    Enter pressed Close: nothing written, nothing said. Now a written report closes the dialog with a notice
    naming it, typing with a button focused edits the name, and closing without a report says so."""
    from diskdoctor.app.tui.report_dialog import ReportDialog
    from support.report_support import report_written
    from textual.widgets import Button

    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("w")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ReportDialog)
        dialog.query_one("#report-close", Button).focus()  # where the focus was after the first write
        await pilot.press("ctrl+u", *str(tmp_path / "r5.md"), "enter")
        for _ in range(100):
            await app.workers.wait_for_complete()
            await pilot.pause()
            if app.screen is not dialog:
                break
        assert (tmp_path / "r5.md").is_file()
        assert not isinstance(app.screen, ReportDialog)
        assert report_written(app).startswith(f"Wrote {tmp_path / 'r5.md'}: "), report_written(app)
        await pilot.press("w")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ReportDialog)
        assert [n.message for n in app._notifications][-1] == "No report written."


async def test_the_palette_opened_on_runs_lists_the_runs_commands_first() -> None:
    """Opened from Runs, the palette started with Stack's commands."""
    from test_palette import SYSTEM, open_palette

    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("5")
        await pilot.pause()
        commands = await open_palette(app, pilot)
        names = [str(commands.get_option_at_index(i).hit.text) for i in range(commands.option_count)]
        runs = [i for i, name in enumerate(names) if name.startswith("Runs: ")]
        others = [i for i, name in enumerate(names) if not name.startswith("Runs: ") and name not in SYSTEM]
        assert runs and others and max(runs) < min(others), names[:8]


async def test_runs_say_whose_folder_they_are_in_and_f1_says_j_k(private_state_dir) -> None:  # type: ignore[no-untyped-def]
    """Runs showed every run of the shared folder with no hint of whose; F1 on Runs did not mention j/k
    where a newcomer at 80x24 could see it."""
    import pwd

    from diskdoctor.app.core.runs.store import RunStore
    from diskdoctor.app.tui.help_screen import HelpScreen
    from support.runs_support import saved_run
    from textual.widgets import Static

    RunStore().save(saved_run(24))
    owner = pwd.getpwuid((private_state_dir / "diskdoctor" / "runs").stat().st_uid).pw_name
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("5")
        await app.workers.wait_for_complete()
        await pilot.pause()
        status = str(app.screen.query_one("#runs-status", Static).render())
        assert status.startswith(f"1 saved run in {owner}'s runs folder · "), status
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        help_text = " ".join(str(part.render()) for part in app.screen.query(Static))
        assert "j/k move" in help_text[:600], help_text[:600]  # in the opening paragraph
