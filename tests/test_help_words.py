"""F1 help says what a user meets and lists only keys the screen has now (issue 23, newuser9 #14): the
Bench help explains INCONCLUSIVE, one Quit line instead of `q` and `^c`, no Start or Bench this on a
capture, no `a All` on Advice before it is narrowed."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.help_screen import HelpScreen
from diskdoctor.app.tui.selection import choose
from diskdoctor.probes.root import live_root
from support.bench_fixed_run import feed_fixed_run, fixture_mounts
from test_list_layout import screen_lines
from test_tui import settled

__all__ = ["fixture_mounts"]


async def _help(app: DiskDoctorApp, pilot, screen_key: str) -> HelpScreen:  # type: ignore[no-untyped-def]
    await pilot.press(screen_key)
    await settled(app, pilot)
    await pilot.press("f1")
    await settled(app, pilot)
    assert isinstance(app.screen, HelpScreen)
    return app.screen


async def _close(app: DiskDoctorApp, pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("escape")
    await settled(app, pilot)


async def test_bench_help_explains_inconclusive_and_what_to_do(fixture_mounts: None) -> None:
    """newuser9: every run on a busy host ended INCONCLUSIVE; F1 on Bench explained PASS and FAIL only."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        help_screen = await _help(app, pilot, "3")
        await pilot.press("G")  # "Colours and words" is below the keys
        await settled(app, pilot)
        shown = "\n".join(screen_lines(app))
        assert "INCONCLUSIVE" in shown, shown
        assert "([host" in shown and "busy])" in shown, shown  # a word, not markup (wrapped or not)
        words = {word: meaning for word, _, meaning in help_screen.help_data.words}
        assert "both sides of the threshold" in words["INCONCLUSIVE"]
        assert "l (Run longer" in words["INCONCLUSIVE"] and "settle" in words["INCONCLUSIVE"]


@pytest.mark.parametrize("root", ["live", "capture"])
async def test_every_screen_lists_one_quit_line(root: str) -> None:
    """newuser9: F1 listed `^c  Quit` beside `q  Quit diskdoctor.`."""
    app = DiskDoctorApp(live_root() if root == "live" else fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        for screen_key in "123456":
            help_screen = await _help(app, pilot, screen_key)
            keys = [key for key, _ in help_screen.keys]
            quits = [key for key, meaning in help_screen.keys if meaning.startswith("Quit")]
            assert quits == ["q"], (screen_key, help_screen.keys)
            assert "^c" not in keys
            await _close(app, pilot)


async def test_a_capture_lists_no_key_that_needs_the_live_host() -> None:
    """On a capture, Bench this, Trim now and the Benchmark form's keys only say the live host is
    needed: F1 leaves them out (the live host lists them)."""
    for root in (fixture_root("lab-ssd"), live_root()):
        app = DiskDoctorApp(root)
        async with app.run_test(size=(120, 40)) as pilot:
            await settled(app, pilot)
            listed = {}
            for screen_key in "123":
                listed[screen_key] = [key for key, _ in (await _help(app, pilot, screen_key)).keys]
                await _close(app, pilot)
            live = root.live
            assert ("b" in listed["1"]) is live, listed["1"]
            assert ("t" in listed["2"] and "b" in listed["2"]) is live, listed["2"]
            assert all((key in listed["3"]) is live for key in ("s", "/", "t", "[", "]")), listed["3"]


async def test_bench_run_keys_are_listed_once_a_run_finished(fixture_mounts: None) -> None:
    """f, a and l act on a finished run: listed after one, not before."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        before = [key for key, _ in (await _help(app, pilot, "3")).keys]
        await _close(app, pilot)
        assert not any(key in before for key in ("f", "a", "l")), before
        feed_fixed_run(app.screen, "/var/lib/etcd")  # type: ignore[arg-type]
        await settled(app, pilot)
        after = [key for key, _ in (await _help(app, pilot, "3")).keys]
        assert all(key in after for key in ("s", "f", "a", "l")), after


async def test_advice_lists_a_only_while_narrowed() -> None:
    """`a All` (every finding again) means nothing before Advice is narrowed to one subject."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        assert "a" not in [key for key, _ in (await _help(app, pilot, "4")).keys]
        await _close(app, pilot)
        await pilot.press("1")
        await settled(app, pilot)
        choose(app, None, "/lab/luks1", "stack")
        assert "a" in [key for key, _ in (await _help(app, pilot, "4")).keys]


async def test_bench_help_on_a_capture_says_only_what_the_page_has_and_spells_pgdn() -> None:
    """newuser14 #10: F1 on the capture's Benchmark page described a live run's chart, loads and fields and
    spelled `Pgdn`/`Pgup`; it says why nothing runs there, and F1 names keys `PgDn`/`PgUp` everywhere."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)
        help_screen = await _help(app, pilot, "3")
        shown = "\n".join(screen_lines(app))
        assert "needs the live host" in shown and "c steps through" not in shown, shown
        assert not help_screen.help_data.words, help_screen.help_data.words  # no PASS/FAIL: nothing is judged
        keys = [key for key, _ in help_screen.keys]
        assert "PgDn" in keys and "PgUp" in keys and not {"Pgdn", "Pgup"} & set(keys), keys
        await _close(app, pilot)
        for screen_key in "12456":
            help_screen = await _help(app, pilot, screen_key)
            assert not {"Pgdn", "Pgup"} & {key for key, _ in help_screen.keys}, (screen_key, help_screen.keys)
            await _close(app, pilot)
