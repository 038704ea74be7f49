"""One key model on every screen: a focused text field takes every printable key, Esc leaves it,
hotkeys never act on a disabled form, and F1/? help and the palette know every screen's keys."""

from __future__ import annotations

from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.bench.screen import NO_LIVE_HOST, BenchScreen
from diskdoctor.app.tui.commands import screen_actions
from diskdoctor.app.tui.help_screen import HelpScreen
from diskdoctor.app.tui.trim_dialogs import PeakDialog
from diskdoctor.probes.root import live_root
from diskdoctor.widgets import PercentileChart, StatusLine
from diskdoctor.widgets.filter_bar import FilterBar
from diskdoctor.widgets.fitted_footer import FittedFooter
from support.bench_fixed_run import feed_fixed_run, fixture_mounts
from test_tui import settled
from textual.widgets import HelpPanel, Input, Select
from textual.widgets._footer import FooterKey

__all__ = ["fixture_mounts"]
EVERY_BOUND_KEY = "/mnt/1q2t3fsalvd?"
"""Contains every printable key bound anywhere: 1 2 3 q t f s a l v d / ? (and e, r, b, c, p below)."""
SIZE = (160, 48)


def screen_state(app: DiskDoctorApp) -> tuple[object, ...]:
    """What any of the bound actions would change."""
    screen = app.screen
    state: list[object] = [app.current_mode, type(screen).__name__, len(app.screen_stack)]
    if isinstance(screen, BenchScreen):
        # (the chart's own label goes with a finished run set aside once the form changes: not an action)
        state += [screen.busy, screen.query_one("#bench-threshold", Select).value, screen.fio]
    return tuple(state)


async def type_into(app: DiskDoctorApp, pilot, field: Input, text: str) -> None:  # type: ignore[no-untyped-def]
    field.value = ""
    field.focus()
    await pilot.pause()
    await pilot.press(*text)
    await pilot.pause()


async def test_bench_fields_take_every_bound_key_and_no_action_runs(fixture_mounts: None) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3")
        await settled(app, pilot)
        screen = app.screen
        feed_fixed_run(screen)  # a finished run, so a, l, f and t would all do something
        await pilot.pause()
        screen.query_one("#bench-threshold", Select).value = "custom"
        await pilot.pause()
        before = screen_state(app)
        fields = list(screen.query(Input).results(Input))
        assert {f.id for f in fields} == {"bench-dir", "bench-bs", "bench-size", "bench-duration",
                                          "bench-threshold-custom", "bench-jobs", "bench-rates",
                                          "bench-filter"}
        for field in [f for f in fields if f.display]:
            await type_into(app, pilot, field, EVERY_BOUND_KEY)
            assert field.value == EVERY_BOUND_KEY, field.id
            assert screen_state(app) == before, field.id
            assert not app.screen.query(HelpPanel)
        screen.query_one("#bench-profile", Select).value = "compaction"  # the jobs field is its own
        await pilot.pause()
        jobs = screen.query_one("#bench-jobs", Input)
        assert jobs.display
        await type_into(app, pilot, jobs, EVERY_BOUND_KEY)
        assert jobs.value == EVERY_BOUND_KEY and screen_state(app) == before


async def test_peak_dialog_field_takes_every_bound_key() -> None:
    app = DiskDoctorApp(fixture_root("etcd-trim-blocked"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("2")
        await settled(app, pilot)
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, PeakDialog)
        field = app.screen.query_one(Input)
        await type_into(app, pilot, field, EVERY_BOUND_KEY + "ebrc")
        assert field.value == EVERY_BOUND_KEY + "ebrc"
        assert isinstance(app.screen, PeakDialog) and app.current_mode == "trim"


async def test_escape_leaves_a_field_and_the_footer_shows_the_screen_keys_again(fixture_mounts: None) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3")
        await settled(app, pilot)
        field = app.screen.query_one("#bench-dir", Input)
        field.focus()
        await pilot.pause()
        footer = lambda: [k.description for k in app.screen.query_one(FittedFooter).query(FooterKey)]  # noqa: E731
        assert "Leave field" in footer() and "Start" not in footer()
        await pilot.press("ctrl+u", *"/tmp", "escape")  # the suggestion from Stack's cursor replaced
        await pilot.pause()
        assert app.screen.focused is None and field.value == "/tmp"
        assert app.current_mode == "bench" and not app.screen.busy
        assert "Start" in footer() and "Leave field" not in footer()


async def test_d_starts_typing_a_directory_and_slash_filters_the_earlier_runs(fixture_mounts: None) -> None:
    """newuser17 #7: `/` was the directory field on Benchmark but a filter on every other screen; it filters
    the earlier runs there too, and `d` moves to the directory field."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3")
        await settled(app, pilot)
        app.screen.set_focus(None)
        await pilot.press("slash", *"fail")  # the filter line, not the directory field
        await pilot.pause()
        bar = app.screen.query_one(FilterBar)
        assert bar.has_focus and bar.value == "fail"
        assert app.screen.query_one("#bench-dir", Input).value != "fail"
        await pilot.press("escape")
        await pilot.pause()
        assert not bar.value and not bar.has_focus
        await pilot.press("d", *"/mnt/dd/xfs")  # d moves to the field; the path is typed whole
        await pilot.pause()
        assert app.screen.query_one("#bench-dir", Input).value == "/mnt/dd/xfs"
        assert app.screen.query_one("#bench-threshold", Select).value == "etcd"


async def test_typing_outside_any_field_on_a_disabled_form_changes_nothing() -> None:
    app = DiskDoctorApp(fixture_root("sata-ext4"))
    async with app.run_test(size=SIZE) as pilot:
        await settled(app, pilot)
        await pilot.press("3")
        await settled(app, pilot)
        screen = app.screen
        screen.set_focus(None)
        before = screen_state(app)
        fields = {f.id: f.value for f in screen.query(Input).results(Input)}
        await pilot.press(*"/mnt/dd/xfs", "s", "t", "f", "a", "l", "enter")
        await pilot.pause()
        assert screen_state(app) == before
        assert {f.id: f.value for f in screen.query(Input).results(Input)} == fields
        assert screen.query_one(StatusLine).plain == NO_LIVE_HOST
        assert screen.query_one(PercentileChart).threshold_label == "etcd docs"


async def test_f1_and_question_mark_open_help_listing_every_key_and_close_it() -> None:
    """On a capture the help lists the keys the screen has there: not Bench this, Trim now or Start (they
    only say the live host is needed; test_help_words has the live host's)."""
    app = DiskDoctorApp(fixture_root("etcd-raid0-lvm-luks"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)
        for screen_key, title, keys, absent in (
                ("1", "Storage stack", ("v", "s", "e", "r", "q"), ("b",)),
                ("2", "TRIM doctor", ("c", "p", "r"), ("t", "b")),
                ("3", "WAL benchmark (needs the live host)", ("q",), ("s", "/", "d", "t", "f", "a", "l"))):
            await pilot.press(screen_key)
            await settled(app, pilot)
            for opener, closer in (("f1", "escape"), ("question_mark", "question_mark")):
                await pilot.press(opener)
                await pilot.pause()
                assert isinstance(app.screen, HelpScreen)
                assert app.screen.help_data.title == title
                shown = [key for key, _ in app.screen.keys]
                assert all(key in shown for key in keys), (title, shown)
                assert not any(key in shown for key in absent), (title, shown)
                assert "↑ ↓" in shown and "Esc" in shown
                assert not any("," in key or "_" in key or key.startswith("ctrl") for key in shown), shown
                await pilot.press(closer)
                await pilot.pause()
                assert not isinstance(app.screen, HelpScreen)


async def test_escape_and_question_mark_close_the_keys_panel() -> None:
    app = DiskDoctorApp(fixture_root("etcd-raid0-lvm-luks"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        for closer in ("escape", "question_mark"):
            app.action_show_help_panel()
            await pilot.pause()
            assert app.screen.query(HelpPanel)
            await pilot.press(closer)
            await pilot.pause()
            assert not app.screen.query(HelpPanel)
            assert not isinstance(app.screen, HelpScreen)


async def test_palette_lists_every_action_of_every_screen_with_its_key() -> None:
    app = DiskDoctorApp(fixture_root("etcd-raid0-lvm-luks"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        texts = [action.text for action in screen_actions(app)]
        for expected in ("Stack: Sources (s)", "TRIM: Copy fixes (c)", "diskdoctor: Help (F1)",
                         "diskdoctor: TRIM screen (2)"):
            assert expected in texts, (expected, texts)
        live_only = {"Stack: Bench this (b)", "TRIM: Trim now (t)", "Benchmark: Start (s)",
                     "Benchmark: fio side by side (f)"}  # on a capture they do nothing: as F1, not offered
        assert not live_only & set(texts), texts
        live = [action.text for action in screen_actions(DiskDoctorApp(live_root()))]
        assert live_only <= set(live), live
        await app.run_screen_action("stack", "toggle_sources")
        await pilot.pause()
        assert app.screen.query_one("LayerTable").show_sources
        await app.run_screen_action("trim", "refresh")
        await pilot.pause()
        assert app.current_mode == "trim"


async def test_footer_fits_80_columns_with_help_first() -> None:
    for fixture, key in (("etcd-raid0-lvm-luks", "1"), ("etcd-trim-blocked", "2"), ("sata-ext4", "3")):
        app = DiskDoctorApp(fixture_root(fixture))
        async with app.run_test(size=(80, 24)) as pilot:
            await settled(app, pilot)
            await pilot.press(key)
            await settled(app, pilot)
            footer = app.screen.query_one(FittedFooter)
            keys = list(footer.query(FooterKey))
            assert next(k for k in keys if k.region.y == footer.region.bottom - 1).description == "Help"
            assert all(k.region.right <= 80 for k in keys), [(k.description, k.region) for k in keys]
            assert "^p" in str(keys[-1].render())
