"""The Benchmark screen as newuser22 found it (issue 23): the threshold row whole after a run (#2), a run
started from a focused form field leaves it (#6), the workload keys never read as a checkbox (#7), a field
keeps its width after a run (#8)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.bench.form import BenchForm
from diskdoctor.probes.root import live_root
from diskdoctor.probes.wal_params import PROFILES
from support.bench_fixed_run import feed_fixed_run, fixture_mounts, long_name_mounts
from test_bench_screen import open_bench
from test_footer_and_fold_fit import footer_text, screen_lines
from textual.widgets import Input, Select

__all__ = ["fixture_mounts", "long_name_mounts"]
SIZES = [(80, 24), (120, 40), (200, 60)]


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
async def test_s_pressed_in_the_filesystem_menu_leaves_it_for_the_runs_keys(
        fixture_mounts: None, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    """newuser22 #6: the filesystem picked in its menu and s pressed there: the footer said only `esc Leave
    field` during the run and after it (the menu, disabled while a run goes, handed its focus to the directory
    field), the result's keys (c, l, a, f) only after Esc."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await open_bench(app, pilot)
        monkeypatch.setattr(screen.engine, "start", lambda *args: None)  # no child: the run is fed below
        menu = screen.query_one("#bench-fs", Select)
        menu.value = menu._options[-1][1]
        menu.focus()
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        assert screen.busy and app.focused is None, app.focused
        assert "Leave field" not in footer_text(app) and "Cancel" in footer_text(app), footer_text(app)
        feed_fixed_run(screen)
        await pilot.pause(0.5)
        footer = footer_text(app)
        assert app.focused is None and "Leave field" not in footer, footer
        assert " Again" in footer or "a Run again" in footer, footer


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
async def test_the_workload_keys_never_read_as_a_checkbox(fixture_mounts: None,
                                                          size: tuple[int, int]) -> None:
    """newuser22 #7: `[ ] Workload` beside the form's `▐X▌ prealloc` read as an unticked checkbox; the
    footer says `] Workload`, and F1 lists both keys, each with its own words."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        await open_bench(app, pilot)
        footer = footer_text(app)
        assert "[ ]" not in footer and "] Workload" in footer, footer
        await pilot.press("f1")
        await pilot.pause()
        shown = "\n".join(screen_lines(app))
        assert "[ ]" not in shown, shown  # F1: `[` and `]`, each on its own row with its own words


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("fixture", ["etcd", "long-names"])
async def test_after_a_run_the_threshold_row_is_whole_in_view(
        request: pytest.FixtureRequest, size: tuple[int, int], fixture: str) -> None:
    """newuser22 #2: at 120x40 after a run only the threshold's top border showed over the status line
    (`▊▔ threshold ▔▔▔▔▔▔▔▔▔▔▎▊▔ ms ▔▔▔▔▔▎`), its value under it; at 80x24 it was below the fold. It
    follows the verdict it judges: its three rows show whole under it, and its value can be read."""
    if fixture == "etcd":
        request.getfixturevalue("fixture_mounts")
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await open_bench(app, pilot)
        directory = request.getfixturevalue("long_name_mounts") if fixture == "long-names" else None
        feed_fixed_run(screen, directory)
        await pilot.pause()
        screen.set_focus(None)
        await pilot.pause(1.0)  # where the column rests once the verdict is pinned
        body = screen.query_one("#bench-body" if screen.has_class("-narrow") else "#bench-right")
        row = screen.query_one("#bench-threshold-row")
        lines = screen_lines(app)
        if size == (80, 24) and fixture == "long-names":  # its verdict alone is taller than the column:
            assert row.region.y >= body.region.bottom, lines  # the row waits whole below it (PgDn), uncut
            return
        assert body.region.y <= row.region.y and row.region.bottom <= body.region.bottom, lines
        assert "threshold" in lines[row.region.y] and "etcd docs 10 ms" in lines[row.region.y + 1], lines
        assert screen.query_one("#bench-verdict").region.bottom <= row.region.y < \
            screen.query_one("#bench-advice").region.y


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
async def test_the_seconds_field_keeps_its_width_after_a_run(fixture_mounts: None, size: tuple[int, int],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """newuser22 #8: `seconds` was `▊▔ seconds ▔▔▔▔▔▎` before the first run (`until size`) and `▊▔ seconds ▔▎`
    after a run of 5 s, so the form's second row shifted; one width whatever run happened."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await open_bench(app, pilot)
        monkeypatch.setattr(screen.engine, "start", lambda *args: None)  # no child: only the form matters
        seconds = screen.query_one("#bench-duration")
        before = seconds.outer_size.width
        screen.start_run(replace(PROFILES["etcd"], duration_s=5.0), "/var/lib/etcd")
        await pilot.pause()
        assert screen.query_one("#bench-duration", Input).value == "5"
        screen.query_one(BenchForm).fold(None)  # (folded while it runs on a short terminal)
        await pilot.pause()
        assert seconds.outer_size.width == before, (before, seconds.outer_size.width)
