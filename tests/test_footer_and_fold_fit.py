"""A new user's pass at 80x24 (issue 23): every screen's own keys show in the footer, the `/` filter says
while it is typed that Enter keeps it and Esc clears it, and the Benchmark's folded form keeps every figure
whole and cuts a long directory in its middle with an ellipsis."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.bench.folded import FoldedForm
from diskdoctor.app.tui.bench.form import BenchForm
from diskdoctor.probes.root import live_root
from diskdoctor.probes.wal_params import PROFILES
from diskdoctor.widgets.filter_bar import FilterBar
from diskdoctor.widgets.fitted_footer import FittedFooter, short_label
from rich.cells import cell_len
from support.bench_fixed_run import feed_fixed_run, long_name_mounts
from test_runs_screen import three_runs
from textual.widgets import Static
from textual.widgets._footer import FooterKey

__all__ = ["long_name_mounts", "three_runs"]

LAB = "lab-ssd"
SIZES = [(80, 24), (120, 40), (200, 60)]
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]
FIGURES = ("2,300 B", "22 MiB", "50, 500/s")
"""The etcd profile's figures as the folded form says them: bytes per write, size, the writes/s."""


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()


def screen_lines(app: DiskDoctorApp) -> list[str]:
    """The screen as a new user reads it in `tmux capture-pane`: one string per row."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def footer_text(app: DiskDoctorApp) -> str:
    """The footer's rows as the user reads them, one after the other."""
    footer = app.screen.query_one(FittedFooter)
    return "\n".join(screen_lines(app)[footer.region.y:footer.region.bottom])


def missing_keys(app: DiskDoctorApp) -> list[str]:
    """The screen's keys (every binding it shows right now) that the footer's rows do not say."""
    text = footer_text(app)
    missing = []
    for _, binding, _, _ in app.screen.active_bindings.values():
        if not binding.show or not binding.description or binding.group is not None:
            continue
        key = app.get_key_display(binding)
        labels = (binding.description, short_label(binding.description))
        if not any(f"{key} {label}" in text for label in labels):
            missing.append(f"{key} {binding.description}")
    return missing


def assert_every_key_shows(app: DiskDoctorApp, width: int) -> None:
    footer = app.screen.query_one(FittedFooter)
    assert not missing_keys(app), (missing_keys(app), footer_text(app))
    assert all(key.region.right <= width for key in footer.query(FooterKey)), footer_text(app)
    assert footer_text(app).rstrip().endswith("^p palette"), footer_text(app)
    assert footer.region.bottom == app.screen.size.height  # docked at the bottom, every row on screen


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("key", ["1", "2", "4", "5", "6"], ids=["stack", "trim", "advice", "runs", "monitor"])
async def test_every_key_of_every_screen_shows_in_the_footer_on_a_capture(key: str, size: tuple[int, int],
                                                                          three_runs: list[str]) -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press(key)
        await settle(pilot)
        assert_every_key_shows(app, size[0])


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_every_key_of_the_live_monitor_shows_in_the_footer(size: tuple[int, int]) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        assert {"p", "o", "d"} <= {b.key for _, b, _, _ in app.screen.active_bindings.values()}
        assert_every_key_shows(app, size[0])
        assert "o Sort" in footer_text(app)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_every_key_of_the_benchmark_after_a_run_shows_in_the_footer(long_name_mounts: str,
                                                                          size: tuple[int, int]) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        assert_every_key_shows(app, size[0])
        height = app.screen.query_one(FittedFooter).region.height
        feed_fixed_run(app.screen, long_name_mounts)
        await settle(pilot)
        assert {"a", "l", "f"} <= {b.key for _, b, _, _ in app.screen.active_bindings.values()}
        assert_every_key_shows(app, size[0])
        assert app.screen.query_one(FittedFooter).region.height == height  # the footer kept its height


async def test_at_80_columns_the_keys_keep_their_full_labels_and_the_app_keys_their_own_line() -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        own, app_wide = footer_text(app).splitlines()
        assert " ".join(own.split()) == "v Direction s Sources b Bench this e Expand all / Filter r Refresh"
        assert app_wide.startswith("F1 Help ^g Guides q Quit w Report  1-6 screens")
    async with DiskDoctorApp(fixture_root(LAB)).run_test(size=(200, 60)) as pilot:
        await settle(pilot)
        assert footer_text(pilot.app).startswith(
            "v Direction s Sources b Bench this e Expand all / Filter r Refresh │ F1 Help ^g Guides q Quit")
        assert pilot.app.screen.query_one(FittedFooter).lines == 1


@pytest.mark.parametrize("size", [(80, 24), (200, 60)], ids=["80x24", "200x60"])
@pytest.mark.parametrize("key", ["1", "2", "4", "5", "6"], ids=["stack", "trim", "advice", "runs", "monitor"])
async def test_while_a_filter_is_typed_the_line_says_enter_keeps_it_and_esc_clears_it(
        key: str, size: tuple[int, int], three_runs: list[str]) -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press(key)
        await settle(pilot)
        await pilot.press("slash", "s")
        await pilot.pause()
        bar = app.screen.query_one(FilterBar)
        assert bar.has_focus and bar.value == "s"
        line = screen_lines(app)[bar.region.y]
        assert re.search(r"^ s\s{2,}Enter keeps( the filter)? · Esc clears", line), line
        footer = footer_text(app)
        assert "⏎ Keep filter" in footer and "esc Clear filter" in footer, footer
        assert "/ Filter" not in footer, footer  # "/" types a slash into the filter, so it is not listed
        await pilot.press("enter")
        await pilot.pause()
        assert not bar.has_focus and "Enter keeps" not in screen_lines(app)[bar.region.y]


async def test_a_long_filter_hides_the_hint_rather_than_the_text() -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        typed = "a-filter-long-enough-to-leave-no-room-for-the-whole-hint-at-80"
        await pilot.press("slash", *typed)
        await pilot.pause()
        bar = app.screen.query_one(FilterBar)
        line = screen_lines(app)[bar.region.y]
        assert typed in line and "Esc" not in line, line


@pytest.mark.parametrize("width", range(40, 131, 3))
def test_the_folded_form_keeps_the_size_rates_and_the_directorys_last_folder_whole(width: int) -> None:
    """newuser17 #6: the directory gets priority over the bytes per write (`/tmp/ne…7-tmpfs · 2,300 B`): cut
    only at a `/`, its last folder whole from 46 columns; the size and the writes/s are never cut."""
    directory = "/tmp/nu3/mnt-ext4-discard-with-a-long-name/etcd-data-directory"
    folded = FoldedForm(PROFILES["etcd"], directory)
    line = folded.line(width).plain
    assert cell_len(line) <= width, line
    for figure in FIGURES[1:]:
        assert figure in line, (width, line)
    shown = next((part for part in line.split(" · ") if part.startswith(("/", "…/"))), "")
    head, cut, tail = shown.partition("…")
    whole_ends = bool(cut) and directory.startswith(head) and directory.endswith(tail)
    start, _, end = shown.removeprefix("…/").partition("…")  # or its last folder cut in its middle after …/
    last_cut = shown.startswith("…/") and "etcd-data-directory".startswith(start) and (
        "etcd-data-directory".endswith(end))
    assert shown == directory or whole_ends or (width < 46 and last_cut), shown
    assert width < 46 or shown == directory or tail.endswith("/etcd-data-directory"), (width, line)
    assert "2,300 B" in line or shown != directory, line  # the bytes per write go only for the path
    if width >= cell_len(folded.plain):
        assert line == folded.plain  # nothing dropped where it all fits


@pytest.mark.parametrize("width", [78, 118])
def test_the_folded_form_says_a_custom_runs_seconds_once_and_its_path_whole(width: int) -> None:
    """newuser17 #6 at 80x24: `e: edit · etcd WAL (custom: 5 s) · /tmp/ne…7-tmpfs · 2,300 B · 5 s · 50, 500/s`
    cut the path's distinctive part and said `5 s` twice."""
    params = replace(PROFILES["etcd"], duration_s=5.0, profile="custom")
    line = FoldedForm(params, "/tmp/newuser17-tmpfs").line(width).plain
    assert "etcd WAL (custom: 5 s)" in line and " · /tmp/newuser17-tmpfs · " in line, line
    assert "50, 500/s" in line and (line.count("5 s") == 1 or width >= 100), line


async def test_at_80x24_the_folded_form_and_the_directory_field_show_a_cut_path_with_an_ellipsis(
        long_name_mounts: str) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        screen = app.screen
        screen.choose_directory(long_name_mounts)
        await settle(pilot)
        field = screen.query_one("#bench-dir")
        shown = screen_lines(app)[field.region.y + 1][field.region.x:field.region.right].strip("▊▎ ")
        head, cut, tail = shown.partition("…")
        assert cut and long_name_mounts.startswith(head) and long_name_mounts.endswith(tail), shown
        feed_fixed_run(screen, long_name_mounts)
        await settle(pilot)
        summary = screen.query_one("#bench-form-summary", Static)
        line = screen_lines(app)[summary.region.y]
        assert line.startswith(" e: edit"), line
        for figure in FIGURES:
            assert figure in line, line
        assert "…" in line and "50,5…" not in line, line


async def test_a_stack_filter_that_keeps_no_device_leaves_an_empty_tree_not_a_traceback() -> None:
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"zzqq", "enter")
        await settle(pilot)
        assert app.is_running and "0 of 37 devices" in screen_lines(app)[1], screen_lines(app)[1]
        await pilot.press("j", "k", "g", "G", "e", "right", "left", "escape")
        await settle(pilot)
        assert app.is_running and "37 devices" in screen_lines(app)[1]


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)], ids=["80x24", "120x40", "200x60"])
async def test_benchmark_keys_keep_one_set_of_labels_before_and_after_a_run(size: tuple[int, int]) -> None:
    """newuser8: `/ Directory t Threshold` during a run, `/ Dir t Limit` after it; and at 200 `[ ] Workload│`
    had no space before the bar."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        labels = {key.action: key.description for key in app.screen.query(FooterKey)}
        before = (labels.get("focus_directory"), labels.get("threshold"))
        assert before[0] and before[1]
        feed_fixed_run(app.screen)
        await settle(pilot)
        await pilot.pause(0.3)
        labels = {key.action: key.description for key in app.screen.query(FooterKey)}
        assert (labels.get("focus_directory"), labels.get("threshold")) == before
        assert "Workload│" not in footer_text(app)


async def test_at_80x24_the_benchmark_footer_keeps_edit_and_fio_folded_or_not(long_name_mounts: str) -> None:
    """newuser13 #1, newuser14 #6: at 80 after a run the footer left out `f fio` (the form folded) or `e` (the
    form unfolded). Every key shows, one word each (`e Edit`, `] Workload`), and e folds the form back."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        feed_fixed_run(app.screen, long_name_mounts)
        await settle(pilot)
        form = app.screen.query_one(BenchForm)
        for folded in (True, False, True):
            assert form.folded is folded
            text = footer_text(app)
            for key in ("s Start", "d Dir", "t Threshold", "e Edit", "l Longer", "a Again", "f fio",
                        "] Workload"):
                assert key in text, (folded, text)
            assert_every_key_shows(app, 80)
            await pilot.press("e")
            await settle(pilot)
        await pilot.press("d")  # d on the open form moves to the directory and leaves the form open
        await settle(pilot)
        assert not form.folded and app.screen.focused is app.screen.query_one("#bench-dir")
