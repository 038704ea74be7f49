"""Layout defects a new user found in tmux at 80x24, 120x40 and 200x60 (issue 23, second pass), driven with
Pilot: every control whole, every figure labelled, every result reachable, keys that fit."""

from __future__ import annotations

import os
import re
import shlex

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.root import live_root
from diskdoctor.widgets import FindingCard
from textual.geometry import Region
from textual.widgets import Button, Tabs

SIZES = [(80, 24), (120, 40), (200, 60)]
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]
LAB = "lab-ssd"


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def screen_lines(app: DiskDoctorApp) -> list[str]:
    """The screen as a new user reads it in `tmux capture-pane`: one string per row."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


async def open_bench(pilot):  # type: ignore[no-untyped-def]
    await settle(pilot)
    await pilot.press("3")
    await settle(pilot)
    return pilot.app.screen


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_start_shows_whole_for_every_workload(size: tuple[int, int]) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await open_bench(pilot)
        form = screen.query_one("#bench-form")
        for tab in ("wal", "compaction", "randwrite", "interference"):
            screen.query_one("#bench-workloads", Tabs).active = f"workload-{tab}"
            await pilot.pause()
            start = screen.query_one("#bench-start", Button)
            inside = form.content_region
            assert start.region.right <= inside.right and start.region.right <= size[0], (tab, start.region)
            assert start.region.x >= inside.x and start.region.width >= len("Start") + 4, (tab, start.region)
            row = screen_lines(app)[start.region.y + 1][start.region.x:start.region.right]
            assert row.strip("▊▎ ") == "Start" and row.endswith("▎"), (tab, row)  # framed like the fields


def _block(lines: list[str], start: str, end: str) -> list[str]:
    """The rendered lines after the one that is `start` up to the one starting with `end`."""
    first = next(index for index, line in enumerate(lines) if line.strip() == start)
    last = next(index for index, line in enumerate(lines) if index > first and line.startswith(end))
    return lines[first + 1:last]


def _pasted(lines: list[str]) -> list[str]:
    """What a shell runs of these lines (comments dropped, backslash-newlines joined)."""
    return shlex.split("\n".join(lines).replace("\\\n", " "), comments=True)


@pytest.mark.parametrize("size", [(100, 30), (80, 24)], ids=["100x30", "80x24"])
async def test_a_wrapped_fix_block_pastes_as_the_same_commands(size: tuple[int, int]) -> None:
    """At 120 columns and more the card is as wide as the screen (under a short list) and this fix fits."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("4")
        for _ in range(200):
            await settle(pilot)
            if getattr(app.screen, "findings", None):
                break
        card = app.screen.query_one("#advice-card", FindingCard)
        assert card.card.id == "TRIM-CRYPT-OFF"  # its fix ends in a long `# ...` line about crypttab
        width = card.size.width
        drawn = card.render_lines(Region(0, 0, *card.outer_size))
        lines = [strip.text[card.styles.padding.left:].rstrip() for strip in drawn]
        fix = _block(lines, "Fix:", "Risk:")
        assert len(fix) > len(card.card.fix)  # the block did wrap at this width
        assert all(len(line) <= width for line in fix)
        assert _pasted(fix) == _pasted(list(card.card.fix))
        comment = next(index for index, line in enumerate(fix) if line.lstrip().startswith("# LUKS1"))
        assert fix[comment + 1].startswith("  # ")  # goes on as a comment at the same indent
        verify = lines[lines.index("Verify:") + 1:]
        assert _pasted(verify) == _pasted(list(card.card.verify))


def test_the_html_report_never_wraps_a_fix_line() -> None:
    from diskdoctor.app.report.html_report import STYLE, html_report
    from support.report_support import fixture_report

    page = html_report(fixture_report("lab-ssd"))
    assert '<p><b>Fix:</b></p><pre class="commands"><code>' in page
    assert '<p><b>Verify:</b></p><pre class="commands"><code>' in page
    rule = next(line for line in STYLE.splitlines() if line.startswith("pre {"))
    assert "white-space: pre;" in rule and "overflow-x: auto" in rule  # a long line scrolls sideways


async def test_brackets_pick_the_workload_tab_and_say_so_in_footer_and_help() -> None:
    from diskdoctor.app.tui.bench.form import BenchForm
    from diskdoctor.app.tui.help_screen import HelpScreen
    from diskdoctor.widgets.fitted_footer import FittedFooter

    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_bench(pilot)
        tabs = screen.query_one("#bench-workloads", Tabs)
        form = screen.query_one(BenchForm)
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert tabs.active == "workload-compaction" and form.kind == "compaction"
        await pilot.press("left_square_bracket", "left_square_bracket")
        await pilot.pause()
        assert tabs.active == "workload-interference" and form.kind == "interference"  # wraps round
        footer = screen.query_one(FittedFooter)
        assert "] Workload" in screen_lines(app)[footer.region.y]
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        keys = dict(app.screen.keys)
        assert "workload" in keys["["].lower() and "workload" in keys["]"].lower()


STACK_KEYS = ("F1", "^g", "v", "s", "b", "e", "/", "r", "q", "w")
"""The Stack screen's keys a new user needs at 80 columns: help, guides, every key of the screen's own, quit
and the report."""


async def test_at_80_columns_the_footer_keeps_the_screens_keys_with_full_labels() -> None:
    from diskdoctor.widgets.fitted_footer import FittedFooter
    from textual.widgets._footer import FooterKey

    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(FittedFooter)
        await pilot.pause()
        shown = [key.key_display for key in footer.query(FooterKey)]
        assert all(key in shown for key in STACK_KEYS), shown
        assert not footer.short and all(key.region.right <= 80 for key in footer.query(FooterKey))
        row = "\n".join(screen_lines(app)[footer.region.y:footer.region.bottom])
        assert "v Direction" in row and "1-6 screens" in row and row.rstrip().endswith("^p palette")
    async with DiskDoctorApp(fixture_root(LAB)).run_test(size=(200, 60)) as pilot:
        await settle(pilot)
        footer = pilot.app.screen.query_one(FittedFooter)
        assert not footer.short and "v Direction" in screen_lines(pilot.app)[footer.region.y]


@pytest.mark.parametrize("key", ["1", "2", "4", "6"])
async def test_at_80_columns_each_screen_title_is_whole(key: str) -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(key)
        await settle(pilot)
        await pilot.pause()
        title = app.screen.sub_title
        assert title and title in screen_lines(app)[0], (title, screen_lines(app)[0])
    async with DiskDoctorApp(fixture_root(LAB)).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press(key)
        await settle(pilot)
        await pilot.pause()
        assert f"6 Monitor  {pilot.app.screen.sub_title}" in screen_lines(pilot.app)[0]  # the tabs, then it


async def test_at_80_columns_the_report_dialog_shows_its_whole_path(
        private_state_dir, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """A folder of a usual length is whole at 80 (the state dir is short here: pytest's own tmp folders
    grow with the run's number, and a folder too long for the dialog is cut at a `/` by design)."""
    import shutil
    import tempfile

    from diskdoctor.app.tui.report_dialog import ReportDialog
    from textual.widgets import Input

    state = tempfile.mkdtemp(prefix="dd-")
    monkeypatch.setenv("XDG_STATE_HOME", state)
    try:
        app = DiskDoctorApp(fixture_root(LAB))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("w")
            await pilot.pause()
            assert isinstance(app.screen, ReportDialog)
            folder, name = os.path.split(app.screen.query_one("#report-path", Input).value)
            text = "\n".join(screen_lines(app))
            assert f"folder {folder}" in text and f"file   {name}" in text
    finally:
        shutil.rmtree(state, ignore_errors=True)


@pytest.fixture
def runs_on_three_filesystems(private_state_dir) -> list[str]:  # type: ignore[no-untyped-def]
    """Three WAL runs on ext4, xfs and btrfs with long mountpoints that differ only at their ends."""
    import dataclasses

    from diskdoctor.app.core.runs.stack_fingerprint import StackFingerprint
    from diskdoctor.app.core.runs.store import RunStore
    from diskdoctor.probes.wal_target import Target
    from support.runs_support import STACK, saved_run

    store, ids = RunStore(), []
    for day, (fstype, device) in enumerate((("ext4", "loop0"), ("xfs", "loop1"), ("btrfs", "loop2")),
                                           start=20):
        mount = f"/srv/diskdoctor-layout-loops/mnt-{fstype}-data"
        stack = StackFingerprint(Target(mount, mount, fstype, device, (device,)), ("rw",), STACK.layers[-1:])
        run = saved_run(day, slow_ms=2.0 + day - 20, stack=stack)
        store.save(dataclasses.replace(run, id=f"202611{day}-143000-wal-000{day - 20}"))
        ids.append(run.id)
    return ids


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_runs_list_tells_three_filesystems_apart_with_whole_verdicts(
        runs_on_three_filesystems: list[str], size: tuple[int, int]) -> None:
    from textual.widgets import DataTable

    app = DiskDoctorApp(fixture_root("etcd-raid0-lvm-luks"))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        await pilot.pause()
        table = app.screen.query_one("#runs-table", DataTable)
        if size[0] < 160:
            assert table.region.width == size[0]  # the list is not squeezed beside the details
        keys = [str(column.key.value) for column in table.columns.values()]  # no kind: every run is wal
        rows = [[getattr(cell, "plain", str(cell)) for cell in table.get_row_at(row)] for row in range(3)]
        targets = [row[keys.index("target")] for row in rows]
        assert [target.split(" (")[1].split(")")[0].split(" ")[0] for target in targets] == \
            ["btrfs", "xfs", "ext4"]  # newest first, each with its filesystem type
        assert all(f"mnt-{fs}-data" in target for fs, target in zip(("btrfs", "xfs", "ext4"), targets,
                                                                      strict=True))
        result = keys.index("result")
        assert [row[result].split(" ")[:3] for row in rows] == [
            ["PASS", "p99", "4.00"], ["PASS", "p99", "3.00"], ["PASS", "p99", "2.00"]]
        assert all("…" not in row[result].removesuffix(" …") for row in rows)  # " …": tags without room
        for row in range(3):
            for cell, column in zip(rows[row], table.columns.values(), strict=True):
                assert len(cell) <= column.width, (cell, column.width)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_a_run_shows_its_progress_and_verdict_without_scrolling(size: tuple[int, int]) -> None:
    from diskdoctor.app.tui.bench.form import BenchForm
    from diskdoctor.widgets import StatusLine
    from support.bench_fixed_run import PARAMS, TARGET, fixed_result, fixed_snapshots

    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await open_bench(pilot)
        screen.busy = True  # as start_run leaves it while the engine child runs
        screen.post_message(screen.RunStarted(TARGET, PARAMS))
        for snapshot in fixed_snapshots()[:2]:
            screen.post_message(screen.IntervalReady(snapshot))
        await pilot.pause()
        status = screen.query_one(StatusLine)
        assert "50% · 5,000 writes" in screen_lines(app)[status.region.y]  # the progress, at any size
        form = screen.query_one(BenchForm)
        summary = screen.query_one("#bench-form-summary")
        assert form.folded and "/var/lib/etcd" in screen_lines(app)[summary.region.y]
        screen.post_message(screen.RunEnded(fixed_result()))
        await pilot.pause()
        await pilot.pause(0.1)
        verdict = screen.query_one("#bench-verdict")
        lines = screen_lines(app)
        shown = lines[verdict.region.y] if verdict.region.height else ""
        assert shown.strip().startswith("PASS p99 fdatasync 899 µs < 10 ms")  # on screen, not below it
        assert lines[status.region.y].strip().startswith("PASS p99 899 µs < 10 ms [closed-loop model] · ")
        await pilot.press("e")
        await pilot.pause()
        assert not form.folded and screen.query_one("#bench-form").display


@pytest.mark.parametrize("width", [200, 206, 240])
async def test_who_does_the_io_is_as_wide_as_its_lines(width: int) -> None:
    """With the live host's rate columns, the side pane is never narrower than its longest line: beside
    the table when that much is left over (the table as wide as its columns, the pane the rest), else
    under it at full width."""
    import dataclasses

    from diskdoctor.app.tui import monitor_screen
    from diskdoctor.probes.process_io import ProcessRate, ProcessRates

    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(width, 60)) as pilot:
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        await pilot.pause(0.2)
        screen = app.screen
        screen._columns, screen._fitted_width = monitor_screen.COLUMNS, 0  # as on the live host
        screen._fit_columns(width)
        top = [ProcessRate(9050, "postgres: walwriter", 1e6, 74.3e6), ProcessRate(812, "etcd", 0.0, 2.1e6)]
        screen.post_message(monitor_screen.MonitorTick(dataclasses.replace(screen.sample,
                                                                           processes=ProcessRates(top))))
        await pilot.pause()
        await pilot.pause(0.1)
        side, table = screen.query_one("#monitor-side"), screen.query_one("#monitor-table")
        longest = re.compile(r"postgres: walwriter\[9050\] +1\.0 +74\.3")  # one row of the process table
        rows = screen_lines(app)[side.region.y:side.region.bottom]
        pane = [line[side.region.x:side.region.right] for line in rows]
        assert any(longest.search(line) for line in pane), pane
        longest = max((line.strip("│ ") for line in pane if "walwriter" in line), key=len)
        assert not screen.hidden_columns  # every figure still shows
        if side.region.x > 0:  # beside: at least its lines' width, the table as wide as its columns
            columns = sum(column.get_render_width(table) for column in table.columns.values())
            assert side.region.width >= len(longest) + 3 and table.region.width <= columns + 2
