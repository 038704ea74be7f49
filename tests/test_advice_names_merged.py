"""Rows of the same finding whose titles differ only in the name they open with merge into one row
(newuser24 #7: `loop15 does not accept discard (…)` and the same for loop17 were two rows, while
TRIM-NO-SCHEDULE merged 6 subjects); the merged row's card covers every subject."""

from __future__ import annotations

from conftest import fixture_root
from diskdoctor.app.core.findings.finding import Evidence, Finding
from diskdoctor.app.core.findings.order import worst_first
from diskdoctor.app.core.findings.vocabulary import Severity
from diskdoctor.app.tui.advice_screen import AdviceReady, AdviceScreen
from diskdoctor.app.tui.app import DiskDoctorApp
from test_tui import settled

TAIL = "does not accept discard (discard_max_bytes 0 at the bottom of the stack)"


def _unsupported(leaf: str, mount: str) -> Finding:
    """TRIM-UNSUPPORTED as trim.rules.unsupported says it: its subject the mountpoint, its title the leaf."""
    return Finding("TRIM-UNSUPPORTED", Severity.INFO, mount, f"{leaf} {TAIL}",
                   (Evidence(f"{leaf} discard_max_bytes", "0",
                             f"/sys/block/{leaf}/queue/discard_max_bytes"),),
                   f"TRIM cannot help {mount}. Typical for HDDs.", (), None, (f"lsblk -D /dev/{leaf}",))


LIVE_LIKE = [_unsupported("loop17", "/tmp/ci-b"), _unsupported("loop15", "/tmp/ci-a"),
             Finding("TRIM-NO-SCHEDULE", Severity.WARN, "/", "Discard reaches the bottom of /'s stack"),
             Finding("ETCD-FSYNC-P99", Severity.WARN, "/x", "WAL p99 11.0 ms: INCONCLUSIVE"),
             Finding("ETCD-FSYNC-P99", Severity.WARN, "/y", "WAL p99 12.0 ms: INCONCLUSIVE")]


def test_titles_that_differ_only_in_their_opening_name_merge() -> None:
    rows = worst_first(LIVE_LIKE)
    unsupported = [row for row in rows if row.finding.id == "TRIM-UNSUPPORTED"]
    assert len(unsupported) == 1, [row.title for row in unsupported]
    row, = unsupported
    assert row.subjects == ("/tmp/ci-a", "/tmp/ci-b")
    assert row.title == "2 devices do not accept discard (discard_max_bytes 0 at the bottom of the stack)"
    card = row.combined
    assert card.title == row.title
    assert card.verify == ("lsblk -D /dev/loop15", "lsblk -D /dev/loop17")
    assert [item.what for item in card.evidence] == ["/tmp/ci-a: loop15 discard_max_bytes",
                                                     "/tmp/ci-b: loop17 discard_max_bytes"]
    assert "/tmp/ci-a" in card.why and "/tmp/ci-b" in card.why
    # figures never merge: two WAL runs with different p99s stay two rows
    assert len([row for row in rows if row.finding.id == "ETCD-FSYNC-P99"]) == 2


def test_two_names_on_one_subject_stay_two_rows() -> None:
    """A row lists each subject once: two leaves of one filesystem found apart are not merged."""
    rows = worst_first([_unsupported("loop15", "/m"), _unsupported("loop16", "/m")])
    assert [row.title for row in rows] == [f"loop15 {TAIL}", f"loop16 {TAIL}"]


async def test_the_advice_list_shows_one_row_for_both_devices() -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("4")
        await settled(app, pilot)
        screen = app.screen
        assert isinstance(screen, AdviceScreen)
        screen.post_message(AdviceReady(LIVE_LIKE, "this host (/)"))
        await settled(app, pilot)
        titles = [row.title for row in screen.rows if row.finding.id == "TRIM-UNSUPPORTED"]
        assert titles == ["2 devices do not accept discard (discard_max_bytes 0 at the bottom of the stack)"]
        assert len(screen.findings) == len(LIVE_LIKE)  # the header still counts each finding


def test_a_merged_cell_of_two_mounts_alike_names_one_and_counts_the_other() -> None:
    """Merged, the two pytest mounts (differing only in their middle) read `2: /tmp/…/mnt-no-discard +1`, not
    `2: …/pytest-737/…/mnt-no-discard` (one subject, seemingly, under a count of 2)."""
    from diskdoctor.app.tui.advice_rows import subject_lines

    mounts = tuple(f"/tmp/pytest-of-root/pytest-{n}/loops0/mnt-no-discard" for n in (737, 748))
    (cell,), shown = subject_lines(mounts, 32, 1, frozenset(mounts))
    assert cell == "2: /tmp/…/mnt-no-discard +1" and shown == 0, cell
