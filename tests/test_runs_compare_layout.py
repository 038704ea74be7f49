"""The Runs screen as newuser9 read it (issue 23): the comparison's verdict and caveats above the fold at
every size, the comparison the full width under the list, results never cut silently, wrapped lines
hanging, and a title saying what is compared."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from conftest import fixture_root
from diskdoctor.app.core.runs.stack_fingerprint import StackFingerprint
from diskdoctor.app.core.runs.store import RunStore
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.runs_screen import RunsScreen
from diskdoctor.probes.wal_target import Target
from support.runs_support import saved_run
from test_runs_screen import FIXTURE, _wal_run_at_loads, open_runs
from test_text_fit import drawn, screen_lines

SCROLLBAR = " ▁▂▃▄▅▆▇█"
"""The scrollbar's thumb, drawn at the right of a row of the pane."""
LONG = "/dev/shm/newuser9/a-rather-long-target-directory-name-to-see-cuts"
TMPFS = StackFingerprint(Target("/dev/shm/newuser9", "/dev/shm", "tmpfs", None, ()), ("rw",), ())
LONG_TMPFS = StackFingerprint(Target(LONG, "/dev/shm", "tmpfs", None, ()), ("rw",), ())


def save(*runs) -> None:  # type: ignore[no-untyped-def]
    store = RunStore()
    for number, run in enumerate(runs):
        store.save(dataclasses.replace(run, id=f"202611{20 + number}-143000-wal-000{number}"))


async def compare_newest_two(pilot) -> list[str]:  # type: ignore[no-untyped-def]
    await open_runs(pilot)
    await pilot.press("space", "down", "space")
    await pilot.pause()
    return screen_lines(pilot.app)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_verdict_of_a_three_load_comparison_is_above_the_fold(private_state_dir: Path,
                                                                        size: tuple[int, int]) -> None:
    """newuser9 #2: of two tmpfs runs, `no significant change …`/`changed by less than 20%` came after the
    three loads' 22 rows (rows 31-32 at 120x40, two PgDn at 80x24); it comes before the table now."""
    store = RunStore()
    store.save(_wal_run_at_loads(20, 50.0, {50.0: 2.7, 500.0: 9.0}, "20261120-143000-wal-0000"))
    store.save(_wal_run_at_loads(21, 50.0, {50.0: 2.8, 500.0: 9.5}, "20261121-143000-wal-0001"))
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=size) as pilot:
        lines = await compare_newest_two(pilot)
        screen = "\n".join(lines)
        verdict = next((n for n, line in enumerate(lines) if "changed by less than 20%" in line), None)
        table = next(n for n, line in enumerate(lines) if re.search(r"metric +baseline +candidate", line))
        assert verdict is not None and verdict < table, screen


async def test_not_like_for_like_runs_say_not_comparable_first_and_flag_nothing(
        private_state_dir: Path) -> None:
    """Lead, issue 23: tmpfs 2 ms against ext4 9 ms raised REGRESSION; on the screen as in the CLI the
    verdict is NOT COMPARABLE, with the caveats, above the table, and no row says REGRESSION."""
    save(saved_run(20, stack=TMPFS), saved_run(21, slow_ms=9.0))
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(80, 24)) as pilot:
        lines = await compare_newest_two(pilot)
        screen = "\n".join(lines)
        detail = str(app.screen.query_one("#runs-detail").render())
        assert "REGRESSION" not in detail, detail
        assert re.search(r"NOT COMPARABLE \(not like for like\): tmpfs \(not durable\) against", screen), \
            screen
        assert "durability DIFFERS: only the baseline's fdatasync" in screen, screen
        assert app.screen.sub_title == "On this machine: comparing 0000 (baseline) with 0001"  # newuser9


async def test_continuations_hang_and_no_target_word_is_left_alone_at_80(private_state_dir: Path) -> None:
    """newuser9 #9: `(this figure is not what a durable write costs)` continued at column 1, and the
    candidate's target wrapped at column 37 leaving `vm` alone on its line."""
    host = dataclasses.replace(saved_run().host, hostname="vm")
    save(saved_run(20, stack=TMPFS, host=host), saved_run(21, slow_ms=9.0, host=host))
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(80, 24)) as pilot:
        await compare_newest_two(pilot)
        pane = app.screen.query_one("#runs-detail-pane")
        lines = [line[1:].rstrip(SCROLLBAR) for line in drawn(app, pane)]  # inside its padding, no scrollbar
        pane.scroll_end(animate=False)  # and the rest, scrolled to
        await pilot.pause()
        lines += [line[1:].rstrip(SCROLLBAR) for line in drawn(app, pane)]
        durability = next(n for n, line in enumerate(lines) if line.startswith("durability DIFFERS"))
        assert lines[durability + 1].startswith("  ") and lines[durability + 1].strip(), lines
        target = "          /dev/shm/newuser9 (tmpfs: in memory, no disk under it) on vm"
        assert target in lines, "\n".join(lines)
        assert "          /var/lib/etcd (ext4 on dm-2) on vm" in lines, "\n".join(lines)
        assert not any(line.strip() in ("vm", "on vm") for line in lines), lines


async def test_at_200_the_comparison_takes_the_whole_width_under_a_list_as_tall_as_its_rows(
        private_state_dir: Path) -> None:
    """newuser9 #3: a 124-cell list with 55 blank rows beside a comparison squeezed into 76 cells that
    wrapped every caveat; the list now sits above the comparison, which has the whole width."""
    save(saved_run(20, stack=TMPFS), saved_run(21, stack=LONG_TMPFS), saved_run(22, slow_ms=9.0))
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(200, 60)) as pilot:
        await open_runs(pilot)
        await pilot.press("space", "down", "down", "space")
        await pilot.pause()
        table, pane = app.screen.query_one("#runs-table"), app.screen.query_one("#runs-detail-pane")
        assert table.size.height <= 3 + 2 and pane.region.width == 200, (table.size, pane.region)
        screen = "\n".join(screen_lines(app))
        assert f"{LONG} (tmpfs" in screen, screen  # the long target whole
        assert re.search(r"^ NOT COMPARABLE .* not a regression *$", screen, re.M), screen  # one line


async def test_at_80_a_long_target_is_cut_before_the_results_tags_go_silently(
        private_state_dir: Path) -> None:
    """newuser9 #4: once a long target widened its column, every result ended `INCONCLUSIVE p99 3.58 ms`
    and its tags vanished without a `…`; the target is cut in its middle and the `…` stays."""
    save(saved_run(20, stack=TMPFS), saved_run(21, stack=LONG_TMPFS), saved_run(22, stack=TMPFS))
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_runs(pilot)
        rows = [line.rstrip() for line in screen_lines(app)  # the list's rows (all wal: no kind column)
                if re.match(r" +\d\d-\d\d \d\d:\d\d ", line)]
        assert len(rows) == 3, rows
        for row in rows:
            assert len(row) <= 78 and re.search(r"PASS p99 [\d.]+ ms.*(\]|…)$", row), rows
        assert any("/dev/shm/…" in row or "…" in row.split("(tmpfs)")[0] for row in rows)


@pytest.mark.parametrize("key", ["5", "1", "4"], ids=["runs", "stack", "advice"])
async def test_the_report_notice_covers_only_the_footer_at_80x24(private_state_dir: Path, key: str) -> None:
    """newuser9 #14, newuser10 #6: the "Report written" notice covered the comparison, then (shown over the
    top of the list) the Runs targets and results for about 10 s. It now sits over the footer: the list,
    the details and the status line stay readable on Runs, Stack and Advice."""
    from diskdoctor.app.tui.report_dialog import ReportDialog
    from textual.widgets import Input
    from textual.widgets._toast import Toast

    save(saved_run(20), saved_run(21, slow_ms=2.1), saved_run(22, slow_ms=2.2))
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await compare_newest_two(pilot)
        app.notify("an older notice", timeout=30)  # a new report's notice replaces it: none stack up
        await pilot.press(key)
        await app.workers.wait_for_complete()
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, ReportDialog)
        app.screen.query_one(Input).value = str(private_state_dir / "r.md")
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        for _ in range(20):  # the notice is mounted after a refresh or two
            await pilot.pause(0.05)
            if app.screen.query(Toast):
                break
        await pilot.pause(0.1)
        toast = app.screen.query_one(Toast).region
        footer = app.screen.query_one("FittedFooter").region
        assert toast.height == 2 and toast.y >= footer.y, (toast, footer)  # title and path, over the keys
        assert str(private_state_dir / "r.md") in str(app.screen.query_one(Toast).render())


async def test_a_new_pair_opens_at_the_top_of_its_comparison(private_state_dir: Path) -> None:
    """newuser10 #1: after PgDn on one pair, `c` and a new pair, the new comparison opened at the old
    scroll offset (its NOT COMPARABLE verdict two PgUp above the fold); a new pair opens at its top."""
    save(saved_run(20), saved_run(21, slow_ms=2.1), saved_run(22, slow_ms=2.2))
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(80, 24)) as pilot:
        await compare_newest_two(pilot)
        await pilot.press("pagedown")
        await pilot.pause()
        pane = app.screen.query_one("#runs-detail-pane")
        assert pane.scroll_y > 0
        await pilot.press("c", "space", "down", "space")  # 0001 and 0000 now
        await pilot.pause()
        assert app.screen.sub_title.endswith("comparing 0000 (baseline) with 0001")
        assert pane.scroll_y == 0
        assert any(line.startswith(" Comparison (the older run") for line in screen_lines(app))


async def test_the_list_names_each_run_by_its_short_id_and_has_no_blank_rows(private_state_dir: Path) -> None:
    """newuser10 #7, #11: two runs from the same minute read alike (no id while the title names them by
    id), and with two runs the list kept two blank rows above the details."""
    store = RunStore()
    for run_id in ("20261126-101200-wal-73e0", "20261126-101230-wal-3fb8"):
        store.save(dataclasses.replace(saved_run(26, stack=TMPFS), id=run_id))
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_runs(pilot)
        lines = screen_lines(app)
        assert re.match(r" +saved \(UTC\) +id +target +WAL result", lines[1]), lines[1]  # one kind
        assert re.match(r" +11-26 14:30 +3fb8 +/dev/shm/newuser9 \(tmpfs\)", lines[2]), lines[2]
        assert re.match(r" +11-26 14:30 +73e0 +/dev/shm/", lines[3]), lines[3]
        assert lines[4].startswith("─"), lines[:6]  # the details' edge right under the last run


def test_the_palette_describes_every_runs_key_and_writes_pgdn_as_a_key() -> None:
    """newuser10 #11: `Runs: Clear picks (c)` and `Runs: Scroll details (pgdn)` had no description line,
    and F1 wrote `Pgdn`."""
    from diskdoctor.app.tui.commands import screen_actions
    from diskdoctor.app.tui.help_screen import key_display

    app = DiskDoctorApp(fixture_root(FIXTURE))
    runs = {action.text: action.help for action in screen_actions(app) if action.mode == "runs"}
    assert runs["Runs: Clear picks (c)"]
    assert runs["Runs: Scroll details down (PgDn)"] and runs["Runs: Scroll details up (PgUp)"]
    keys = {key_display(binding, app.get_key_display) for binding in RunsScreen.BINDINGS}
    assert {"PgDn", "PgUp"} <= keys


def test_every_caveat_line_of_a_comparison_hangs_alike() -> None:
    """newuser10 #11: at 80 columns `durability DIFFERS` continued 2 cells in and `contention:` 13 (under
    its value, as a field); in a comparison every caveat line hangs by the same 2 cells."""
    from diskdoctor.widgets.wrap_text import wrap_lines
    from rich.text import Text

    text = Text("durability DIFFERS: only the baseline's fdatasync skipped the cache flush (this figure is "
                "not what a durable write costs)\ncontention: both runs ran on a busy host, so a change "
                "between them may be the host's load moving, not the disk")
    lines = [line.plain for line in wrap_lines(text, 78, paragraph=2, fields=False)]
    continued = [line for line in lines if line.startswith(" ")]
    assert len(continued) == 2 and all(re.match(r"  \S", line) for line in continued), lines
