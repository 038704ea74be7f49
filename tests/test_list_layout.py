"""List layout defects a new user found in tmux (issue 23, third pass): the footer keeps quit, the report
and the palette's word at 80 columns; list titles never cut a figure; the `/` filter says what it keeps."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.widgets.fitted_footer import FittedFooter

LAB = "lab-ssd"


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def screen_lines(app: DiskDoctorApp) -> list[str]:
    """The screen as a new user reads it in `tmux capture-pane`: one string per row."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


@pytest.mark.parametrize("key", ["1", "2", "5", "6"], ids=["stack", "trim", "runs", "monitor"])
async def test_at_80_columns_the_footer_keeps_quit_report_and_the_palette_word(key: str) -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(key)
        await settle(pilot)
        await pilot.pause()
        footer = app.screen.query_one(FittedFooter)
        row = "\n".join(screen_lines(app)[footer.region.y:footer.region.bottom])  # one line or two
        assert "q Quit" in row and "w Report" in row, row
        assert " 1-6 " in row or "123456 screens" in row, row
        assert row.rstrip().endswith("^p palette"), row


WAL_TITLE = "WAL p99 fdatasync from due at 500/s steady is 15.6 ms, at or over the 10 ms threshold"
SUBJECTS = ("/lab/data", "/lab/luks2on", "/lab/plain", "/lab/raid0", "/lab/raid1", "/lab/xfs-longname-one",
            "/lab/xfs-longname-two", "/lab/zz-last-subject")


def _findings() -> list:  # type: ignore[type-arg]
    from diskdoctor.app.core.findings.finding import Evidence, Finding
    from diskdoctor.app.core.findings.vocabulary import Severity

    source = "run 20261125-172054-wal-ef4f: verdict.value_ms with a long source that has to wrap"
    wal = Finding("ETCD-FSYNC-P99", Severity.CRIT, "/tmp/nu2-ext4-discard", WAL_TITLE,
                  (Evidence("p99 fdatasync from due at 500/s steady", "15.6 ms", source),),
                  "why", ("# put the WAL on a dedicated SSD",))
    many = [Finding("MOUNT-ATIME", Severity.INFO, subject, f"{subject} updates access times on reads")
            for subject in SUBJECTS]
    return [wal, *many]


async def _advice_with(pilot):  # type: ignore[no-untyped-def]
    from diskdoctor.app.tui.advice_screen import AdviceReady

    await settle(pilot)
    await pilot.press("4")
    await settle(pilot)
    screen = pilot.app.screen
    screen.post_message(AdviceReady(_findings(), "test"))
    await pilot.pause()
    await pilot.pause()
    return screen


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_advice_list_shows_the_figure_whole_before_the_words(size: tuple[int, int]) -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=size) as pilot:
        await _advice_with(pilot)
        row = next(line for line in screen_lines(app) if " CRIT " in line)
        assert "WAL p99 15.6 ms ≥ 10 ms" in row, row


async def test_advice_card_at_120_has_room_for_fix_commands() -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _advice_with(pilot)
        assert screen.query_one("#advice-details").region.width >= 54


@pytest.mark.parametrize("size", [(200, 60), (240, 60)])
async def test_advice_card_header_shows_a_long_subject_list_whole(size: tuple[int, int]) -> None:
    """Under the list (200) or beside it (240), the card's header names every subject, on as many lines
    as its width needs (adv15: beside or under goes by the terminal's size alone)."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=size) as pilot:
        screen = await _advice_with(pilot)
        await pilot.press("down")
        await pilot.pause()
        await pilot.pause()
        header = screen.query_one("#advice-details-title")
        lines = screen_lines(app)[header.region.y:header.region.bottom]
        text = " ".join(line[header.region.x:header.region.right].strip() for line in lines)
        assert all(subject in text for subject in SUBJECTS), lines
        assert header.region.height >= -(-len(text) // header.region.width), lines


def test_card_evidence_sources_hang_under_their_line() -> None:
    from diskdoctor.app.tui.cards import card_content
    from diskdoctor.widgets.finding_card import card_text
    from rich.console import Console

    console = Console(width=50, record=True, color_system=None)
    console.print(card_text(card_content(_findings()[0])))
    lines = console.export_text().splitlines()
    start = lines.index("Evidence:")
    evidence = lines[start + 1:lines.index("Why: why")]
    assert len(evidence) > 1 and evidence[0].startswith("  p99")
    assert all(line.startswith("    ") for line in evidence[1:]), evidence
    for width in range(30, 60):  # the figure with its unit stays on one line at every width
        console = Console(width=width, record=True, color_system=None)
        console.print(card_text(card_content(_findings()[0])))
        assert "15.6 ms" in console.export_text(), width


def test_a_long_evidence_value_hangs_under_its_text() -> None:
    """newuser5: `(too few samples; order` then ` statistics)` back at column 1: a value longer than a line
    wraps between its words (a figure with its unit whole), its continuation under the text."""
    from diskdoctor.widgets.finding_card import CardContent, card_text
    from rich.console import Console

    value = "9.80 ms; 95% interval from 7.1 ms, unbounded above (too few samples; order statistics)"
    content = CardContent("ETCD-FSYNC-P99", "warn", "WAL p99", evidence=(("p99", value, "run 3"),))
    for width in range(36, 70):
        console = Console(width=width, record=True, color_system=None)
        console.print(card_text(content))
        text = console.export_text()
        lines = text.splitlines()
        evidence = lines[lines.index("Evidence:") + 1:]
        evidence = evidence[:next((i for i, line in enumerate(evidence) if not line.strip()), len(evidence))]
        assert evidence[0].startswith("  p99: 9.80 ms"), (width, evidence)
        assert len(evidence) > 1 and all(line.startswith("    ") for line in evidence[1:]), (width, evidence)
        assert all(len(line) <= width for line in evidence), (width, evidence)
        assert "7.1 ms" in text, width


RUNS = Path(__file__).parent / "fixtures" / "runs-list"
"""Two runs saved on the test VM: a watch of a database (unjudged, "p99 fdatasync (other file w.log)") and a
WAL run that failed on a busy host ("FAIL p99 963 ms >= 10 ms [host busy]")."""


@pytest.fixture
def two_saved_runs(private_state_dir: Path) -> Path:
    runs = private_state_dir / "diskdoctor" / "runs"
    runs.mkdir(parents=True)
    for run in RUNS.glob("*.json"):
        shutil.copy(run, runs / run.name)
        (runs / run.name).chmod(0o600)
    return runs


async def _runs_at_80(pilot):  # type: ignore[no-untyped-def]
    await settle(pilot)
    await pilot.press("5")
    await settle(pilot)
    await pilot.pause()
    return pilot.app.screen


async def test_runs_list_at_80_keeps_each_figure_with_its_unit(two_saved_runs: Path) -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(80, 24)) as pilot:
        await _runs_at_80(pilot)
        lines = screen_lines(app)
        watch = next(line for line in lines if " watch " in line)
        wal = next(line for line in lines if " wal " in line)
        assert "p99 fdatasync 345 µs" in watch, watch
        assert "FAIL p99 963 ms" in wal and "≥ …" not in wal and not wal.rstrip().endswith("10 …"), wal


def test_a_cut_run_result_keeps_its_limit_and_marks_tags_without_room() -> None:
    from diskdoctor.app.tui.runs_screen import fit_result

    parts = [("FAIL p99 15.6 ms", 0), ("≥ 10 ms", 1), ("[host busy]", 3)]
    assert fit_result(parts, 40) == "FAIL p99 15.6 ms ≥ 10 ms [host busy]"
    assert fit_result(parts, 34) == "FAIL p99 15.6 ms ≥ 10 ms …"
    assert fit_result(parts, 24) == "FAIL p99 15.6 ms …"


async def test_runs_detail_continuation_lines_hang_under_the_value(two_saved_runs: Path) -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _runs_at_80(pilot)
        detail = screen.query_one("#runs-detail")
        lines = [line[detail.region.x:detail.region.right] for line in
                 screen_lines(app)[detail.region.y:detail.region.bottom]]
        host = next(index for index, line in enumerate(lines) if line.startswith("host      "))
        assert lines[host + 1].startswith(" " * 10) and lines[host + 1].strip(), lines


LOOPS = "captured-loops"
"""Nine devices: loop0 ext4, loop1 ext4 (discard), loop2 xfs, loop4 btrfs, loop5 with two partitions, ..."""


async def _filter(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("slash", *text, "enter")
    await settle(pilot)
    await pilot.pause()


def _line_of(app: DiskDoctorApp, selector: str) -> str:
    widget = app.screen.query_one(selector)
    return screen_lines(app)[widget.region.y][widget.region.x:widget.region.right].strip()


async def test_stack_filter_says_what_it_keeps_and_esc_in_the_list_clears_it() -> None:
    from diskdoctor.widgets.filter_bar import FilterBar

    app = DiskDoctorApp(fixture_root(LOOPS))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await _filter(pilot, "xfs")
        assert _line_of(app, "#stack-filter").startswith("filter 'xfs': 1 match, ")
        assert _line_of(app, "#stack-filter").endswith(" of 9 devices with their stacks · Esc clears")
        assert _line_of(app, "#stack-title").endswith("· 1 of 9 devices")
        assert not isinstance(app.focused, FilterBar)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.query_one(FilterBar).value == ""
        assert _line_of(app, "#stack-title").endswith("· 9 devices")
        assert "loop4" in "\n".join(screen_lines(app))


async def test_stack_details_follow_the_filter_to_a_kept_row() -> None:
    app = DiskDoctorApp(fixture_root(LOOPS))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "loop0" in _line_of(app, "#details-title")  # the first row: the kept one takes its line
        await _filter(pilot, "xfs")
        await pilot.pause()
        assert "loop2" in _line_of(app, "#details-title")


async def test_trim_details_follow_the_filter_to_a_kept_row() -> None:
    app = DiskDoctorApp(fixture_root(LOOPS))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        screen = app.screen
        first = screen.query_one("#trim-table").get_row_at(0)[0].plain
        await _filter(pilot, "xfs")
        await pilot.pause()
        kept = screen.query_one("#trim-table").get_row_at(0)[0].plain
        assert kept.endswith("mnt-xfs") and kept != first
        assert screen.selected.endswith("mnt-xfs") and "mnt-xfs" in _line_of(app, "#trim-details-title")


async def test_slash_again_replaces_the_old_filter_text() -> None:
    from diskdoctor.widgets.filter_bar import FilterBar

    app = DiskDoctorApp(fixture_root(LOOPS))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await _filter(pilot, "xfs")
        await _filter(pilot, "btrfs")
        assert app.screen.query_one(FilterBar).value == "btrfs"
        assert _line_of(app, "#stack-filter").startswith("filter 'btrfs': 1 match, ")
        assert _line_of(app, "#stack-filter").endswith(" of 9 devices with their stacks · Esc clears")


async def test_runs_filter_status_fits_80_columns(two_saved_runs: Path) -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(80, 24)) as pilot:
        await _runs_at_80(pilot)
        await _filter(pilot, "watch")
        status = _line_of(app, "#runs-status")
        assert status == "filter 'watch': 1 of 2 runs · Esc clears · Space/⏎ picks two to compare", status
        assert _line_of(app, "#runs-filter") == "filter: watch (1 of 2) · Esc clears"


@pytest.mark.parametrize("size", [(120, 40), (200, 60)], ids=["120x40", "200x60"])
async def test_runs_list_shows_each_result_whole_at_120_and_200(two_saved_runs: Path,
                                                                   size: tuple[int, int]) -> None:
    """newuser5 #4: a result was cut ("FAIL p99 33.9 ms [host…") while its cell and the target's had blank
    columns; the result column is sized from its content first, the target cut in its middle instead."""
    for run in (RUNS.parent / "saved-runs").glob("*.json"):  # runs with two tags: the longest results
        shutil.copy(run, two_saved_runs / run.name)
        (two_saved_runs / run.name).chmod(0o600)
    wal = next(two_saved_runs.glob("*-wal-ef4f.json"))  # a long target directory, as in the pass
    wal.write_text(wal.read_text().replace("/var/tmp/ddw", "/tmp/footfit/mnt-ext4-data"))
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=size) as pilot:
        await _runs_at_80(pilot)
        lines = screen_lines(app)
        for result in ("FAIL p99 963 ms ≥ 10 ms [host busy]",
                       "FAIL p99 19.7 ms ≥ 10 ms [host busy] [closed-loop model]",
                       "FAIL p99 116 ms ≥ 20 ms [host busy] [closed-loop model]"):
            assert any(result in line for line in lines), (result, lines[:9])
