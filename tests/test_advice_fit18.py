"""The Advice screen on a long list, newuser18 (issue 23): the card beside the list only where the list
keeps its titles whole, every subject cut one way, and CRIT rows said to be last where they are."""

from __future__ import annotations

import re

from conftest import fixture_root
from diskdoctor.app.core.findings.finding import Finding
from diskdoctor.app.core.findings.vocabulary import Severity
from diskdoctor.app.tui.advice_rows import subject_lines
from diskdoctor.app.tui.advice_screen import AdviceReady
from diskdoctor.app.tui.app import DiskDoctorApp
from test_advice_fit import _cells, _listed, _same
from textual.widgets import DataTable

EXT4, TMPFS = "/tmp/newuser18-ext4mnt", "/tmp/newuser18-tmpfs"
BTRFS = "/tmp/pytest-of-root/pytest-442/mnt-btrfs"


def _newuser18() -> list[Finding]:
    """About the live host newuser18 looked at: 17 findings in 15 rows, long titles, merged subjects."""
    findings = [Finding("ETCD-FSYNC-P99", Severity.CRIT, EXT4,
                        f"WAL p99 15.8 ms ≥ 10 ms · fdatasync from due at 50/s steady on {EXT4}: FAIL"),
                Finding("ETCD-FSYNC-P99", Severity.WARN, "/",
                        "WAL p99 6.37 ms: INCONCLUSIVE against 10 ms (the host was busy) on /")]
    findings += [Finding("TRIM-NO-SCHEDULE", Severity.WARN, subject,
                         f"Discard reaches the bottom of {subject}'s stack, but nothing trims it")
                 for subject in (EXT4, TMPFS, "/var/tmp")]
    findings += [Finding("EXT4-COMMIT", Severity.WARN, subject,
                         "2 ext4 filesystems are mounted with commit=5 and no barrier note")
                 for subject in ("/", EXT4)]
    findings.append(Finding("DISCARD-ASYNC", Severity.INFO, BTRFS,
                            f"{BTRFS} (btrfs): discard=async is on, fstrim is not needed on a schedule"))
    findings += [Finding(f"RULE-{index}", Severity.WARN if index < 5 else Severity.INFO, EXT4,
                         f"finding number {index} about the ext4 filesystem and its queue settings")
                 for index in range(10)]
    return findings


async def test_at_120x40_a_long_list_keeps_its_titles_whole() -> None:
    """newuser18 #1 at 120x40: with more than about 10 rows the card went beside the list and every title was
    cut to 40 columns (`WARN  Discard reaches the bottom of each fil…  3: /tmp/newuser…`), where lab-ssd's 7
    rows stacked and showed every title whole: the card is beside the list only where its titles are whole."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _listed(app, pilot, _newuser18())
        table = screen.query_one("#advice-table", DataTable)
        assert len(screen.rows) > 10
        assert screen.has_class("-stacked")
        width = table.ordered_columns[1].width
        assert width >= 70, width  # it was 40 beside the card
        whole = 0
        for index, row in enumerate(screen.rows):
            cells = _cells(table, index)
            if len(screen._title_of(row)) <= width:  # a title that fits its column is shown whole
                assert _same(cells[1], screen._title_of(row)), cells
                whole += 1
        assert whole >= len(screen.rows) - 2, whole


CUT_SUBJECTS = [(EXT4,), (TMPFS,), ("/tmp/newuser17-ext4",), (EXT4, TMPFS, "/var/tmp"), ("/", EXT4)]


def _slash_cut(cell: str) -> bool:
    """Whether a cut subjects cell is cut at a "/" ("…/newuser17-ext4", "3: …/newu…-ext4mnt, …")."""
    return "…/" in cell


def test_every_subject_cell_is_cut_at_a_slash() -> None:
    """newuser18 #4 at 120x40: one Subjects column cut four ways (`/tmp/n…8-ext4mnt`, `/tmp/new…8-tmpfs`,
    `…/newuser17-ext4`, `2: /tmp/newuser…`): one rule, a cut at a "/", the count of a merged list kept."""
    singles = frozenset(row[0] for row in CUT_SUBJECTS if len(row) == 1)
    for width in (14, 16, 18, 20, 24):
        for row in CUT_SUBJECTS:
            cell = "".join(subject_lines(row, width, 1, singles)[0])
            whole = (row[0] if len(row) == 1 else f"{len(row)}: {', '.join(row)}")
            assert len(cell) <= width, (width, cell)
            listed = re.sub(r"(, …)? \+\d+$", "", cell.split(": ", 1)[-1])  # "N: a, … +k" or "N: …/a +k"
            items = listed.split(", ") if len(row) > 1 else [cell]
            if cell in (f"{len(row)}: … +{len(row)}", f"… +{len(row)}"):  # only the count where no subject
                assert len(row) > 1, (width, cell)                    # fits whole (newuser21 #9)
                continue
            if cell != whole and not all(item in row or item.startswith("… +") for item in items):  # one cut
                assert _slash_cut(cell), (width, cell)
            if len(row) > 1:
                assert cell.startswith(f"{len(row)}: "), (width, cell)


async def test_at_80x24_the_summary_says_why_crit_rows_are_last() -> None:
    """newuser18 #3 at 80x24: `19 findings: 2 crit, 9 warn, 8 info · 14 rows, worst first · this host (/)`
    above WARN and INFO rows, the CRITs (saved runs on filesystems not mounted now) below the fold: the
    line says they are last, in words that fit."""
    findings = _newuser18()[1:12] + [
        Finding("ETCD-FSYNC-P99", Severity.CRIT, f"/tmp/gone-{index}",
                f"WAL p99 4{index} ms on /tmp/gone-{index}", history=True) for index in range(3)]
    for size in ((80, 24), (120, 40)):
        async with DiskDoctorApp(fixture_root("lab-ssd")).run_test(size=size) as pilot:
            screen = await _listed(pilot.app, pilot, [])
            screen.post_message(AdviceReady(findings, "this host (/)"))
            await pilot.pause()
            await pilot.pause()
            assert screen.rows[-1].finding.history and screen.rows[0].finding.severity is not Severity.CRIT
            summary = screen.query_one("#advice-summary")
            line = str(summary.render())
            assert len(line) <= summary.content_size.width, line
            assert "worst first" in line and "unmounted" in line and "last" in line, line
            if size[0] >= 120:  # where the findings come from too, the order phrase shortened for it
                assert line.endswith(" · this host"), line
