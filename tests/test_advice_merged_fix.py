"""A merged Advice row's fix covers every subject (newuser23 #4): the card, `c`, `advise` text and JSON and
the report all give `fstrim --verbose` for each of lab-ssd's 8 unscheduled filesystems, not the first's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import fixture_root
from diskdoctor.app.core.findings.finding import Evidence, Finding
from diskdoctor.app.core.findings.order import worst_first
from diskdoctor.app.core.findings.vocabulary import Severity
from diskdoctor.app.tui.app import DiskDoctorApp
from support.advice_pilot import advice_on
from support.cli_runner import run_cli
from test_list_layout import screen_lines

LAB = Path(__file__).parent / "fixtures" / "lab-ssd"
UNSCHEDULED = ("/lab/data", "/lab/luks2on", "/lab/plain", "/lab/raid0", "/lab/raid1", "/lab/slow",
               "/lab/span", "/lab/thin_passdown")
FIXES = [f"fstrim --verbose {mount}" for mount in UNSCHEDULED]


TIMER = Evidence("fstrim.timer", "enabled", "/etc/systemd/system/timers.target.wants/fstrim.timer")


def _unscheduled(subject: str) -> Finding:
    return Finding("TRIM-NO-SCHEDULE", Severity.WARN, subject,
                   f"Discard reaches the bottom of {subject}'s stack, but nothing trims it",
                   (TIMER, Evidence("discard mount option", "none", f"/proc/self/mountinfo ({subject})")),
                   "Nothing trims it.", ("# by hand off-peak:", f"fstrim --verbose {subject}"),
                   "The first fstrim can run for minutes.", (f"diskdoctor trim   # {subject}",))


def test_a_merged_finding_fixes_and_verifies_every_subject() -> None:
    row, = worst_first([_unscheduled(s) for s in ("/srv", "/", "/var")])
    finding = row.combined
    assert finding.fix == ("# by hand off-peak:", "fstrim --verbose /", "fstrim --verbose /srv",
                           "fstrim --verbose /var")
    assert finding.verify == ("diskdoctor trim   # /, /srv, /var",)
    assert finding.evidence == (
        TIMER, Evidence("for each of the 3: discard mount option", "none", "/proc/self/mountinfo (each)"))
    assert finding.title == row.title and finding.why == "Nothing trims it."
    single, = worst_first([_unscheduled("/srv")])
    assert single.combined == single.finding


def test_subjects_that_differ_in_more_than_their_name_are_listed_each() -> None:
    """Evidence that is not the same fact for each (a value that differs) is named per subject."""
    first, second = _unscheduled("/a"), _unscheduled("/b")
    second = Finding(second.id, second.severity, "/b", second.title,
                     (Evidence("discard mount option", "discard", "/proc/self/mountinfo (/b)"),), second.why,
                     second.fix, second.risk, second.verify)
    row, = worst_first([first, second])
    whats = [item.what for item in row.combined.evidence]
    assert "/b: discard mount option" in whats and "/a: discard mount option" in whats


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)], ids=["80x24", "120x40", "200x60"])
async def test_the_card_and_c_give_every_subjects_fix(size: tuple[int, int]) -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    copied: list[str] = []
    app.copy_to_clipboard = copied.append  # type: ignore[method-assign]
    async with app.run_test(size=size) as pilot:
        screen = await advice_on(app, pilot, "TRIM-NO-SCHEDULE")
        await pilot.press("c")
        await pilot.pause()
        assert copied and [line for line in copied[0].splitlines() if line.startswith("fstrim")] == FIXES
        card = screen.query_one("#advice-card")
        card.scroll_visible()
        text = "\n".join(line.rstrip() for line in screen_lines(app))
        if size[1] >= 40:  # the card's fix block is on screen
            assert all(fix in text for fix in FIXES[:3]), text
        assert "Verify" not in text or "diskdoctor trim   # /lab/data\n" not in text


def test_advise_text_json_and_report_give_every_subjects_fix(tmp_path: Path) -> None:
    """Not merged there (grouped by subject): each filesystem's own fix, checked so it stays that way."""
    text = run_cli("advise", "--sysroot", str(LAB)).out
    assert all(f"fix       {fix}" in text for fix in FIXES)
    findings = json.loads(run_cli("advise", "--json", "--sysroot", str(LAB)).out)["findings"]
    fixes = [line for f in findings if f["id"] == "TRIM-NO-SCHEDULE" for line in f["fix"]]
    assert [line for line in fixes if line.startswith("fstrim")] == FIXES
    report = tmp_path / "r.md"
    run_cli("report", "--sysroot", str(LAB), "-o", str(report))
    assert all(fix in report.read_text() for fix in FIXES)
