"""The Advice header counts what the list shows, narrowed to a subject or filtered (newuser17 #14)."""

from __future__ import annotations

from conftest import fixture_root
from diskdoctor.app.core.findings.finding import Evidence, Finding
from diskdoctor.app.core.findings.vocabulary import Severity
from diskdoctor.app.tui.advice_counts import count_phrase, listed_last
from diskdoctor.app.tui.advice_runs import with_run_note
from diskdoctor.app.tui.advice_screen import AdviceReady, AdviceScreen
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.cards import card_content
from diskdoctor.app.tui.selection import choose
from diskdoctor.widgets.filter_bar import FilterBar
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
        assert "only /lab/raid1 (a: all)" in status, status
        await pilot.press("a")  # every finding again: the host's counts
        await settled(app, pilot)
        summary = text_of(app, "#advice-summary")
        assert summary.startswith(f"{total} findings: "), summary
        await pilot.press("slash", *"info", "enter")  # filtered: the count follows the filter
        await settled(app, pilot)
        first = text_of(app, "#advice-summary").split(" · ")[0]
        assert first.endswith(" info") and " of " in first and "warn" not in first, first
        assert all(row.finding.severity is Severity.INFO for row in screen.rows)


async def test_the_summary_and_the_status_line_count_the_same_thing() -> None:
    """newuser19 #2: `3 of 29 findings: 1 crit, 1 warn, 1 info · this host (/)` above `only /tmp/x: 3 of 19
    rows (a: all)`, two totals in one screen: the status line counts nothing narrowed to a subject (the
    summary does), and filtered it counts findings of the summary's total; "this host" without "(/)"."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        screen = app.screen
        await pilot.press("4")
        await settled(app, pilot)
        screen = app.screen
        assert isinstance(screen, AdviceScreen)
        screen.post_message(AdviceReady(screen.findings, "this host (/)"))
        await settled(app, pilot)
        assert len(screen.all_rows) < len(screen.findings), "the lab merges findings into fewer rows"
        assert text_of(app, "#advice-summary").endswith(" · this host"), text_of(app, "#advice-summary")
        choose(app, None, "/lab/raid1", "stack")
        await pilot.press("1", "4")
        await settled(app, pilot)
        summary, status = text_of(app, "#advice-summary"), text_of(app, "#status")
        assert summary.startswith(f"{len(screen.rows)} of {len(screen.findings)} findings"), summary
        assert "(/)" not in summary and "rows" not in status and " of " not in status, status
        await pilot.press("a", "slash", *"info", "enter")
        await settled(app, pilot)
        summary, status = text_of(app, "#advice-summary"), text_of(app, "#status")
        shown = summary.split(" findings")[0]
        assert shown.endswith(f" of {len(screen.findings)}"), summary
        assert "info" not in status and "Esc clears" not in status, status  # said once, on the filter line
        bar = screen.query_one(FilterBar).summary  # the filter line counts the same (it said rows: 8 of 22)
        assert f"({shown} findings)" in bar, bar


def test_a_saved_run_finding_says_advice_judges_the_newest_run() -> None:
    """newuser19 "Also checked": a newer run's finding replaced an older FAIL's and nothing said so."""
    run = Finding("ETCD-FSYNC-P99", Severity.WARN, "/x", "WAL p99 11.8 ms: INCONCLUSIVE",
                  (Evidence("p99", "11.8 ms", "run 20261126-220315-wal-3e57: verdict.value_ms"),))
    noted = with_run_note(run)
    assert noted.evidence[:1] == run.evidence
    assert card_content(noted).evidence[-1] == ("judged", "the newest run saved on this filesystem (older "
                                                "ones: 5 Runs)", "run 20261126-220315-wal-3e57")
    other = Finding("TRIM-NO-SCHEDULE", Severity.WARN, "/x", "t", (Evidence("timer", "none", "systemctl"),))
    assert with_run_note(other) == other


def test_the_order_phrase_counts_the_findings_listed_last() -> None:
    """newuser24 #8: `73 findings: 10 crit, 34 warn, 29 info · … · saved runs on unmounted filesystems last`
    above 2 CRIT rows: the header says how many of the 10 are at the list's end."""
    live = [Finding("A", Severity.CRIT, "/a", "a"), Finding("B", Severity.WARN, "/b", "b"),
            Finding("C", Severity.INFO, "/c", "c")]
    old = [Finding("W", Severity.CRIT, f"/old{n}", f"w{n}", history=True) for n in range(8)]
    late = [Finding("V", Severity.WARN, "/old", "v", history=True),
            Finding("I", Severity.INFO, "/old", "i", history=True)]
    assert listed_last(live + old + late) == "8 crit, 1 warn"  # info is last anyway
    assert listed_last(old) == "" and listed_last(live) == ""


async def test_the_header_says_how_many_crit_are_listed_last() -> None:
    live = [Finding("A", Severity.CRIT, "/a", "a"), Finding("B", Severity.WARN, "/b", "b"),
            Finding("C", Severity.INFO, "/c", "c")]
    old = [Finding("W", Severity.CRIT, f"/old{n}", f"WAL p99 4{n} ms", history=True) for n in range(8)]
    for size in ((80, 24), (120, 40)):
        app = DiskDoctorApp(fixture_root("lab-ssd"))
        async with app.run_test(size=size) as pilot:
            await settled(app, pilot)
            await pilot.press("4")
            await settled(app, pilot)
            screen = app.screen
            assert isinstance(screen, AdviceScreen)
            screen.post_message(AdviceReady(live + old, "this host (/)"))
            await settled(app, pilot)
            summary = screen.query_one("#advice-summary")
            line = str(summary.render())
            assert line.startswith("11 findings: 9 crit, 1 warn, 1 info · ") and "8 crit" in line, line
            assert "worst first" in line and "unmounted" in line and " last" in line, line

    wide = ([Finding(f"L{n}", Severity.WARN, f"/w{n}", f"w{n}") for n in range(27)]
            + [Finding(f"I{n}", Severity.INFO, f"/i{n}", f"i{n}") for n in range(25)]
            + [Finding("W", Severity.CRIT, f"/old{n}", f"WAL p99 4{n} ms", history=True) for n in range(10)]
            + [Finding("V", Severity.WARN, f"/old{n}", f"v{n}", history=True) for n in range(3)])
    async with DiskDoctorApp(fixture_root("lab-ssd")).run_test(size=(80, 24)) as pilot:  # live at 80x24
        await settled(pilot.app, pilot)
        await pilot.press("4")
        await settled(pilot.app, pilot)
        screen = pilot.app.screen
        assert isinstance(screen, AdviceScreen)
        screen.post_message(AdviceReady(wide, "this host (/)"))
        await settled(pilot.app, pilot)
        summary = screen.query_one("#advice-summary")
        line = str(summary.render())
        assert len(line) <= summary.content_size.width, line
        assert line == "65 findings: 10 crit, 30 warn, 25 info · worst first, 10 crit last (unmounted)", line


async def test_a_filter_is_said_once_and_one_row_is_a_row() -> None:
    """newuser24 #15: `8 of 23 findings: 8 warn · 1 rows, worst first`, and the filter said on its own line
    and again on the status line below it."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("4")
        await settled(app, pilot)
        screen = app.screen
        assert isinstance(screen, AdviceScreen)
        await pilot.press("slash", *"nothing", "enter")
        await settled(app, pilot)
        assert len(screen.rows) == 1 and len(screen._findings_of(screen.rows)) > 1
        summary, status = text_of(app, "#advice-summary"), text_of(app, "#status")
        assert " 1 row, worst first" in summary and "1 rows" not in summary, summary
        assert "nothing" in screen.query_one(FilterBar).summary
        assert "nothing" not in status and "Esc clears" not in status, status
