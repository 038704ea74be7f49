"""F1 on every screen says what `q` does in the same words (newuser21: Monitor's said `q  Quit`, the others
`q  Quit diskdoctor.`)."""

from __future__ import annotations

from diskdoctor.app.tui.advice_screen import AdviceScreen
from diskdoctor.app.tui.bench.screen import BenchScreen
from diskdoctor.app.tui.monitor_screen import MonitorScreen
from diskdoctor.app.tui.runs_screen import RunsScreen
from diskdoctor.app.tui.stack_screen import StackScreen
from diskdoctor.app.tui.trim_screen import TrimScreen


def test_every_screen_says_q_quits_diskdoctor() -> None:
    for screen in (StackScreen, TrimScreen, BenchScreen, AdviceScreen, RunsScreen, MonitorScreen):
        quits = [binding for binding in screen.BINDINGS if getattr(binding, "key", None) == "q"]
        assert [binding.tooltip for binding in quits] == ["Quit diskdoctor."], screen.__name__
