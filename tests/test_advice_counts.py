"""The Advice header counts what the list shows, narrowed to a subject or filtered (newuser17 #14)."""

from __future__ import annotations

from conftest import fixture_root
from diskdoctor.app.core.findings.finding import Finding
from diskdoctor.app.core.findings.vocabulary import Severity
from diskdoctor.app.tui.advice_counts import count_phrase
from diskdoctor.app.tui.advice_screen import AdviceScreen
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.selection import choose
from test_tui import settled, text_of


def test_the_count_names_the_shown_findings_and_the_total_once() -> None:
    crit = Finding("A", Severity.CRIT, "/a", "a")
    warn, info = Finding("B", Severity.WARN, "/b", "b"), Finding("C", Severity.INFO, "/c", "c")
    assert count_phrase([crit, warn, info], 3) == "3 findings: 1 crit, 1 warn, 1 info"
    assert count_phrase([warn, info], 19) == "2 of 19 findings: 1 warn, 1 info"
    assert count_phrase([], 19) == "none of 19 findings"


async def test_narrowed_to_a_filesystem_the_header_counts_the_rows_shown() -> None:
    """Arriving on Advice with /lab/raid1 chosen elsewhere: the header counts its findings, not the host's
    (newuser17 #14: `19 findings: 2 crit, 9 warn, 8 info · 15 rows` above `only /tmp/x: 3 of 15 rows`)."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)
        choose(app, None, "/lab/raid1", "stack")
        await pilot.press("4")
        await settled(app, pilot)
        screen = app.screen
        assert isinstance(screen, AdviceScreen)
        total = len(screen.findings)
        shown = [screen._finding_of(row) for row in screen.rows]
        assert 0 < len(shown) < total
        counts = ", ".join(f"{sum(f.severity is s for f in shown)} {s.value}" for s in reversed(Severity)
                           if any(f.severity is s for f in shown))
        summary = text_of(app, "#advice-summary")
        assert summary.startswith(f"{len(shown)} of {total} findings: {counts}"), summary
        status = text_of(app, "#status")
        assert f"only /lab/raid1: {len(screen.rows)} of {len(screen.all_rows)} rows" in status, status
        await pilot.press("a")  # every finding again: the host's counts
        await settled(app, pilot)
        summary = text_of(app, "#advice-summary")
        assert summary.startswith(f"{total} findings: "), summary
        await pilot.press("slash", *"info", "enter")  # filtered: the count follows the filter
        await settled(app, pilot)
        first = text_of(app, "#advice-summary").split(" · ")[0]
        assert first.endswith(" info") and " of " in first and "warn" not in first, first
        assert all(row.finding.severity is Severity.INFO for row in screen.rows)
