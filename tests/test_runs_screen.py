"""The Runs screen and the report key with Pilot: pick two runs, read the regression flag, write a report."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from conftest import fixture_root
from diskdoctor.app.core.runs.store import RunStore
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.report_dialog import ReportDialog
from diskdoctor.app.tui.runs_screen import RunsScreen
from support.report_support import report_written
from support.runs_support import saved_run
from textual.widgets import DataTable, Input, Static

FIXTURE = "etcd-raid0-lvm-luks"


@pytest.fixture
def three_runs(private_state_dir: Path) -> list[str]:
    """Three runs with fixed ids (steady snapshots) and one foreign file in the runs directory."""
    store = RunStore()
    runs = [saved_run(20, slow_ms=0.9), saved_run(21, slow_ms=2.0),
            saved_run(23, slow_ms=6.8, ops_per_s=1500)]
    ids = [f"2026112{day}-143000-wal-000{n}" for n, day in enumerate((0, 1, 3))]
    for run, run_id in zip(runs, ids, strict=True):
        store.save(dataclasses.replace(run, id=run_id))
    (store.directory / "notes.txt").write_text("not a run")
    return ids


def text_of(app: DiskDoctorApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def open_runs(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.app.workers.wait_for_complete()
    await pilot.press("5")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def test_pick_two_runs_and_see_the_regression(three_runs: list[str]) -> None:
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(120, 40)) as pilot:
        await open_runs(pilot)
        assert isinstance(app.screen, RunsScreen)
        table = app.screen.query_one(DataTable)
        assert table.row_count == 3 and app.screen.runs[0].id == three_runs[2]  # newest first
        status = text_of(app, "#runs-status")
        assert status.startswith("3 saved runs") and "skipped 1 file that is not a run" in status
        assert "notes.txt" in status
        assert text_of(app, "#runs-detail").startswith(f"run       {three_runs[2]}")
        await pilot.press("space", "down", "space")
        await pilot.pause()
        detail = text_of(app, "#runs-detail")
        assert "REGRESSION p99 fdatasync ×3.40 since 2026-11-21 14:30 UTC on the same filesystem" in detail
        assert f"baseline  {three_runs[1]}" in detail and f"candidate {three_runs[2]}" in detail
        await pilot.press("down", "space")  # a third pick replaces the oldest pick
        await pilot.pause()
        assert app.screen.picked == [three_runs[1], three_runs[0]]
        assert "improved" not in text_of(app, "#runs-detail")  # 0.9 → 2.0 ms is worse, not better
        assert "REGRESSION p99 fdatasync ×2.22 since 2026-11-20" in text_of(app, "#runs-detail")
        await pilot.press("c")
        await pilot.pause()
        assert app.screen.picked == [] and text_of(app, "#runs-detail").startswith("run ")


async def test_no_runs_says_where_they_will_be(private_state_dir: Path) -> None:
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_runs(pilot)
        expected = f"No saved runs yet in {private_state_dir}/diskdoctor/runs"
        assert text_of(app, "#runs-status").startswith(expected)


async def test_no_runs_at_80_names_the_folder_as_a_shell_would_and_is_never_cut_mid_path(
        private_state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The runs folder under a long home: `~/…` and whole, the reason after it giving way first."""
    home = private_state_dir.parent
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".local" / "state" / ("x" * 20)))
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_runs(pilot)
        status = text_of(app, "#runs-status").strip()
        assert status == f"No saved runs yet in ~/.local/state/{'x' * 20}/diskdoctor/runs", status


async def test_report_key_writes_the_report(three_runs: list[str], tmp_path: Path) -> None:
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.app.workers.wait_for_complete()
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, ReportDialog)
        proposed = app.screen.query_one(Input).value
        assert proposed.endswith(".html") and "diskdoctor-etcd-2-" in proposed
        app.screen.query_one(Input).value = str(tmp_path / "case.txt")
        await pilot.press("enter")
        await pilot.pause()
        assert "report file must end in .md, .html or .json" in text_of(app, "#report-result")
        app.screen.query_one(Input).value = str(tmp_path / "case.md")
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert report_written(app).startswith(f"Wrote {tmp_path / 'case.md'}: 4 findings")
        assert (tmp_path / "case.md").read_text().startswith("# diskdoctor report: etcd-2")
        assert not isinstance(app.screen, ReportDialog)  # written: the dialog closed, the notice says where


async def test_report_is_built_from_the_snapshot_the_screens_show(three_runs: list[str],
                                                                   tmp_path: Path) -> None:
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        shown = app.snapshot
        assert shown is not None and shown.trim_facts is not None and len(shown.trim_verdicts) == 2
        host = dataclasses.replace(shown.host, hostname="snapshot-host", kernel="6.99.0-snapshot")
        app.snapshot = dataclasses.replace(shown, host=host, trim_verdicts=shown.trim_verdicts[1:])
        await pilot.press("w")
        await pilot.pause()
        assert "diskdoctor-snapshot-host-" in app.screen.query_one(Input).value
        app.screen.query_one(Input).value = str(tmp_path / "case.json")
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert report_written(app).startswith(f"Wrote {tmp_path / 'case.json'}: ")
        assert "1 TRIM verdict," in report_written(app)
    report = json.loads((tmp_path / "case.json").read_text())
    assert report["host"]["hostname"] == "snapshot-host"  # the capture says etcd-2
    assert report["host"]["kernel"] == "6.99.0-snapshot"
    assert [verdict["mountpoint"] for verdict in report["trim"]] == [shown.trim_verdicts[1].mountpoint]


async def test_the_comparison_table_is_above_the_fold_at_80x24(three_runs: list[str]) -> None:
    """newuser6 #8: ~9 lines of prose came first and pushed the baseline/candidate/change table off an
    80x24 screen; the table comes first, the prose after it."""
    from test_text_fit import screen_lines

    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_runs(pilot)
        await pilot.press("space", "down", "space")
        await pilot.pause()
        screen = "\n".join(screen_lines(app))
        for shown in ("metric", "baseline", "candidate", "change", "p99 fdatasync", "max fdatasync",
                      "ops/s", "REGRESSION"):
            assert shown in screen, screen
        changed = r"p99 fdatasync +[\d.]+ [µm]s +[\d.]+ ms +(\+\d+%|×[\d.,]+)  REGRESSION"
        assert re.search(changed, screen), screen


@pytest.mark.parametrize("size", [(80, 24), (200, 60), (120, 40)])
def test_runs_screen_comparison_snapshot(snap_compare, three_runs: list[str],  # type: ignore[no-untyped-def]
                                         size: tuple[int, int]) -> None:
    async def compare_two(pilot) -> None:  # type: ignore[no-untyped-def]
        await open_runs(pilot)
        await pilot.press("space", "down", "space")
        await pilot.pause()

    assert snap_compare(DiskDoctorApp(fixture_root(FIXTURE)), terminal_size=size, run_before=compare_two)


async def test_report_dialog_keeps_typing_after_an_error_and_replaces_only_when_asked(
        three_runs: list[str], tmp_path: Path) -> None:
    existing = tmp_path / "case.md"
    existing.write_text("the engineer's own notes\n")
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.app.workers.wait_for_complete()
        await pilot.press("w")
        await pilot.pause()
        field = app.screen.query_one(Input)
        field.value = str(tmp_path / "case.pdf")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.focused is field  # the name is what must change, so typing goes there
        await pilot.press("end", "backspace", "backspace", "backspace", "m", "d")
        assert field.value == str(existing)
        await pilot.press("enter")
        await pilot.pause()
        assert "already exists" in text_of(app, "#report-result")
        assert existing.read_text() == "the engineer's own notes\n"
        await pilot.press("enter")  # asked and confirmed: replace
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert report_written(app).startswith(f"Wrote {existing}: 4 findings, 2 TRIM verdicts")
        assert existing.read_text().startswith("# diskdoctor report")


async def test_a_run_saved_while_away_is_listed_on_coming_back(three_runs: list[str]) -> None:
    """A run saved by the Benchmark screen (or another shell) shows when the user comes back to Runs."""
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(120, 40)) as pilot:
        await open_runs(pilot)
        assert app.screen.query_one(DataTable).row_count == 3
        await pilot.press("1")
        await pilot.pause()
        RunStore().save(dataclasses.replace(saved_run(24, slow_ms=1.0), id="20261124-143000-wal-0009"))
        await open_runs(pilot)
        assert isinstance(app.screen, RunsScreen)
        assert app.screen.query_one(DataTable).row_count == 4
        assert app.screen.runs[0].id == "20261124-143000-wal-0009"


def _wal_run_at_loads(day: int, judged: float, slow_ms: dict[float, float],  # type: ignore[no-untyped-def]
                      run_id: str):
    """An open-loop WAL run at 50 and 500 writes/s (p99 `slow_ms[rate]`), its verdict citing `judged`."""
    from diskdoctor.probes.engine.workloads.wal import WalLevel, WalResult
    from diskdoctor.probes.latency_histogram import LatencyHistogram
    from support.runs_support import histogram

    levels = []
    for rate, slow in slow_ms.items():
        whole = histogram(500_000, int(slow * 1e6))
        levels.append(WalLevel(rate, "steady", whole.count, whole.count, whole.count / rate, whole, whole,
                               whole, LatencyHistogram(), scheduled_s=whole.count / rate))
    result = WalResult.of_levels(levels)
    result = result.judged_at(next(level for level in levels if level.rate == judged))
    return dataclasses.replace(saved_run(day, result=result), id=run_id)


async def test_a_wal_comparison_at_80x24_shows_every_load_one_line_per_metric(
        private_state_dir: Path) -> None:
    """Issue 23 (newuser7 #4, #13): two WAL runs were compared at the one load their verdicts shared, the
    judged 500/s left out, and at 80 columns every metric took two lines ("change" wrapped under it)."""
    from test_text_fit import screen_lines

    store = RunStore()
    store.save(_wal_run_at_loads(20, 50.0, {50.0: 2.7, 500.0: 9.0}, "20261120-143000-wal-0000"))
    store.save(_wal_run_at_loads(21, 500.0, {50.0: 2.8, 500.0: 46.0}, "20261121-143000-wal-0001"))
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_runs(pilot)
        await pilot.press("space", "down", "space")
        await pilot.pause()
        lines = screen_lines(app)
        screen = "\n".join(lines)
        assert "at 500 writes/s, steady (judged)" in screen, screen  # the failing load first
        rows = [line for line in lines if re.search(r"^\s*(p50|p90|p99|p99\.9|max) fdatasync from due", line)]
        assert len(rows) >= 4, screen
        for row in rows:  # the change on the metric's own line
            assert re.search(r"from due +[\d.]+ [µm]s +[\d.]+ [µm]s +([+-]\d+%|[×÷][\d.,]+)", row), screen


async def test_at_200_a_long_target_is_whole_and_the_details_go_under_the_list(
        private_state_dir: Path) -> None:
    """Issue 23 (newuser7 #9): at 200x60 `/tmp/footfit/m…rget-directory (ext4)` was cut while the details
    pane beside it was half empty; newuser9 #3: the list had 55 blank rows. The list takes the whole width
    and as many rows as it has runs, the details go under it."""
    from diskdoctor.app.core.runs.stack_fingerprint import StackFingerprint
    from diskdoctor.probes.wal_target import Target
    from support.runs_support import STACK
    from test_text_fit import screen_lines

    directory = "/tmp/footfit/mnt-ext4-data/a-rather-long-target-directory"
    stack = StackFingerprint(Target(directory, "/tmp/footfit/mnt-ext4-data", "ext4", "loop3", ("loop3",)),
                             STACK.mount_options, STACK.layers)
    store = RunStore()
    store.save(dataclasses.replace(saved_run(20, stack=stack), id="20261120-143000-wal-0000"))
    store.save(dataclasses.replace(saved_run(21), id="20261121-143000-wal-0001"))
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(200, 60)) as pilot:
        await open_runs(pilot)
        screen = "\n".join(screen_lines(app))
        assert f"{directory} (ext4" in screen, screen
        assert "\n run       20261121-143000-wal-0001" in screen, screen  # the details under the list


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)])
def test_runs_screen_wal_loads_comparison_snapshot(snap_compare, private_state_dir: Path,  # type: ignore[no-untyped-def]
                                                   size: tuple[int, int]) -> None:
    """Issue 23: two WAL runs compared load by load, the judged 500/s first, one line per metric."""
    store = RunStore()
    store.save(_wal_run_at_loads(20, 50.0, {50.0: 2.7, 500.0: 9.0}, "20261120-143000-wal-0000"))
    store.save(_wal_run_at_loads(21, 500.0, {50.0: 2.8, 500.0: 46.0}, "20261121-143000-wal-0001"))

    async def compare_two(pilot) -> None:  # type: ignore[no-untyped-def]
        await open_runs(pilot)
        await pilot.press("space", "down", "space")
        await pilot.pause()

    assert snap_compare(DiskDoctorApp(fixture_root(FIXTURE)), terminal_size=size, run_before=compare_two)


async def test_the_comparison_text_keeps_a_cell_from_its_scrollbar_at_80(three_runs: list[str]) -> None:
    """Runs at 80x24 comparing two runs (newuser11 #8): the pane scrolls, and its text never touches the
    scrollbar (`…quiet moments)▇▇`)."""
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_runs(pilot)
        await pilot.press("space", "down", "space")
        await pilot.pause()
        pane = app.screen.query_one("#runs-detail-pane")
        text = app.screen.query_one("#runs-detail").content_region
        assert pane.max_scroll_y > 0 and pane.vertical_scrollbar.display
        assert text.right + 1 <= pane.vertical_scrollbar.region.x  # one blank cell between


def test_a_path_is_cut_at_a_slash_keeping_its_last_component() -> None:
    """newuser12 #5: `/v…/newuser12` and `/de…/newuser12` said less than a cut at a "/" would."""
    from diskdoctor.widgets.fit_text import path_ellipsis

    assert path_ellipsis("/var/tmp/newuser12", 18) == "/var/tmp/newuser12"
    assert path_ellipsis("/var/tmp/newuser12", 16) == "/var/…/newuser12"
    assert path_ellipsis("/var/tmp/newuser12", 13) == "…/newuser12"
    path = "/var/lib/kubelet/pods/8f0c/volumes/kubernetes.io~csi/pvc-1/mount"
    cut = path_ellipsis(path, 30)
    assert cut == "/var/lib/kubelet/pods/…/mount", cut  # the last component, then the leading folders, whole
    # (cuts7: newuser15 read `…/volume…/mount` as a cut inside a short folder)


async def test_runs_at_80_give_a_fail_its_limit_and_cut_targets_at_a_slash(private_state_dir: Path) -> None:
    """newuser12 #5: at 80 `/v…/newuser12 (ext4)  FAIL p99 12.9 ms …` left the row's room blank; the FAIL
    keeps `>= 10 ms` and the targets are cut at a "/" (`…/newuser12`), never inside a name."""
    from diskdoctor.app.core.runs.stack_fingerprint import StackFingerprint
    from diskdoctor.probes.wal_target import Target
    from support.runs_support import STACK
    from test_text_fit import screen_lines

    store = RunStore()
    for day, slow, directory, fstype in ((24, {50.0: 0.003, 500.0: 0.006}, "/dev/shm/newuser12", "tmpfs"),
                                         (25, {50.0: 0.003, 500.0: 0.004}, "/dev/shm/newuser12", "tmpfs"),
                                         (26, {50.0: 2.0, 500.0: 12.9}, "/var/tmp/newuser12", "ext4")):
        device = "vda1" if fstype == "ext4" else None
        stack = StackFingerprint(Target(directory, directory, fstype, device, (device,) if device else ()),
                                 STACK.mount_options, STACK.layers)
        run = _wal_run_at_loads(day, 500.0, slow, f"202611{day}-112200-wal-00{day}")
        store.save(dataclasses.replace(run, stack=stack))
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_runs(pilot)
        lines = screen_lines(app)
        screen = "\n".join(lines)
        failed = next(line for line in lines if "FAIL p99" in line)
        assert "FAIL p99 12.9 ms ≥ 10 ms" in failed, screen
        targets = re.findall(r"\s(\S*newuser12) \((?:ext4|tmpfs)\)", screen)
        assert len(targets) == 3, screen
        assert all(target.startswith(("/var/", "/dev/", "…/")) for target in targets), screen


INCONCLUSIVE_RUN = Path(__file__).parent / "fixtures" / "runs-inconclusive" / "20261126-160928-wal-a0c8.json"


def _saved_copies(folder: Path, run_file: Path, minutes: tuple[int, ...]) -> None:
    """The run in `run_file` saved again at each of `minutes` past 16:00 (one id each) in `folder`."""
    document = json.loads(run_file.read_text())
    folder.mkdir(parents=True, exist_ok=True)
    for minute in minutes:
        run_id = f"20261126-16{minute:02d}28-wal-a{minute:03d}"
        copy = {**document, "id": run_id, "saved_at": f"2026-11-26T16:{minute:02d}:28+00:00"}
        (folder / f"{run_id}.json").write_text(json.dumps(copy))


async def test_runs_all_of_one_kind_hide_the_kind_column_and_keep_the_limit_at_80(
        private_state_dir: Path) -> None:
    """newuser15: at 80x24 three WAL runs read `INCONCLUSIVE p99 1.31 ms` without `vs 10 ms` while a kind
    column said `wal` on every row; every run one kind, that column goes, the result header names the
    kind (`wal result`) and every row keeps its limit."""
    from test_text_fit import screen_lines

    _saved_copies(RunStore().directory, INCONCLUSIVE_RUN, (9, 12, 15))
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_runs(pilot)
        lines = screen_lines(app)
        screen = "\n".join(lines)
        header = next(line for line in lines if "saved (UTC)" in line)
        assert " kind " not in header and "WAL result" in header, screen
        rows = [line for line in lines if "INCONCLUSIVE p99" in line and "verdict" not in line]
        assert len(rows) == 3, screen
        assert all("INCONCLUSIVE p99 1.31 ms vs 10 ms" in row for row in rows), screen


async def test_runs_of_several_kinds_keep_the_kind_column(private_state_dir: Path) -> None:
    """The kind column stays where the listed runs differ in kind (and comes back when a filter is
    cleared): it is what tells a wal run from a randwrite run on one target."""
    import shutil

    from test_text_fit import screen_lines

    folder = RunStore().directory
    folder.mkdir(parents=True, exist_ok=True)
    for run_file in (Path(__file__).parent / "fixtures" / "saved-runs").glob("*.json"):
        shutil.copy(run_file, folder / run_file.name)
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_runs(pilot)
        header = next(line for line in screen_lines(app) if " id " in line and "result" in line)
        assert " kind " in header and "WAL result" not in header, header
        await pilot.press("slash", *"randwrite", "enter")
        await pilot.pause()
        header = next(line for line in screen_lines(app) if "saved (UTC)" in line)
        assert " kind " not in header and "randwrite result" in header, header


async def test_f1_on_runs_explains_samples_and_the_hidden_kind_column(private_state_dir: Path) -> None:
    """newuser15: a run's verdict says `100 samples` and nothing on Runs said what a sample is; F1 on Runs
    says it, and that the kind column gives way where every run is one kind."""
    from diskdoctor.app.tui.help_screen import HelpScreen
    from test_text_fit import screen_lines

    _saved_copies(RunStore().directory, INCONCLUSIVE_RUN, (9,))
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_runs(pilot)
        assert "100 samples" in "\n".join(screen_lines(app))  # the word the user meets in the details
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        words = {word: meaning for word, _, meaning in app.screen.help_data.words}
        assert "timed writes" in words["samples"] and "95% interval" in words["samples"], words
        assert "WAL result" in app.screen.help_data.shows


async def test_every_row_keeps_its_limit_or_marks_it_left_out_at_80(private_state_dir: Path) -> None:
    """newuser16: at 80x24 `INCONCLUSIVE p99 7.03 ms` silently dropped `vs 10 ms` beside `FAIL p99 16.5 ms
    …`: a limit is shown on every row or on none, and a row that leaves anything out ends in `…`."""
    from test_text_fit import screen_lines

    _saved_copies(RunStore().directory, INCONCLUSIVE_RUN, (9,))
    RunStore().save(saved_run(20, slow_ms=16.5))
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_runs(pilot)
        lines = screen_lines(app)
        screen = "\n".join(lines)
        inconclusive = next(line for line in lines if "INCONCLUSIVE p99" in line and "verdict" not in line)
        failed = next(line for line in lines if "FAIL p99 16.5 ms" in line)
        assert "vs 10 ms" in inconclusive and "≥ 10 ms" in failed, screen


@pytest.mark.parametrize("width", [22, 26, 30, 34])
def test_a_row_never_drops_its_limit_silently(width: int) -> None:
    """One rule for every row: where the limit has no room on some row, no row shows it, and each row
    with a limit ends in `…` (the details give it)."""
    from diskdoctor.app.text.runs import LIMIT, TAGS
    from diskdoctor.app.tui.runs_screen import fit_result, shown_parts

    heads = [[("INCONCLUSIVE p99 7.03 ms", 0), ("vs 10 ms", LIMIT), ("", TAGS)],
             [("FAIL p99 16.5 ms", 0), ("≥ 10 ms", LIMIT), ("[loop device]", TAGS)]]
    shown = shown_parts(heads, width)
    lines = [fit_result(parts, width, shown) for parts in heads]
    with_limit = ["10 ms" in line for line in lines]
    assert all(with_limit) or not any(with_limit), lines
    if not any(with_limit):
        assert all(line.endswith("…") for line in lines), lines


async def test_runs_under_a_capture_say_they_are_this_machines(three_runs: list[str]) -> None:
    """newuser16: under --sysroot (a replayed capture) Runs listed this machine's runs with no hint that
    they are local: the title and the status say so; on the live host neither does."""
    from test_text_fit import screen_lines

    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_runs(pilot)
        assert app.screen.sub_title == "Saved on this machine, not in the capture"
        assert "Saved on this machine, not in the capture" in screen_lines(app)[0]
        assert text_of(app, "#runs-status").startswith("3 saved runs")
        await pilot.press("space", "down", "space")
        await pilot.pause()
        assert app.screen.sub_title.startswith("On this machine: comparing ")


async def test_enter_on_a_run_picks_it_and_the_footer_says_so(three_runs: list[str]) -> None:
    """newuser16: Enter on a run did nothing; it picks the run as Space does, and the footer and F1 say."""
    from diskdoctor.app.tui.screen_help import RUNS_HELP

    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_runs(pilot)
        assert "Space/⏎ picks two to compare" in text_of(app, "#runs-status")
        await pilot.press("enter", "down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, RunsScreen) and len(app.screen.picked) == 2
        assert "comparing" in app.screen.sub_title
        assert "Space or Enter picks" in RUNS_HELP.shows
