"""The Advice list on a live host like newuser20's (issue 23): merged subject lists cut by leaving whole
subjects out, single subjects cut to the ends that tell them apart, titles whole where the screen has room."""

from __future__ import annotations

import re

import pytest
from conftest import fixture_root
from diskdoctor.app.core.findings.finding import Finding
from diskdoctor.app.core.findings.vocabulary import Severity
from diskdoctor.app.tui.app import DiskDoctorApp
from test_advice_fit import _cells, _listed
from textual.widgets import DataTable

EXT4, TMPFS = "/tmp/newuser20-ext4mnt", "/tmp/newuser20-tmpfs"
LEAD = "/tmp/lead-a-rather-long-name/ext4mnt"
PYTEST = "/tmp/pytest-of-root/pytest-{}/loops0/mnt-{}"
CARD_A, CARD_B = PYTEST.format(731, "ext4-sdcard"), PYTEST.format(732, "ext4-sdcard")
WAL = ("WAL p99 6.37 ms: INCONCLUSIVE against the 10 ms threshold (its confidence interval lies on both"
       " sides) · fdatasync from due at 50/s steady")


def _newuser20() -> list[Finding]:
    """About the live host newuser20 looked at: a long WAL title, merged lists of long mounts, two pytest
    mounts that differ only in their middle, and more rows than the list has lines for."""
    findings = [Finding("ETCD-FSYNC-P99", Severity.WARN, "/", f"{WAL} on /")]
    findings += [Finding("TRIM-NO-SCHEDULE", Severity.WARN, subject,
                         f"Discard reaches the bottom of {subject}'s stack, but nothing trims it")
                 for subject in (LEAD, EXT4, PYTEST.format(731, "gpt-p1"), PYTEST.format(731, "xfs"))]
    findings += [Finding("EXT4-DISCARD", Severity.WARN, subject,
                         "3 ext4 filesystems are mounted with continuous discard")
                 for subject in ("/", CARD_A, CARD_B)]
    findings += [Finding("ATIME", Severity.INFO, subject, f"{subject} updates access times on reads")
                 for subject in (CARD_A, CARD_B)]
    loop15 = "loop15 does not accept discard (discard_max_bytes 0 at the bottom of the stack)"
    findings.append(Finding("DISCARD-NONE", Severity.INFO, PYTEST.format(748, "no-discard"), loop15))
    findings.append(Finding("DISCARD-OFF", Severity.INFO, PYTEST.format(737, "no-discard"),  # not merged
                            loop15.replace("loop15", "loop17")))  # with the first: another finding
    findings += [Finding(f"RULE-{index}", Severity.INFO, TMPFS,
                         f"finding number {index} about the tmpfs and its settings") for index in range(22)]
    return findings


def _named(cell: str, subjects: tuple[str, ...]) -> list[str]:
    """The subjects a merged cell names, checking its count and its "… +N" of those left out."""
    count, listed = cell.replace("/ ", "/").split(": ", 1)
    assert count == str(len(subjects)), cell
    named = [item.strip() for item in listed.split(",")]
    one = re.fullmatch(r"(\S+) \+(\d+)", named[-1])  # "2: …/name +1" (_one_named)
    if len(named) == 1 and one and one[1] != "…":
        named = [one[1], f"… +{one[2]}"]
    left_out = re.fullmatch(r"… \+(\d+)", named[-1])
    shown = named[:-1] if left_out else named
    assert len(shown) + (int(left_out[1]) if left_out else 0) == len(subjects), cell
    return shown


@pytest.mark.parametrize("size", [(120, 40), (200, 60)], ids=["120x40", "200x60"])
async def test_merged_lists_leave_whole_subjects_out_and_cut_ones_stay_apart(size: tuple[int, int]) -> None:
    """newuser20 #2: `4: …/ext4mnt, …/newuser…ext4mnt, …/mnt-gpt-p1, …/mnt-xfs` (200x60) and `3: /,
    …/mnt-e…card, …/mnt-e…card` (120x40, two pytest mounts read the same; live, two rows read
    `/tmp/…/loops0/mnt-no-discard`): a merged list names whole subjects and counts the rest; single
    subjects cut read differently (the column takes the cells `fit_path` needs to tell them apart)."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=size) as pilot:
        screen = await _listed(app, pilot, _newuser20())
        table = screen.query_one("#advice-table", DataTable)
        singles: dict[str, str] = {}
        for index, row in enumerate(screen.rows):
            cell = _cells(table, index)[2]
            if len(row.subjects) > 1:
                n = len(row.subjects)
                room = screen._widths[2]
                fits = len(f"{n}: {row.subjects[0]}, … +{n - 1}") <= room  # card order (newuser22 #12)
                named = _named(cell, row.subjects)
                assert all(item in row.subjects for item in named) or not fits, cell
                assert not fits or named == list(row.subjects[:len(named)]), cell  # dropped from the end
            else:
                singles[row.subjects[0]] = cell
        assert len(set(singles.values())) == len(singles), singles  # no two read the same


async def test_at_200x60_titles_are_whole_beside_a_long_single_subject_cut_at_a_slash() -> None:
    """newuser20 #2 at 200x60: the Finding column got 133 cells and the WAL title still ended `fdatasync from
    due at 50/s…`, the Subjects column kept wide for one long pytest mount. More rows than lines (no second
    line): the titles take the width, the long path is cut at a "/" to its name (`…/mnt-no-discard`)."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await _listed(app, pilot, _newuser20())
        table = screen.query_one("#advice-table", DataTable)
        assert set(screen._heights) == {1}  # more rows than lines: one line each
        for index, row in enumerate(screen.rows):
            assert _cells(table, index)[1] == screen._title_of(row), _cells(table, index)
        cell = next(_cells(table, index)[2] for index, row in enumerate(screen.rows)
                    if row.subjects == (PYTEST.format(748, "no-discard"),))
        assert cell.endswith("/mnt-no-discard"), cell


def test_a_subjects_column_is_no_wider_than_its_cells_where_a_title_is_cut() -> None:
    """newuser20 #2: the Subjects column was sized for a merged list that was itself cut, beside titles
    ending "…": where a title is cut, the column is as wide as its widest cell and the title gets the rest."""
    from diskdoctor.app.tui.advice_rows import plan_rows, subject_lines

    titles = ["a title far too long for its list " * 6, "short"]
    subjects = [("/", f"{LEAD}/a-long-folder/more", f"{EXT4}/another-long-folder"), ("/x",)]
    plan = plan_rows(titles, subjects, 110, 40, 0, 24, 8)
    drawn = max(len(subject_lines(row, plan.subjects, 1)[0][0]) for row in subjects)
    assert plan.subjects == max(drawn, 8), plan
    assert plan.title == 110 - plan.subjects, plan
