"""The app's stylesheet keeps what it parsed while the CSS variables stay the same (start-up parses
app.tcss once, not three times), and a new theme still restyles every screen."""

from __future__ import annotations

from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from test_tui_layout import settle
from textual.css.stylesheet import Stylesheet


async def test_a_new_theme_restyles_the_screen_and_the_same_theme_again_changes_nothing() -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        status = app.screen.query_one("#status")
        dark = status.styles.background
        rules = app.stylesheet.rules
        app.refresh_css()  # the same variables again: the parsed rules are kept as they were
        await pilot.pause()
        assert app.stylesheet.rules == rules and status.styles.background == dark
        app.theme = "textual-light"
        await settle(pilot)
        assert status.styles.background != dark
        app.theme = "textual-dark"
        await settle(pilot)
        assert status.styles.background == dark


async def test_app_tcss_is_parsed_once_before_the_first_rows(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    parses: list[str] = []
    parse_rules = Stylesheet._parse_rules

    def counting(sheet: Stylesheet, css: str, read_from: tuple[str, str], **kwargs: object) -> object:
        key = (css, read_from, kwargs.get("is_default_rules", False), kwargs.get("tie_breaker", 0),
               kwargs.get("scope", ""))
        if read_from[0].endswith("app.tcss") and key not in sheet._parse_cache:
            parses.append(read_from[0])
        return parse_rules(sheet, css, read_from, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Stylesheet, "_parse_rules", counting)
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.screen.query_one("#status").styles.height is not None
    assert len(parses) == 1, parses
