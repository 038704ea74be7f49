"""Every key or button a walkthrough's page names is one the user sees on that step, by the same name
(newuser19 #6: `Findings (f) opens them ...; Save report ...` on a step whose footer was `n Next b Back esc
Leave`; a `Run again` button over the footer's `s Start`; `Skip (n)` beside `n Next`)."""

from __future__ import annotations

import re

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.guides.guide_screen import GuideScreen
from diskdoctor.app.tui.guides.steps import Step, StepKind
from diskdoctor.app.tui.guides.trim_guide import TrimNow
from rich.text import Text
from support.guide_pilot import open_guide, page, settle
from test_footer_and_fold_fit import footer_text
from textual.widgets import Button, Static

BUTTONS = ("Start", "Run again", "Skip", "Next", "Back", "Findings", "Save report")
"""Every label a walkthrough's buttons take (arrows aside)."""
NAMED_KEY = re.compile(r"\b(?P<name>[A-Z][a-z]+(?: [a-z]+)?) \((?P<key>[a-z])\)")
"""`Start (s)`, `Findings (f)`, `Run again (s)`: a name and its key."""
BARE_KEY = re.compile(r"\bkey (?P<key>[a-z])\b")
"""`key p`: a key named without its button."""


def _shown(screen: GuideScreen) -> tuple[dict[str, str], set[str]]:
    """The footer's keys with their names, and the labels of the buttons on screen (arrows dropped)."""
    keys = {binding.key: binding.description for _, binding, enabled, _ in screen.active_bindings.values()
            if enabled and binding.show and binding.description}
    buttons = {str(button.label).strip("◀▶ ") for button in screen.query(Button) if button.display}
    return keys, buttons


def _named_but_not_shown(screen: GuideScreen) -> list[str]:
    """What the page names that the footer and buttons do not show, by that name."""
    text = page(screen) + "\n" + str(screen.query_one("#guide-keys", Static).render()) \
        if screen.query_one("#guide-keys").display else page(screen)
    keys, buttons = _shown(screen)
    wrong = [f"{found['name']} ({found['key']}): footer says {keys.get(found['key'])!r}"
             for found in NAMED_KEY.finditer(text)
             if keys.get(found["key"]) != found["name"] or found["name"] not in buttons | {"Leave"}]
    wrong += [f"key {found['key']}" for found in BARE_KEY.finditer(text) if found["key"] not in keys]
    wrong += [f"button {name}" for name in BUTTONS
              if re.search(rf"(?<![\w-]){name}(?![\w-])", text) and name not in buttons]
    return wrong


@pytest.mark.parametrize("guide", ["etcd", "trim", "slow", "apps"])
async def test_every_key_a_step_names_is_shown_by_that_name(guide: str,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Each step of each walkthrough, as on a live host (its run steps offered), before and after a run."""
    monkeypatch.setattr(Step, "skip_reason", lambda self, ctx: None)  # every page as on a live host
    monkeypatch.setattr(TrimNow, "skip_reason", lambda self, ctx: None)
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_guide(pilot, guide)
        while True:
            screen.set_focus(None)
            await settle(pilot)
            wrong = _named_but_not_shown(screen)
            assert not wrong, (screen.index, wrong, page(screen))
            if screen.step.kind is StepKind.RUN:  # after a run: Run again and Next, in the footer too
                screen.finish_step(screen.index, Text("ran"))
                screen.set_focus(None)
                await settle(pilot)
                keys, buttons = _shown(screen)
                assert keys.get("s") == "Run again" and "Run again" in buttons, (keys, buttons)
                assert keys.get("n") == "Next" and "Next" in buttons, (keys, buttons)
                assert not _named_but_not_shown(screen), (screen.index, _named_but_not_shown(screen))
            elif screen.index < len(screen.steps) - 1:
                assert _shown(screen)[0].get("n") == "Next"
            if screen.index >= len(screen.steps) - 1:
                break
            was = screen.index
            typed = screen.query_one("#guide-typed")
            if typed.display and screen.view is not None and not screen.view.choices:
                typed.value = "/lab/data"  # a capture has no processes to offer a directory from
            await pilot.press("n")
            await settle(pilot)
            assert screen.index == was + 1, page(screen)


async def test_a_run_step_footer_says_skip_then_run_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The slow-node guide's first step: `n Skip`/`s Start` beside `Skip ▶`/`Start`, then after the run
    `n Next`/`s Run again` beside `Next ▶`/`Run again`, in the footer the user reads."""
    monkeypatch.setattr(Step, "skip_reason", lambda self, ctx: None)
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_guide(pilot, "slow")
        screen.set_focus(None)
        await settle(pilot)
        footer = " ".join(footer_text(app).split())
        assert "n Skip" in footer and "s Start" in footer and "n Next" not in footer, footer
        screen.finish_step(0, Text("ran"))
        screen.set_focus(None)
        await settle(pilot)
        footer = " ".join(footer_text(app).split())
        assert "n Next" in footer and "s Run again" in footer and "s Start" not in footer, footer
        await pilot.press("n")  # n after the run still goes on
        await settle(pilot)
        assert screen.index == 1
