"""The Benchmark screen judges a finished WAL run with the advisor's rule, in the Advice screen's words."""

from __future__ import annotations

from diskdoctor.app.core.findings.vocabulary import Severity
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.root import live_root
from support.bench_fixed_run import feed_fixed_run, fixture_mounts
from test_bench_screen import SIZE, open_bench, text_of
from textual.widgets import Input, Select, Static

__all__ = ["fixture_mounts"]


def _badge_style(app: DiskDoctorApp, word: str) -> set[str]:
    text = app.screen.query_one("#bench-advice", Static).render()
    text = getattr(getattr(text, "_renderable", None), "text", text)  # a FiguresText's Text, as drawn
    for span in text.spans:  # type: ignore[attr-defined]
        if text.plain[span.start:span.end].strip() == word:  # type: ignore[attr-defined]
            return set(str(span.style).replace("ansi_", "").split())  # Textual names ANSI colours so
    raise AssertionError(f"no {word} badge in {text.plain!r}")  # type: ignore[attr-defined]


async def test_wal_verdict_in_the_advisors_words(fixture_mounts: None) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_bench(app, pilot)
        feed_fixed_run(screen)  # p99 899 µs
        await pilot.pause()
        assert text_of(app, "#bench-advice").startswith("Advisor: no finding")
        screen.query_one("#bench-threshold", Select).value = "custom"
        custom = screen.query_one("#bench-threshold-custom", Input)
        custom.value = "2.5"  # 899 µs is over a fifth of 2.5 ms: the rule's little-headroom note
        await pilot.pause()
        advice = text_of(app, "#bench-advice")
        assert "INFO  ETCD-FSYNC-P99  WAL p99 fdatasync is 899 µs: passes the 2.5 ms threshold" in advice
        assert _badge_style(app, "INFO") == set(Severity.INFO.badge_style.split())
        custom.value = "0.5"
        await pilot.pause()
        advice = text_of(app, "#bench-advice")
        assert "CRIT  ETCD-FSYNC-P99  WAL p99 fdatasync is 899 µs, at or over the 500 µs threshold" in advice
        assert "do   put the WAL on a dedicated SSD/NVMe" in advice  # advice in words, not a shell comment
        assert 'fix  for pid in $(pgrep -x etcd); do ionice -c2 -n0 -p "$pid"; done' in advice
        assert _badge_style(app, "CRIT") == set(Severity.CRIT.badge_style.split())
