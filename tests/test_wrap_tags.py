"""A verdict's bracketed tags never break across lines (newuser12 #9 saw `… [not durable] [host` / `busy]` on
the Benchmark verdict at 120 columns): the figures' wrapping keeps "[host busy]" one word."""

from __future__ import annotations

import pytest
from diskdoctor.widgets.figures_text import FiguresText
from diskdoctor.widgets.wrap_text import wrap_lines
from rich.text import Text
from textual.app import App, ComposeResult

VERDICT = ("PASS p99 fdatasync from due at 500/s steady 2.31 ms < 10 ms: etcd docs threshold (the 99th "
           "percentile by order statistics) [not durable] [host busy]")


class VerdictApp(App[None]):
    """The Benchmark's verdict widget alone."""

    def compose(self) -> ComposeResult:
        yield FiguresText("", id="verdict")

    def on_mount(self) -> None:
        self.query_one(FiguresText).update(Text(VERDICT, style="bold"))  # as the Benchmark screen does


@pytest.mark.parametrize("width", range(100, 160, 3))
async def test_a_tag_is_never_split_where_the_verdict_wraps(width: int) -> None:
    app = VerdictApp()
    async with app.run_test(size=(width, 8)) as pilot:
        await pilot.pause()
        rows = [strip.text.rstrip() for strip in app.screen._compositor.render_strips()]
        drawn = [row for row in rows if row]
        assert " ".join(drawn) == VERDICT, drawn  # every word drawn, in order
        assert all(row.count("[") == row.count("]") for row in drawn), drawn


def test_a_tag_moves_whole_to_the_next_line() -> None:
    lines = [line.plain for line in wrap_lines(Text(VERDICT), 137)]
    assert lines[-1] == "[host busy]", lines
