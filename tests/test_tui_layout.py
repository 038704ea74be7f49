"""What a new user saw in tmux at 80x24, 120x40 and 200x60 (issue 23), driven with Pilot: no figure or
title clipped without an ellipsis, the worst first, one row per repeated finding, `/` filters, one
selection across screens, guides whose verdicts agree with their figures."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.advice_screen import AdviceScreen
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.help_screen import HelpScreen
from diskdoctor.probes.io_monitor import CpuSample
from test_runs_screen import three_runs
from textual.widgets import DataTable, Static
from textual.widgets._header import HeaderTitle

__all__ = ["three_runs"]

LAB = "lab-ssd"
SIZES = [(80, 24), (120, 40), (200, 60)]
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def open_advice(pilot) -> AdviceScreen:  # type: ignore[no-untyped-def]
    await settle(pilot)
    await pilot.press("4")
    for _ in range(200):
        await settle(pilot)
        if isinstance(pilot.app.screen, AdviceScreen) and getattr(pilot.app.screen, "all_rows", True):
            break
    await pilot.pause()
    return pilot.app.screen


def plain_cells(table: DataTable, row: int) -> list[str]:
    return [getattr(cell, "plain", str(cell)) for cell in table.get_row_at(row)]


def fits(table: DataTable) -> bool:
    """Every column lies inside the table (none hidden to the right behind a scrollbar or a pane)."""
    used = sum(column.get_render_width(table) for column in table.columns.values())
    return used <= table.scrollable_content_region.width


def cells_whole_or_marked(table: DataTable) -> None:
    for row in range(table.row_count):
        for cell, column in zip(plain_cells(table, row), table.columns.values(), strict=True):
            assert all(len(line) <= column.width for line in cell.split("\n")), (cell, column.width)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_advice_titles_are_whole_or_end_in_an_ellipsis_and_every_column_is_visible(
        size: tuple[int, int]) -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=size) as pilot:
        screen = await open_advice(pilot)
        table = screen.query_one("#advice-table", DataTable)
        assert fits(table)
        cells_whole_or_marked(table)
        for index, row in enumerate(screen.rows):
            title = plain_cells(table, index)[1].replace("\n", " ")  # a row may go on on a second line
            assert title == row.title or (title.endswith("…") and row.title.startswith(title[:-1].rstrip()))
            assert len(title) >= 24  # a title column of 15 cells says nothing


async def test_advice_is_worst_first_with_repeated_findings_merged() -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_advice(pilot)
        ids = [row.finding.id for row in screen.rows]
        assert ids[:2] == ["TRIM-CRYPT-OFF", "TRIM-CRYPT-OFF"]  # discard blocked: the worst consequence
        assert ids.index("TRIM-NO-SCHEDULE") < ids.index("TRIM-LVM-MYTH")  # unscheduled before info
        assert ids.count("TRIM-LVM-MYTH") == 1 and ids.count("TRIM-NO-SCHEDULE") == 1
        myth = next(row for row in screen.rows if row.finding.id == "TRIM-LVM-MYTH")
        assert len(myth.subjects) > 5 and myth.subjects_text.startswith(f"{len(myth.subjects)}: /lab/")
        assert len(screen.findings) > len(screen.rows)  # every finding is still there behind the rows
        assert "worst first" in str(screen.query_one("#advice-summary", Static).render())


async def test_trim_rows_are_worst_first() -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        table = pilot.app.screen.query_one("#trim-table", DataTable)
        verdicts = [plain_cells(table, row)[2] for row in range(table.row_count)]
        assert verdicts == sorted(verdicts, key=["BLOCKED", "UNSCHEDULED", "UNSUPPORTED", "UNKNOWN",
                                                 "OK"].index)
        assert verdicts[0] == "BLOCKED" and "UNSCHEDULED" in verdicts


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_monitor_never_hides_a_figure_behind_the_side_pane(size: tuple[int, int]) -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        await pilot.pause(0.2)
        screen = pilot.app.screen
        table = screen.query_one("#monitor-table", DataTable)
        assert fits(table)
        keys = [str(column.key.value) for column in table.columns.values()]
        assert "sectors_written" in keys  # the capture's "written" is never the one left out
        status = str(screen.query_one("#monitor-status", Static).render())
        if screen.hidden_columns:
            assert status.startswith(f"+{len(screen.hidden_columns)} hidden: {screen.hidden_columns[0]}")
        side = screen.query_one("#monitor-side")
        assert not side.display or side.region.y > table.region.y  # under, or (a capture) not at all


async def test_monitor_at_200_shows_every_column_beside_who_does_the_io() -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        screen = pilot.app.screen
        table = screen.query_one("#monitor-table", DataTable)
        assert fits(table) and not screen.hidden_columns
        side = screen.query_one("#monitor-side")
        assert side.region.x >= table.region.right - 1 and side.region.y == table.region.y


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_stack_tree_pane_fits_its_columns_and_adds_lsblk_columns_when_there_is_room(
        size: tuple[int, int]) -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.pause(0.2)
        screen = pilot.app.screen
        header = str(screen.query_one("#stack-columns", Static).render())
        tree = screen.query_one("#stack-tree")
        pane = screen.query_one("#stack-pane")
        if size[0] >= 200:
            assert all(name in header for name in ("ROTA", "SCHED", "DISC-MAX", "DISC-GRAN"))
            assert "mq-deadline" in str(tree.render_label(tree.root.children[0], tree.rich_style,
                                                          tree.rich_style))
        elif size[0] < 120:
            assert "ROTA" not in header  # names and mountpoints first
        details = screen.query_one("#details-pane")
        if details.region.x > pane.region.x:  # beside (240 columns and wider)
            assert pane.size.width <= tree.natural_width() + 1  # no wider than what it holds
        assert details.size.width >= 44


async def test_stack_mounts_down_says_the_trim_verdict() -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("v")
        await settle(pilot)
        tree = pilot.app.screen.query_one("#stack-tree")
        rows = {node.data.key: node.data.trim for node in tree.root.children}
        assert rows["mount:/lab/data"] == "UNSCHEDULED" and rows["mount:/lab/luks1"] == "BLOCKED"


async def test_runs_show_each_target_at_80_and_120(three_runs: list[str]) -> None:
    for size in ((80, 24), (120, 40)):
        app = DiskDoctorApp(fixture_root("etcd-raid0-lvm-luks"))
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await pilot.press("5")
            await settle(pilot)
            table = pilot.app.screen.query_one("#runs-table", DataTable)
            assert fits(table)
            assert "target" in [str(c.key.value) for c in table.columns.values()]
            assert table.columns["target"].width >= 16  # type: ignore[index]
            cells_whole_or_marked(table)


async def test_help_lists_each_key_once() -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        keys = [key for key, _ in app.screen.keys]
        assert keys.count("^g") == 1, keys


async def test_slash_filters_advice_and_trim_and_escape_brings_every_row_back() -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_advice(pilot)
        every = len(screen.rows)
        await pilot.press("slash", "t", "h", "i", "n")
        await pilot.pause()
        assert 0 < len(screen.rows) < every
        assert all("thin" in (row.finding.title + " ".join(row.subjects)).lower() for row in screen.rows)
        await pilot.press("escape")
        await pilot.pause()
        assert len(screen.rows) == every
        await pilot.press("2")
        await settle(pilot)
        table = app.screen.query_one("#trim-table", DataTable)
        every = table.row_count
        await pilot.press("slash", "b", "l", "o", "c", "k", "e", "d", "enter")
        await pilot.pause()
        assert table.row_count == 4 < every and app.screen.focused is table
        await pilot.press("j", "G")
        await pilot.pause()
        assert table.cursor_row == 3


async def test_the_selection_on_stack_is_the_one_on_trim_advice_and_monitor() -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("v")
        await settle(pilot)
        tree = app.screen.query_one("#stack-tree")
        await pilot.press("j", "g")  # the user picks the first row (BLOCKED /lab/luks1, worst first)
        await pilot.pause()
        assert tree.cursor_key() == "mount:/lab/luks1"
        await pilot.press("2")
        await settle(pilot)
        assert app.screen.selected == "/lab/luks1"
        screen = await open_advice(pilot)
        assert screen.subject == "/lab/luks1"
        assert {s for row in screen.rows for s in row.subjects} >= {"/lab/luks1"}
        assert all("/lab/luks1" in row.subjects for row in screen.rows)
        await pilot.press("a")
        await pilot.pause()
        assert screen.subject is None and len(screen.rows) > 2
        await pilot.press("6")
        await settle(pilot)
        await pilot.pause(0.2)
        assert app.screen._selected_key() == "group|/lab/luks1"


def test_slow_guide_never_calls_a_busy_device_or_busy_cpus_idle() -> None:
    from diskdoctor.app.tui.guides.slow_guide import slow_verdict

    class Delta:
        util = 0.87

    class Row:
        name = "loop1"

    class Busiest:
        delta, row, saturated = Delta(), Row(), False

    class Sample:
        cpu = CpuSample(busy=1.0, iowait=0.0, steal=0.0)

    headline, _ = slow_verdict(Sample(), Busiest())  # type: ignore[arg-type]
    assert "idle" not in headline and "loop1 is 87% busy" in headline and "100% busy" in headline
    Delta.util = 0.1
    headline, _ = slow_verdict(Sample(), Busiest())  # type: ignore[arg-type]
    assert "idle" not in headline and "CPU-bound" in headline


def test_a_guide_fix_line_is_a_command_not_a_comment() -> None:
    from diskdoctor.app.tui.guides.common_steps import first_command

    fix = ("# neither systemd nor a cron daemon runs here: trim by hand off-peak:", "fstrim --verbose /data")
    assert first_command(fix) == "fstrim --verbose /data"


async def test_the_report_key_says_the_full_path_it_wrote(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await pilot.pause()
        field = app.screen.query_one("#report-path")
        field.value = "case.md"
        await pilot.press("enter")
        await settle(pilot)
        await pilot.pause(0.2)
        from support.report_support import report_written

        said = report_written(app)  # the folder's lines, the file, then what the report holds
        assert said.startswith(f"Wrote {tmp_path / 'case.md'}: ") and (tmp_path / "case.md").exists(), said


def test_stack_reads_the_host_again_when_a_loop_device_is_attached(tmp_path: Path) -> None:
    import asyncio

    from conftest import live_prerequisites
    from diskdoctor.probes.root import live_root

    why = live_prerequisites()
    if why:
        pytest.skip(why)
    image = tmp_path / "hotplug.img"
    subprocess.run(["truncate", "-s", "16M", str(image)], check=True)

    async def attach_while_shown() -> tuple[str, set[str]]:
        app = DiskDoctorApp(live_root())
        device = ""
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            try:
                device = subprocess.run(["losetup", "-f", "--show", str(image)], capture_output=True,
                                        text=True, check=True).stdout.strip()
                kname = device.rsplit("/", 1)[-1]
                deadline = time.monotonic() + 15
                while time.monotonic() < deadline:  # no r pressed: the udev event must bring it in
                    await pilot.pause(0.2)
                    await pilot.app.workers.wait_for_complete()
                    host = app.screen.host
                    if host is not None and kname in host.devices and host.devices[kname].size_bytes.value:
                        break
                shown = {node.data.key for node in app.screen.query_one("#stack-tree").root.children
                         if node.data is not None}
                return kname, shown
            finally:
                if device:
                    subprocess.run(["losetup", "-d", device], check=False)

    kname, shown = asyncio.run(attach_while_shown())
    assert kname in shown


async def test_slash_filters_the_stack_tree_to_the_stacks_that_match() -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        tree = app.screen.query_one("#stack-tree")
        every = len(tree.root.children)
        await pilot.press("slash", "s", "d", "b", "enter")
        await pilot.pause()
        assert [node.data.key for node in tree.root.children] == ["sdb"] and every > 1
        assert app.screen.focused is tree
        await pilot.press("slash", "escape")
        await pilot.pause()
        assert len(tree.root.children) == every


async def test_monitor_sorts_by_a_column_largest_first_and_back_to_grouped() -> None:
    from diskdoctor.app.tui.monitor_screen import sort_value

    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        screen = app.screen
        table = screen.query_one("#monitor-table", DataTable)
        figures = [str(c.key.value) for c in table.columns.values() if c.key.value != "device"]
        await pilot.press(*["o"] * (figures.index("sectors_written") + 1))
        await pilot.pause()
        assert screen.sort_key == "sectors_written"
        column = list(table.columns).index("sectors_written")  # type: ignore[arg-type]
        written = [sort_value(plain_cells(table, row)[column]) for row in range(table.row_count)]
        assert written == sorted(written, reverse=True) and table.row_count > 5
        assert not any(key.startswith("group|") for key in screen._row_keys)  # every device once
        assert "written▼" in str(table.columns["sectors_written"].label)  # type: ignore[index]
        await pilot.press(*["o"] * (len(figures) - figures.index("sectors_written")))
        await pilot.pause()
        assert screen.sort_key is None and screen._row_keys[0].startswith("group|")


async def test_each_workload_is_a_tab_of_the_benchmark_screen() -> None:
    from diskdoctor.app.tui.bench.form import BenchForm
    from diskdoctor.probes.root import live_root
    from textual.widgets import Select, Tabs

    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        tabs = app.screen.query_one("#bench-workloads", Tabs)
        assert [str(tab.label) for tab in tabs.query("Tab")] == ["wal", "compaction", "randwrite",
                                                                  "interference"]
        await pilot.click("#workload-compaction")
        await pilot.pause()
        form = app.screen.query_one(BenchForm)
        assert form.kind == "compaction" and app.screen.query_one("#bench-jobs").display
        app.screen.query_one("#bench-profile", Select).value = "randwrite"
        await pilot.pause()
        assert tabs.active == "workload-randwrite" and form.kind == "randwrite"


def test_a_run_that_does_not_fit_says_what_to_lower_and_what_it_costs() -> None:
    from diskdoctor.app.tui.bench.run import space_hint

    said = space_hint("not enough free space in /mnt/x: the run needs 600.0 MiB (files plus 60.0 MiB "
                      "margin), 250.0 MiB free")
    assert "lower the size field" in said and "flatter the device" in said
    assert space_hint("/mnt/x does not exist") == "/mnt/x does not exist"


async def test_advice_gives_subjects_the_cells_the_finding_column_does_not_draw() -> None:
    """long-names at 200 (newuser11 #4): the Finding column is as wide as its widest line, and the long
    subjects it leaves room for are shown whole, not cut beside ~50 blank title cells."""
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await open_advice(pilot)
        table = screen.query_one("#advice-table", DataTable)
        finding = list(table.columns.values())[1].width
        titles = [plain_cells(table, row)[1] for row in range(table.row_count)]
        drawn = max(len(line) for title in titles for line in title.split("\n"))
        assert drawn == finding
        subjects = [plain_cells(table, row)[2] for row in range(table.row_count)]
        assert "2: /, /srv/postgresql/16/main/pg_wal_archive_for_point_in_time_recovery" in subjects
        assert "…" not in subjects[0]


async def test_lists_with_rows_below_the_fold_say_so_on_the_status_line() -> None:
    """Advice and Monitor at 80x24 on lab-ssd (newuser11 #8): rows the list cannot show are said, as on
    TRIM ("5 of 7 rows fit: ↓ for more"), not silently out of sight."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_advice(pilot)
        await pilot.pause(0.1)
        status = str(screen.query_one("#status", Static).render())
        assert f"of {len(screen.rows)} rows fit: ↓ for more" in status
        await pilot.press("6")
        await settle(pilot)
        await pilot.pause(0.2)
        monitor = pilot.app.screen.query_one("#monitor-table", DataTable)
        status = str(pilot.app.screen.query_one("#monitor-status", Static).render())
        assert f"of {monitor.row_count} rows fit: ↓ for more" in status


async def test_the_report_notice_covers_whole_footer_keys_and_leaves_no_stray_letter(
        tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """At 80x24 (newuser11 #8) the notice lay over `^p palett` and left its `e` beside the path: it now
    spans the screen's width over the footer's rows, so no key is half covered."""
    monkeypatch.chdir(tmp_path)
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await pilot.pause()
        app.screen.query_one("#report-path").value = "diskdoctor-vm-20261126-1053.html"
        await pilot.press("enter")
        await settle(pilot)
        await pilot.pause(0.5)
        from textual.widgets._toast import Toast

        toast = app.screen.query_one(Toast)
        footer = app.screen.query_one("FittedFooter")
        assert toast.region.x == 0 and toast.region.width == 80
        assert toast.region.bottom == footer.region.bottom


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_the_title_row_shows_the_tabs_from_120_columns_on_every_screen(size: tuple[int, int]) -> None:
    """One rule (newuser11 #8, newuser17 #8): below 120 columns the title row shows the current screen's key
    and name alone on every screen, however short the screen's words (Monitor's are short); from 120 the
    tabs of every screen."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        await pilot.pause(0.2)
        header = app.screen.query_one(HeaderTitle)
        shown = "".join(segment.text for segment in header.render_lines(header.region.reset_offset)[0])
        assert shown.startswith(" 6 Monitor ") == (size[0] < 120), shown
        assert ("1 Stack  2 TRIM" in shown) == (size[0] >= 120), shown


async def test_advice_details_name_the_finding_id_once() -> None:
    """newuser11 #8: the pane said `ETCD-FSYNC-P99 · /dev/shm` and the card under it `WARN  ETCD-FSYNC-P99`;
    the id is now said once, above the card, and the card's first line is its severity and title."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_advice(pilot)
        finding = screen.selected()
        header = screen.query_one("#advice-details-title", Static)
        title = "".join(segment.text for segment in header.render_lines(header.region.reset_offset)[0])
        card = screen.query_one("#advice-card").plain
        assert title.strip().startswith(finding.id)
        assert finding.id not in card.split("\n")[0] and card.split("\n")[0].strip().startswith("WARN")


async def test_monitor_sorted_rows_put_one_space_before_every_mountpoint() -> None:
    """Monitor at 120x40 on lab-ssd, sorted (newuser11 #8): one space before the mountpoint on every row
    (it was one for the longest names, two elsewhere), and every name whole."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        await pilot.press("o")
        await pilot.pause()
        screen = app.screen
        table = screen.query_one("#monitor-table", DataTable)
        cells = [plain_cells(table, row)[0] for row in range(table.row_count)]
        with_mount = [cell for cell in cells if " /" in cell]
        assert with_mount and not any("  /" in cell for cell in with_mount), with_mount
        assert "vg0-pool_nopassdown-tpool /lab/thin_nopassdown" in cells


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_the_header_always_says_a_capture_cutting_a_long_host_name(size: tuple[int, int]) -> None:
    """newuser12 #9: on long-names at 80 the Stack header was the host name alone (`capture long-names`
    dropped, nothing said it was a capture): the host name is cut in the middle instead."""
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.pause(0.2)
        header = app.screen.query_one(HeaderTitle)
        shown = "".join(segment.text for segment in header.render_lines(header.region.reset_offset)[0])
        assert "capture long-names" in shown and "k8s-worker" in shown and "internal" in shown, shown


@pytest.mark.parametrize("fixture,text", [("lab-ssd", "slow"), ("lab-ssd", "s"), ("long-names", "elastic")])
async def test_typing_a_stack_filter_keeps_the_hidden_columns_note(fixture: str, text: str) -> None:
    """newuser12 #9: typing a Stack filter at 80x24 dropped one of the filter's statement and the `+N
    hidden` note from the status line: both stay (shortened), the row's verdict cut to what they leave."""
    from diskdoctor.app.tui.stack_status import StackStatus
    from diskdoctor.widgets import StackTree

    app = DiskDoctorApp(fixture_root(fixture))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.pause(0.2)
        await pilot.press("slash", *text)
        await settle(pilot)
        await pilot.pause(0.2)
        line = str(app.screen.query_one(StackStatus).render())
        hidden = len(app.screen.query_one(StackTree).hidden_extra())  # fewer rows kept: fewer hidden
        assert hidden and f"filter '{text}': " in line and f"+{hidden} hidden" in line, line
        assert line.startswith("discard passes"), line  # the verdict still leads (cut: newuser23 #11)
