"""Advice and Runs at 80 columns (issue 23, newuser13/newuser14): a filter within a narrowed list says
so and matches only what is shown; one rule per column on long-names; Runs targets that read alike."""

from __future__ import annotations

import re

from conftest import fixture_root
from diskdoctor.app.tui.advice_screen import AdviceScreen
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.selection import choose
from test_list_layout import screen_lines
from test_tui import settled
from textual.widgets import DataTable


async def _advice(app: DiskDoctorApp, pilot) -> AdviceScreen:  # type: ignore[no-untyped-def]
    await settled(app, pilot)
    await pilot.press("4")
    await settled(app, pilot)
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, AdviceScreen)
    return screen


def _rows(app: DiskDoctorApp, table: DataTable) -> list[str]:
    """The list's rows as the screen shows them, header first."""
    region = table.region
    return [line[region.x:region.right] for line in screen_lines(app)[region.y:region.bottom]]


async def test_a_filter_within_a_narrowed_list_names_the_scope_and_matches_only_what_shows() -> None:
    """newuser14 #3 at 80x24: narrowed to /lab/luks2on, `/raid` kept `Discard reaches the bottom of
    /lab/luks2on's stack…` (matched on hidden subjects /lab/raid0, /lab/raid1) under `filter 'raid': 1 of 7
    rows`, a line that did not say the RAID finding was hidden by the scope."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)
        choose(app, None, "/lab/luks2on", "stack")
        screen = await _advice(app, pilot)
        assert screen.subject == "/lab/luks2on"
        scoped = len(screen.rows)
        await pilot.press("slash", *"raid", "enter")
        await pilot.pause()
        await pilot.pause()
        table = screen.query_one("#advice-table", DataTable)
        for row in screen.rows:  # every row kept shows what matched
            assert "raid" in screen._title_of(row).casefold() or "raid" in row.finding.id.casefold()
        lines = screen_lines(app)
        status = lines[screen.query_one("#status").region.y].strip()
        assert status.startswith("only /lab/luks2on (a: all)") and "raid" not in status, status  # whole at 80
        from diskdoctor.widgets.filter_bar import FilterBar
        bar = screen.query_one(FilterBar).summary  # the filter is said once, on its line (newuser24 #15)
        assert bar.startswith("filter: raid within /lab/luks2on") and f"of {scoped} findings" in bar, bar
        assert not any("luks2on's stack" in line for line in _rows(app, table))
        await pilot.press("a")  # every finding: the RAID one shows
        await pilot.pause()
        await pilot.pause()
        assert any("stripe" in line for line in _rows(app, table)), _rows(app, table)
        assert "within" not in screen.query_one(FilterBar).summary  # the count follows the scope


async def test_long_names_at_80_subjects_are_all_cut_on_one_line_or_all_whole() -> None:
    """newuser14 #7, newuser13 #3 at 80x24: `/var/…f708192a3/mount` over a blank line, `2: /,` over
    `/srv/postg…e_recovery`, then `2: /srv/postgresql/1…` on one line; row 1's title ended `discard on …`."""
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _advice(app, pilot)
        table = screen.query_one("#advice-table", DataTable)
        columns = list(table.ordered_columns)
        subjects = next(column for column in columns if str(column.label).startswith("Subject"))
        before = columns[:columns.index(subjects)]
        start = table.region.x + sum(column.get_render_width(table) for column in before)
        cells: list[list[str]] = []
        for line in _rows(app, table)[1:1 + sum(screen._heights)]:
            text = line[start - table.region.x:].strip()
            if line[:6].strip():  # a row's first line (its severity)
                cells.append([text])
            else:
                cells[-1].append(text)
        wrapped = [cell for cell in cells if len([part for part in cell if part]) > 1]
        cut = [cell for cell in cells if any("…" in part for part in cell)]
        assert not (wrapped and cut), cells
        assert all(cell[0] for cell in cells), cells  # never a blank first line
        assert not any(re.search(r"\d…", part) for cell in cells for part in cell), cells  # not inside `16`


async def test_runs_at_120_drop_this_years_year_before_cutting_a_target(private_state_dir) -> None:  # type: ignore[no-untyped-def]
    """newuser14 #9 at 120: `2026-11-26 13:54  8390  wal   /mnt/…/bench (ext4)  FAIL p99 15.4 ms >= 10 ms`:
    the year took the cells the target needed; 80 already drops it."""
    import dataclasses
    import datetime as dt

    from diskdoctor.app.core.runs.stack_fingerprint import StackFingerprint
    from diskdoctor.app.core.runs.store import RunStore
    from diskdoctor.probes.wal_target import Target
    from support.runs_support import STACK, saved_run

    store = RunStore()
    year = dt.datetime.now(dt.timezone.utc).year
    for day, slow, directory, fstype in ((24, 12.5, "/var/tmp/newuser14", "ext4"),
                                         (25, 5.16, "/dev/shm/newuser14", "tmpfs"),
                                         (26, 15.4, "/mnt/scratch/bench", "ext4")):
        device = "vda1" if fstype == "ext4" else None
        stack = StackFingerprint(Target(directory, directory, fstype, device, (device,) if device else ()),
                                 STACK.mount_options, STACK.layers)
        run = saved_run(day, slow_ms=slow, stack=stack)
        store.save(dataclasses.replace(run, saved_at=run.saved_at.replace(year=year)))
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("5")
        await settled(app, pilot)
        await pilot.pause()
        screen = "\n".join(screen_lines(app))
        for target in ("/mnt/scratch/bench (ext4)", "/dev/shm/newuser14 (tmpfs)",
                       "/var/tmp/newuser14 (ext4)"):
            assert target in screen, screen
        rows = [line for line in screen.splitlines()  # the list's rows (every run wal: no kind column)
                if re.search(r"(PASS|FAIL) p99 ", line) and "verdict" not in line]
        # every run wal (runs7): the kind column's cells go to the others, and the targets are whole; this
        # year's runs drop the year under 160 columns whatever the targets (newuser19 #8: one format per
        # width, test_runs_date_format)
        assert len(rows) == 3 and not any(f"{year}-" in row for row in rows), rows
        assert "  11-26 14:30  " in rows[0], rows


async def test_a_filter_matches_the_severity_the_list_shows() -> None:
    """`/warn` keeps the rows whose Sev column says WARN (it matched none: severity was not searched)."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _advice(app, pilot)
        warned = [row for row in screen.rows if row.finding.severity.value == "warn"]
        assert warned
        await pilot.press("slash", *"warn", "enter")
        await pilot.pause()
        await pilot.pause()
        assert screen.rows == warned
