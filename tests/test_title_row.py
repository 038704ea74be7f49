"""The title row (newuser17 #4, #8, #12): the whole row for the title, every screen named by its key and name
in one format, the screens' tabs where the width allows, and the footer's `1-6 screens`."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.widgets.title_row import CURRENT_STYLE, TitleRow, host_ellipsis
from rich.console import Console
from rich.style import Style
from textual.widgets._header import HeaderTitle

SCREENS = [("1", "Stack"), ("2", "TRIM"), ("3", "Benchmark"), ("4", "Advice"), ("5", "Runs"),
           ("6", "Monitor")]
LONG_HOST = "k8s-worker-elasticsearch-hot-07.prod.example.internal"


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def title_row(app: DiskDoctorApp) -> str:
    """The screen's first row, as tmux shows it."""
    return app.screen._compositor.render_strips()[0].text


def lit(app: DiskDoctorApp) -> str:
    """The text of the title row drawn lit (reverse): the current screen's key and name."""
    header = app.screen.query_one(HeaderTitle)
    strip = header.render_lines(header.region.reset_offset)[0]
    return "".join(segment.text for segment in strip if segment.style and segment.style.reverse).strip()


def test_the_screens_keys_come_from_the_bindings() -> None:
    assert DiskDoctorApp.screen_keys() == SCREENS


@pytest.mark.parametrize("width", [120, 200])
async def test_a_long_host_name_gives_way_to_the_tabs_on_every_screen(width: int) -> None:
    """newuser21 #3: at 120 Stack's row was ` 1 Stack  k8s-worker-elasticsearch-hot-07.prod.example.internal ·
    kernel … · capture long-names` (tabs 2-6 dropped for the host) while the other screens kept the tabs,
    Navigation never gives way now: from 120 columns every screen's row holds all six tabs, and Stack's host
    line gives way instead (kernel, then the name cut keeping its start and its domain end beside the
    capture's name, which stays)."""
    app = DiskDoctorApp(fixture_root("long-names"))
    tabs = "  ".join(f"{key} {name}" for key, name in SCREENS)
    async with app.run_test(size=(width, 24)) as pilot:
        for key, _ in SCREENS:
            await pilot.press(key)
            await settle(pilot)
            await pilot.pause(0.1)
            row = title_row(app)
            assert tabs in row, row
        await pilot.press("1")
        await settle(pilot)
        await pilot.pause(0.1)
        row = title_row(app)
        host = row.split("6 Monitor", 1)[1].strip()
        assert "⭘" not in row, row
        if width == 120:
            assert host.startswith("k8s-worker-elasticsearch"), row
            assert ".internal · capture long-names" in host and "kernel" not in host, row
            assert len(row.rstrip()) >= width - 1, row  # cut only where the row is full
        else:
            assert host.startswith(LONG_HOST) and "kernel" in host, row
            assert host.endswith("capture long-names"), row


def test_a_host_name_is_cut_keeping_its_start_and_its_domain_end() -> None:
    assert host_ellipsis(LONG_HOST, 60) == LONG_HOST
    assert host_ellipsis(LONG_HOST, 45) == "k8s-worker-elasticsearch-hot-07.pro….internal"
    assert host_ellipsis(LONG_HOST, 50) == "k8s-worker-elasticsearch-hot-07….example.internal"
    assert host_ellipsis(LONG_HOST, 20) == "k8s-worker….internal"
    assert host_ellipsis(LONG_HOST, 12) == "k8s-worker-…"  # no room for a domain end beside a readable start
    assert host_ellipsis("db-1", 3) == "db…"


@pytest.mark.parametrize("width", [80, 120, 200])
async def test_every_screen_names_itself_by_its_key_and_name(width: int) -> None:
    """#12 and #8: Stack's title had no screen name while the others had theirs in their own words; every
    screen's title row now lights its key and name (`6 Monitor`), and from 120 columns the tabs of all six
    screens show beside it, so which number opens which screen is on the screen."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(width, 40)) as pilot:
        await settle(pilot)
        for key, name in SCREENS:
            await pilot.press(key)
            await settle(pilot)
            await pilot.pause(0.1)
            row = title_row(app)
            assert lit(app) == f"{key} {name}", (row, lit(app))
            tabs = "  ".join(f"{k} {n}" for k, n in SCREENS)
            assert (tabs in row) == (width >= 120), row  # under 120 the current chip alone, on every screen
            if width != 120:  # the app's name leads where it fits beside the tabs: always at 200, never at 80
                assert row.startswith(" diskdoctor ") == (width >= 200), row


def test_the_app_name_goes_first_then_the_kernel_then_the_host_is_cut_beside_the_capture() -> None:
    kernel = "kernel 6.1.0-56-amd64"
    host = "storage-node-01.rack-12.row-c.east.prod.example.com"
    row = TitleRow("diskdoctor", SCREENS, "Stack", f"{host} · {kernel} · capture lab")
    tabs = " 1 Stack  2 TRIM  3 Benchmark  4 Advice  5 Runs  6 Monitor "
    assert row.fitted(200).plain == f" diskdoctor {tabs} {host} · {kernel} · capture lab"
    assert row.fitted(159).plain == f"{tabs} {host} · {kernel} · capture lab"
    assert row.fitted(148).plain == f"{tabs} {host} · capture lab"
    assert row.fitted(120).plain == f"{tabs} storage-node-01.r….row-c.east.prod.example.com · capture lab"
    assert row.fitted(119).plain == f" 1 Stack  {host} · {kernel} · capture lab"  # under 120: the chip alone
    assert row.fitted(80).plain == f" 1 Stack  {host} · capture lab"


def test_the_current_screen_is_lit_among_the_tabs() -> None:
    console = Console(width=200, color_system="truecolor")
    text = TitleRow("diskdoctor", SCREENS, "Advice", "What to change").fitted(200)
    lit_text = [text.plain[span.start:span.end] for span in text.spans
                if Style.parse(str(span.style)) == Style.parse(CURRENT_STYLE)]
    assert lit_text == [" 4 Advice "], lit_text
    assert console.measure(text).maximum == text.cell_len


def test_a_screen_no_key_opens_shows_its_name_alone() -> None:
    row = TitleRow("diskdoctor", SCREENS, "Guide", "etcd: is this disk fast enough?")
    assert row.fitted(80).plain == " Guide  etcd: is this disk fast enough?"
    assert row.fitted(200).plain == " diskdoctor  Guide  etcd: is this disk fast enough?"


def test_a_description_too_long_for_any_form_is_cut_at_its_end() -> None:
    row = TitleRow("diskdoctor", SCREENS, "TRIM", "Does discard reach the flash, and when is it trimmed?")
    assert row.fitted(40).plain == " 2 TRIM  Does discard reach the flash…"  # after a whole word
    tabs = " 1 Stack  2 TRIM  3 Benchmark  4 Advice  5 Runs  6 Monitor "
    assert row.fitted(80).plain == " 2 TRIM  Does discard reach the flash, and when is it trimmed?"
    assert row.fitted(120).plain == f"{tabs} Does discard reach the flash, and when is it trimmed?"
    words = "Does discard reach the flash through every layer, and when is it trimmed?"
    longer = TitleRow("diskdoctor", SCREENS, "TRIM", words)
    assert longer.fitted(120).plain == f"{tabs} Does discard reach the flash through every layer, and when…"
    assert row.fitted(6).plain == " 2 TR…"


async def test_the_footer_names_the_screen_keys_as_a_range() -> None:
    """#8: the footer's `123456 screens` read as one key; it says `1-6 screens`, every other key kept."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.pause(0.2)
        last = app.screen._compositor.render_strips()[-1].text
        assert last.startswith("F1 Help ^g Guides q Quit w Report  1-6 screens"), last
        assert last.rstrip().endswith("^p palette"), last


async def test_f1_names_the_screen_each_number_opens() -> None:
    """#8: F1 listed `1  1: the storage stack explorer.`: the number again, not the screen's name."""
    from diskdoctor.app.tui.help_screen import HelpScreen

    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        meanings = dict(app.screen.keys)
        for key, name in SCREENS:
            assert meanings[key].startswith(f"{name}: "), (key, meanings[key])
