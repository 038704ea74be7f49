"""The Advice screen sized from what it holds, newuser16 (issue 23): the list as wide as its rows and the
details the rest, the summary line fitted whole phrase by phrase."""

from __future__ import annotations

from conftest import fixture_root
from diskdoctor.app.core.findings.finding import Finding
from diskdoctor.app.core.findings.vocabulary import Severity
from diskdoctor.app.tui.advice_screen import BESIDE_FROM, history_order
from diskdoctor.app.tui.app import DiskDoctorApp
from test_advice_fit import _listed
from textual.containers import VerticalScroll
from textual.widgets import DataTable

EXT4, TMPFS = "/tmp/newuser16-ext4mnt", "/tmp/newuser16-tmpfs"
WAL_FIX = ("# put the WAL on a dedicated SSD/NVMe (etcd: --wal-dir), away from other writers",
           f"diskdoctor bench wal --dir {EXT4} --duration 5s   # the same run again after the fix: compare")


def _newuser16() -> list[Finding]:
    """About the live host newuser16 looked at: 13 findings in 12 rows, two subjects merged in one."""
    findings = [Finding("ETCD-FSYNC-P99", Severity.CRIT, EXT4,
                        f"WAL p99 41.2 ms on {EXT4}: FAIL against 10 ms", fix=WAL_FIX)]
    findings += [Finding("TRIM-NO-SCHEDULE", Severity.WARN, subject,
                         f"Discard reaches the bottom of {subject}'s stack, but nothing trims it",
                         fix=(f"fstrim --verbose {subject}",)) for subject in (EXT4, TMPFS)]
    findings += [Finding(f"RULE-{index}", Severity.WARN if index < 6 else Severity.INFO, EXT4,
                         f"finding number {index} about the ext4 filesystem", fix=WAL_FIX)
                 for index in range(10)]
    return findings


async def test_beside_the_list_is_as_wide_as_its_rows_and_the_fix_commands_do_not_wrap() -> None:
    """newuser16 #2 at 200x60: the list pane was 123 columns for rows of about 95 characters, the details
    76, so the fix commands wrapped (`…away from other` / `writers`). The card goes beside the list from
    BESIDE_FROM columns (adv15: by size alone), where this still holds."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(BESIDE_FROM, 60)) as pilot:
        screen = await _listed(app, pilot, _newuser16())
        assert not screen.has_class("-stacked")
        table = screen.query_one("#advice-table", DataTable)
        details = screen.query_one("#advice-details", VerticalScroll)
        rows = max(sum(column.get_render_width(table) for column in table.ordered_columns), 1)
        assert table.outer_size.width <= rows + 3, (table.outer_size.width, rows)  # border and no scrollbar
        longest = max(len(line.split("  #")[0]) for line in WAL_FIX)  # a trailing comment may go under
        card = screen.query_one("#advice-card").content_size.width
        assert card >= longest + 2, (table.outer_size.width, details.size.width, card, longest)
        subjects = [str(cell).replace("\n", " ") for cell in table.get_column("subject")]
        assert f"2: {EXT4}, {TMPFS}" in subjects, subjects  # a merged row on one line, whole


async def test_at_80x24_the_summary_keeps_whole_phrases() -> None:
    """newuser16 #4 at 80x24: `13 findings: 1 crit, 7 warn, 5 info in 12 rows, worst first, saved runs on`
    (the rest, "unmounted filesystems last · this host (/)", was gone, with no ellipsis)."""
    findings = _newuser16()
    findings.append(Finding("ETCD-FSYNC-P99", Severity.CRIT, "/gone", "WAL p99 40 ms on /gone", history=True))
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _listed(app, pilot, findings)
        summary = screen.query_one("#advice-summary")
        line = str(summary.render())
        assert len(line) <= summary.content_size.width, line
        assert line.startswith("14 findings: 2 crit, 8 warn, 4 info"), line
        # the order phrase is kept before the label (newuser18 #3: "worst first" above WARN rows said why)
        phrase = line.split(" · ", 1)[1].removeprefix("13 rows · ").removesuffix(" · test")
        assert phrase in history_order("1 crit"), line
    async with DiskDoctorApp(fixture_root("lab-ssd")).run_test(size=(200, 60)) as pilot:
        screen = await _listed(pilot.app, pilot, findings)
        line = str(screen.query_one("#advice-summary").render())
        order = "worst first · 1 crit from saved runs on unmounted filesystems last"
        assert f"13 rows · {order} · test" in line, line


async def test_in_the_all_view_a_long_title_wraps_before_a_short_subjects_list() -> None:
    """newuser16 #2 with `a` at 200x60: the Finding column was 150 wide for one long title while the
    Subjects column, about 30, wrapped `2: /tmp/newuser16-ext4mnt,` / `/tmp/newuser16-tmpfs`."""
    long = ("not mounted now · WAL p99 40.0 ms ≥ 10 ms on /tmp/newuser16-gone-xfs: FAIL, from a saved run of "
            "etcd's WAL model at 50/s steady, 250 samples, 5 s (run 20)")
    findings = _newuser16()[:3] + [Finding("ETCD-FSYNC-P99", Severity.CRIT, "/tmp/newuser16-gone-xfs", long)]
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await _listed(app, pilot, findings)
        table = screen.query_one("#advice-table", DataTable)
        subjects = [str(cell) for cell in table.get_column("subject")]
        assert f"2: {EXT4}, {TMPFS}" in subjects, subjects  # on one line
        titles = [str(cell).replace("\n", " ") for cell in table.get_column("title")]
        assert long in titles, titles  # whole, on two lines
