"""The Stack screen's widgets are styled once before its first frame: it starts with its width class and its
first resume does not restyle it; coming back to it later restyles it as Textual does."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.stack_screen import StackScreen
from diskdoctor.app.tui.styled_once import breakpoint_classes
from textual.app import App
from textual.dom import DOMNode

ROOT = "etcd-raid0-lvm-luks"


def restyles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The screens whose every widget is restyled at once (a class or a resume), by class name."""
    seen: list[str] = []
    real = App.update_styles

    def noted(self: App[object], node: DOMNode, animate: bool = True) -> None:
        if node.children:
            seen.append(type(node).__name__)
        real(self, node, animate)

    monkeypatch.setattr(App, "update_styles", noted)
    return seen


@pytest.mark.parametrize(("size", "width_class", "passes"),
                         [((150, 40), "-wide", 0), ((80, 24), "-narrow", 0), ((240, 60), "-wide", 0)])
async def test_the_first_frame_restyles_no_screen(monkeypatch, size, width_class, passes) -> None:  # type: ignore[no-untyped-def]
    seen = restyles(monkeypatch)
    app = DiskDoctorApp(fixture_root(ROOT))
    at_first_frame: list[list[str]] = []
    display = app._display

    def noted(screen, renderable) -> None:  # type: ignore[no-untyped-def]
        display(screen, renderable)
        if renderable is not None and not at_first_frame:
            at_first_frame.append(list(seen))

    app._display = noted  # type: ignore[method-assign]
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        # before: two more, the first resume, then the width class; and one more where the panes stack
        # (`-stacked`, now set when the screen is made: the arrangement goes by width alone, BESIDE_FROM)
        assert at_first_frame == [["StackScreen"] * passes]
        assert isinstance(app.screen, StackScreen) and app.screen.has_class(width_class)
        await pilot.press("2")  # the TRIM screen, then back: a later resume restyles as before
        await pilot.pause()
        seen.clear()
        await pilot.press("1")
        await pilot.pause()
        assert "StackScreen" in seen


def test_breakpoint_classes_are_textuals_rule() -> None:
    points = [(0, "-narrow"), (120, "-wide")]
    assert breakpoint_classes(119, 30, points, []) == {"-narrow": True, "-wide": False}
    assert breakpoint_classes(120, 30, points, []) == {"-narrow": False, "-wide": True}
    assert breakpoint_classes(80, 50, [], [(0, "-short"), (40, "-tall")]) == {"-short": False, "-tall": True}
    assert breakpoint_classes(80, 24, [], []) == {}
