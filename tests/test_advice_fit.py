"""The Advice screen sized from what it holds (issue 23, newuser4 items 3, 5, 12, 13, 20): subjects and
titles whole where there is room, merged findings titled for all their subjects, the card's header
wrapped after a `/`, the status line's hints dropped whole."""

from __future__ import annotations

import re

import pytest
from conftest import fixture_root
from diskdoctor.app.core.findings.finding import Finding
from diskdoctor.app.core.findings.order import merged_title, worst_first
from diskdoctor.app.core.findings.vocabulary import Severity
from diskdoctor.app.tui.advice_screen import (
    SUBJECTS_MIN_CELLS,
    AdviceReady,
    AdviceScreen,
    _subjects_needs,
    fit_title,
    wrap_at_slashes,
)
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.selection import choose
from test_list_layout import screen_lines
from test_tui import settled
from textual.widgets import DataTable

SIZES = [(80, 24), (120, 40), (200, 60)]
IDS = ["80x24", "120x40", "200x60"]
XFS = "/tmp/newuser4/mnt-xfs-nodiscard"
UNSCHEDULED = f"Discard reaches the bottom of {XFS}'s stack, but nothing trims it"


def _finding(subject: str, title: str, finding_id: str = "DISCARD-ONLINE") -> Finding:
    return Finding(finding_id, Severity.WARN, subject, title)


def test_a_merged_title_speaks_of_every_subject() -> None:
    """newuser4: `/ (ext4) is mounted with continuous discard` headed a row about 3 filesystems."""
    online = [_finding(s, f"{s} (ext4) is mounted with continuous discard") for s in ("/", "/a", "/b")]
    row, = worst_first(online)
    assert row.title == "3 ext4 filesystems are mounted with continuous discard"
    stack = [_finding(s, f"Discard reaches the bottom of {s}'s stack, but nothing trims it",
                      "TRIM-NO-SCHEDULE") for s in ("/", "/srv")]
    assert worst_first(stack)[0].title == \
        "Discard reaches the bottom of each filesystem's stack, but nothing trims it"
    cache = [_finding(s, f"{s} has a volatile cache but no FUA", "WCACHE-NO-FUA") for s in ("sdc", "sdd")]
    assert worst_first(cache)[0].title == "2 devices have a volatile cache but no FUA"
    lvm = [_finding(s, "lvm.conf has issue_discards unset", "TRIM-LVM-MYTH") for s in ("/a", "/b")]
    assert worst_first(lvm)[0].title == "lvm.conf has issue_discards unset"
    one = _finding("/", "/ (ext4) is mounted with continuous discard")
    assert merged_title(one, ("/",)) == one.title


def test_a_title_cut_short_keeps_the_path_it_names() -> None:
    """newuser4 at 80x24: `Discard reaches the bottom of…` (30 cells in a 52-cell column): the path with a
    digit in it was dropped whole; it is cut in the middle instead, keeping its end."""
    cut = fit_title(UNSCHEDULED, 52)
    assert len(cut) >= 50 and "discard's" in cut and cut.endswith("…")
    assert fit_title(UNSCHEDULED, 80) == \
        "Discard reaches the bottom of …/mnt-xfs-nodiscard's stack, but nothing trims it"
    assert fit_title("Thin pool vg0/pool_nopassdown has discards=nopassdown", 47).startswith(
        "Thin pool vg0/pool_nopassdown has")  # not a path: never cut in the middle


def test_a_long_path_wraps_after_a_slash() -> None:
    long = "/var/lib/kubelet/pods/8f0c2a4e-5b1d-4c0e-9a77-3c1f2d4e5f60/volumes/kubernetes.io~csi/mount"
    lines = wrap_at_slashes(f"TRIM-CRYPT-OFF · {long}", 50)
    assert "".join(line if line.endswith("/") else line + " " for line in lines).strip() == \
        f"TRIM-CRYPT-OFF · {long}"
    assert all(line.endswith(("/", "·")) for line in lines[:-1]), lines
    assert all(len(line) <= 50 for line in lines)


async def _advice(app: DiskDoctorApp, pilot) -> AdviceScreen:  # type: ignore[no-untyped-def]
    await settled(app, pilot)
    await pilot.press("4")
    await settled(app, pilot)
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, AdviceScreen)
    return screen


def _cells(table: DataTable, row: int) -> list[str]:
    """A row's cells as one line each (a row on two lines joined with a space)."""
    return [(cell.plain if hasattr(cell, "plain") else str(cell)).replace("\n", " ")
            for cell in table.get_row_at(row)]


def _same(shown: str, whole: str) -> bool:
    """Whether a cell shows all of `whole` (a line break may fall after a "/" inside a path)."""
    return re.sub(r"\s+", "", shown) == re.sub(r"\s+", "", whole)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_no_title_is_cut_beside_a_subjects_column_with_room_to_spare(size: tuple[int, int]) -> None:
    """newuser4 at 200x60: titles cut `…but nothing trims…` with ~40 blank columns under Subjects."""
    for fixture in ("lab-ssd", "long-names"):
        app = DiskDoctorApp(fixture_root(fixture))
        async with app.run_test(size=size) as pilot:
            screen = await _advice(app, pilot)
            table = screen.query_one("#advice-table", DataTable)
            subjects_width = screen._widths[2]
            needs = max(max(_subjects_needs(row) for row in screen.rows), SUBJECTS_MIN_CELLS)
            for index, row in enumerate(screen.rows):
                title = _cells(table, index)[1]
                if not _same(title, row.title):  # cut: the subjects take no more than single ones need
                    assert subjects_width <= needs, (fixture, title, subjects_width, needs)


@pytest.mark.parametrize("size", [(120, 40), (200, 60)], ids=IDS[1:])
async def test_single_subjects_are_whole_where_the_list_has_room(size: tuple[int, int]) -> None:
    """newuser4 at 120x40: every subject cut (`/tmp…-discard`) in a list of 64 columns: the lab's
    mountpoints are whole."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=size) as pilot:
        screen = await _advice(app, pilot)
        table = screen.query_one("#advice-table", DataTable)
        for index, row in enumerate(screen.rows):
            if len(row.subjects) == 1:
                assert _cells(table, index)[2] == row.subjects[0]


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_merged_rows_do_not_name_only_their_first_subject(size: tuple[int, int]) -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=size) as pilot:
        screen = await _advice(app, pilot)
        table = screen.query_one("#advice-table", DataTable)
        merged = [(i, row) for i, row in enumerate(screen.rows) if len(row.subjects) > 1]
        assert merged
        for index, row in merged:
            named = re.search(rf"(?<![\w/]){re.escape(row.subjects[0])}(?![\w/])", _cells(table, index)[1])
            assert named is None, _cells(table, index)


@pytest.mark.parametrize("size", [(120, 40), (200, 60)], ids=IDS[1:])
async def test_the_card_header_wraps_a_long_path_after_a_slash(size: tuple[int, int]) -> None:
    """newuser4, long-names: the header showed `…5f60/volume` then `s/kubernetes.io~csi/…/moun` then `t`."""
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=size) as pilot:
        screen = await _advice(app, pilot)
        header = screen.query_one("#advice-details-title")
        lines = [line[header.region.x:header.region.right].rstrip()
                 for line in screen_lines(app)[header.region.y:header.region.bottom]]
        assert "kubelet" in "".join(lines) and "".join(lines).endswith("/mount")  # whole, one line or more
        assert all(line.endswith(("/", "·")) for line in lines[:-1]), lines


async def test_the_status_line_at_80_keeps_each_hint_whole() -> None:
    """newuser4 at 80x24: `only /tmp/newuser4/mnt-xfs-nodiscard: 1 of 11 rows (a: all) · ↑↓ choose · c`."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)
        screen = await _advice(app, pilot)
        screen.post_message(AdviceReady([_finding(XFS, UNSCHEDULED, "TRIM-NO-SCHEDULE"),
                                         _finding("/", UNSCHEDULED.replace(XFS, "/"), "TRIM-NO-SCHEDULE"),
                                         _finding("/srv", "/srv has no trim")], "test"))
        await pilot.pause()
        choose(app, None, XFS, "stack")
        await pilot.press("1")
        await settled(app, pilot)
        await pilot.press("4")
        await settled(app, pilot)
        await pilot.pause()
        status = screen_lines(app)[screen.query_one("#status").region.y].strip()
        assert status.startswith(f"only {XFS} (a: all)"), status
        whole = {"↑↓ choose", "c copy fixes", "/ filter", "r read again"}
        assert all(part in whole for part in status.split(" · ")[1:]), status


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_narrowed_to_one_filesystem_the_titles_take_the_subjects_room(size: tuple[int, int]) -> None:
    """newuser4 at 120x40, narrowed to the benchmarked filesystem: `WAL p99 28.1 ms ≥ 10 ms · fdatas…` beside
    `/tmp…/mnt-ext4-discard` repeated on every row; the status line and the card already name it."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=size) as pilot:
        await settled(app, pilot)
        choose(app, None, "/lab/luks1", "stack")
        screen = await _advice(app, pilot)
        assert screen.subject == "/lab/luks1"
        table = screen.query_one("#advice-table", DataTable)
        assert [str(column.label) for column in table.ordered_columns] == ["Sev", "Finding"]
        width = table.ordered_columns[1].width
        for index in range(table.row_count):
            title = _cells(table, index)[1]
            assert not title.endswith("…") or len(title) >= width - 2, title


@pytest.mark.parametrize("size", [(120, 40), (200, 60)], ids=IDS[1:])
async def test_a_short_list_goes_above_the_card_so_its_titles_show_whole(size: tuple[int, int]) -> None:
    """newuser5 at 120x40: `BLOCKED at luks1 (dm-crypt without…` beside the card with ~30 empty rows under
    the 7-row list: a short list whose titles would be cut beside the card is put above it, full width."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=size) as pilot:
        screen = await _advice(app, pilot)
        table = screen.query_one("#advice-table", DataTable)
        details = screen.query_one("#advice-details")
        assert screen.has_class("-stacked")
        titles = [_cells(table, index)[1] for index in range(len(screen.rows))]
        # the longest title is 111 columns: whole at 200, on two lines at 120 (issue 23: it was cut)
        assert all(_same(shown, screen._title_of(row))
                   for shown, row in zip(titles, screen.rows, strict=True))
        if screen.has_class("-stacked"):
            assert details.region.y >= table.region.bottom and table.region.width >= size[0] - 1
        else:
            assert details.region.x >= table.region.right


@pytest.mark.parametrize("size", [(120, 40), (200, 60)], ids=IDS[1:])
async def test_a_title_that_would_be_cut_goes_on_a_second_line(size: tuple[int, int]) -> None:
    """Issue 23 at 120x40 on lab-ssd: `BLOCKED at luks2off (dm-crypt without allow_discards): fstrim and
    discard on…` cut at the full width of the list while the card below had 10 blank rows; at 200x60 the
    Subjects list ended `…/lab/slow, /la…`. A row takes a second line while the list has lines to spare."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=size) as pilot:
        screen = await _advice(app, pilot)
        table = screen.query_one("#advice-table", DataTable)
        lines = screen_lines(app)[table.region.y:table.region.bottom]
        shown = "\n".join(line[table.region.x:table.region.right] for line in lines)
        for index, row in enumerate(screen.rows):
            cells = _cells(table, index)
            assert _same(cells[1], screen._title_of(row)), cells  # every title whole
            listed = cells[2].split(": ", 1)[-1].split(", ") if len(row.subjects) > 1 else [cells[2]]
            whole = [item.rstrip(",") in row.subjects or re.fullmatch(r"… \+\d+", item) for item in listed]
            assert all(whole), cells  # no cut subject: whole ones left out, counted
            if size[0] >= 200:
                assert listed == list(row.subjects), cells  # room for every subject on two lines
        assert "BLOCKED at luks2off" in shown and "never reach the disk" in shown.split("luks2off", 1)[1]
        assert max(table.get_row_height(key) for key in table.rows) == 2
        assert not table.show_vertical_scrollbar  # the rows and their second lines fit above the card
        assert table.region.height <= int(screen.query_one("#advice-body").region.height * 0.4)


async def test_at_80x24_the_labs_rows_keep_one_line() -> None:
    """The lab's 7 rows at 80x24 leave the narrow list no line to spare: one line per row, as before, a
    merged list cut after a whole subject (it was `8: /lab/data, /lab/…`)."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _advice(app, pilot)
        table = screen.query_one("#advice-table", DataTable)
        assert {table.get_row_height(key) for key in table.rows} == {1}
        merged = [_cells(table, index)[2] for index, row in enumerate(screen.rows) if len(row.subjects) > 1]
        assert merged and all(re.search(r", … \+\d+$", cell) for cell in merged), merged


def test_no_room_for_subjects_is_no_hang() -> None:
    """Narrowed to one subject the list has no Subjects column (0 cells): nothing loops on it."""
    from diskdoctor.app.tui.advice_rows import subject_lines

    assert subject_lines(("/var/lib/etcd",), 0, 2) == (("",), 0)
    assert wrap_at_slashes("/var/lib/etcd", 0)


NEWUSER8 = [  # the live host's findings newuser8 listed after a 5 s `bench wal` on /dev/shm
    ("ETCD-FSYNC-P99", Severity.WARN, "/dev/shm",
     "WAL p99 5.26 ms: INCONCLUSIVE against the 10 ms threshold (its confidence interval lies on both sides) "
     "· fdatasync from due at 50/s steady, 250 samples"),
    ("BENCH-NOT-DURABLE", Severity.WARN, "/dev/shm",
     "the benchmark's fdatasync was not durable here: this figure is not what a durable write costs"),
    ("DISCARD-ONLINE", Severity.WARN, "/", "/ (ext4) is mounted with continuous discard"),
    ("ATIME", Severity.INFO, "/", "/ updates access times on reads"),
    ("BENCH-BUSY", Severity.INFO, "/dev/shm",
     "the host was busy during the benchmark: its figures include other processes' interference"),
    ("ROTA-VIRT", Severity.INFO, "vda",
     "vda (virtio) says rotational=1 (under /): that says nothing about the storage"),
    ("WCACHE-NO-FUA", Severity.INFO, "vda", "vda has a volatile cache but no FUA (under /)"),
]


async def _listed(app: DiskDoctorApp, pilot, findings: list[Finding]) -> AdviceScreen:  # type: ignore[no-untyped-def]
    screen = await _advice(app, pilot)
    screen.post_message(AdviceReady(findings, "test"))
    await pilot.pause()
    await pilot.pause()
    return screen


async def test_a_subject_column_beside_a_cut_title_is_as_wide_as_its_widest_subject() -> None:
    """newuser8 #7 at 120x40: the WAL title wrapped onto 2 lines and was still cut (`… fdatasync from due at
    50/s st…`) beside a Subject column of 38 cells holding at most `/dev/shm`: a title wrapped between words
    into a third line counted as whole-but-for-a-few-cells, so narrower titles won."""
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _listed(app, pilot, [Finding(*f) for f in NEWUSER8])
        table = screen.query_one("#advice-table", DataTable)
        assert [str(column.label) for column in table.ordered_columns][2] == "Subject"
        assert table.ordered_columns[2].width == len("/dev/shm")
        assert all(_same(_cells(table, index)[1], screen._title_of(row))
                   for index, row in enumerate(screen.rows))  # the first title whole on 2 lines


async def test_at_80x24_the_subject_header_is_whole() -> None:
    """newuser8 #12 at 80x24: the header read `Sev   Finding … Sub` (subjects `/` and `vda`) beside a
    Finding column with about 14 blank cells."""
    findings = [Finding(*f) for f in NEWUSER8 if f[2] != "/dev/shm"]
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _listed(app, pilot, findings)
        table = screen.query_one("#advice-table", DataTable)
        assert table.ordered_columns[2].width >= len("Subject")
        header = screen_lines(app)[table.region.y]
        assert re.search(r"Sev\s+Finding\s+Subject\b", header), header


async def test_a_long_device_name_in_a_title_is_cut_in_its_middle_at_80x24() -> None:
    """newuser9 at 80x24, long-names: `WARN  BLOCKED at  /var/lib/kubelet/pods…/mount` / `       …`: the
    device name wrapped away and was then cut off whole, beside a Subjects column of 28 cells. It is cut in
    its middle as Stack cuts it, and the title, read first, gets the row's width before the subjects."""
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _advice(app, pilot)
        table = screen.query_one("#advice-table", DataTable)
        lines = screen_lines(app)[table.region.y + 1:table.region.y + 3]  # the first row's two lines
        first, second = (line[table.region.x:table.region.right] for line in lines)
        found = re.search(r"BLOCKED at (luks-elast\S*…\S*volume-01) \(dm-crypt", first)
        assert found is not None, (first, second)
        assert "without allow_discards" in second, second
        title_width, subjects_width = screen._widths[1:3]
        assert title_width > 2 * subjects_width, screen._widths


@pytest.mark.parametrize("size", [(120, 40), (200, 60)], ids=IDS[1:])
async def test_a_long_title_keeps_its_name_and_its_end_where_a_path_in_it_can_be_cut(
        size: tuple[int, int]) -> None:
    """newuser9 at 120x40: `BLOCKED at luks-elasticsearch-hot-tier-data-volume-01 (dm-crypt` / `... on
    /var/lib/ku…/mount…`: the path (also in the Subjects column) is cut further, so the device name
    stays whole and the title ends `never reach the disk`."""
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=size) as pilot:
        screen = await _advice(app, pilot)
        table = screen.query_one("#advice-table", DataTable)
        cell = _cells(table, 0)[1]
        assert "BLOCKED at luks-elasticsearch-hot-tier-data-volume-01 (dm-crypt without" in cell, cell
        assert cell.endswith("never reach the disk"), cell


def _cut_at_slash(item: str, subjects: tuple[str, ...]) -> bool:
    """Whether `item` is one of `subjects` cut at its "/"s, its last component whole ("/var/…/mount")."""
    return any(re.fullmatch(re.escape(item).replace("…", ".*"), subject) and subject.endswith(
        item.rsplit("/", 1)[-1]) and re.fullmatch(r"([^…]*/)?…/[^…]+", item) for subject in subjects)


@pytest.mark.parametrize("size", [(120, 40), (200, 60)], ids=IDS[1:])
async def test_a_merged_row_leaves_whole_subjects_out_rather_than_cutting_them(size: tuple[int, int]) -> None:
    """newuser20 #2, long-names at 120: `2: …/pg_wal_archiv…ime_recovery` and `2: …/pg_wal_…ecovery,
    /var/…/mount`, one path cut two ways in one column. A merged list names its subjects whole and counts
    the ones it leaves out (`2: /, … +1`; the card names them all)."""
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=size) as pilot:
        screen = await _advice(app, pilot)
        table = screen.query_one("#advice-table", DataTable)
        merged = [(i, row) for i, row in enumerate(screen.rows) if len(row.subjects) > 1]
        assert merged
        for index, row in merged:
            cell = _cells(table, index)[2].replace("/ ", "/")  # a path goes on after a "/"
            count, listed = cell.split(": ", 1)
            assert count == str(len(row.subjects)), cell  # one form (newuser22 #1: `2 subjects: …`)
            if listed == f"… +{len(row.subjects)}":  # none fits whole: only the count, no name cut inside
                assert not any(len(subject) + 10 <= screen._widths[2] for subject in row.subjects), cell
                continue
            named = [item.strip() for item in re.sub(r"(?<=[^,…]) (\+\d+)$", r", … \1", listed).split(",")]
            left_out = re.fullmatch(r"… \+(\d+)", named[-1])  # "…/mount +1" (adv15) reads as "…/mount, … +1"
            shown = named[:-1] if left_out else named
            fits = any(len(subject) + 10 <= screen._widths[2] for subject in row.subjects)
            whole_or_slash = all(item in row.subjects or _cut_at_slash(item, row.subjects) for item in shown)
            assert whole_or_slash or not fits, cell  # never cut inside a name
            assert len(shown) + (int(left_out[1]) if left_out else 0) == len(row.subjects), cell


async def test_at_200_the_finding_column_is_sized_from_its_words_and_subjects_show_paths_whole() -> None:
    """newuser12 #8, long-names at 200: the Finding column was 110 cells (about 60 blank beside the third
    row) while Subjects cut the kubelet path (`.../volumes/kubern…/mount`) that the first row showed whole.
    The Finding column is as wide as its words (a path the Subjects column shows may be cut in the title,
    at a "/"), and every subject is whole."""
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await _advice(app, pilot)
        table = screen.query_one("#advice-table", DataTable)
        title_width = screen._widths[1]
        longest_line = max(len(line) for index in range(table.row_count)
                           for line in str(table.get_row_at(index)[1]).split("\n"))
        assert title_width == longest_line <= 90, (title_width, longest_line)
        for index, row in enumerate(screen.rows):
            cell = _cells(table, index)[2]
            assert "…" not in cell, cell
            assert _same(cell, ", ".join(row.subjects).replace(", ", ",")) or \
                _same(cell, f"{len(row.subjects)}: " + ",".join(row.subjects)), cell
        title = _cells(table, 0)[1]
        assert re.search(r" on /var/\S*…/mount never reach the disk$", title), title  # cut once, at a "/"
        assert "…/…" not in title, title


def test_rows_wrap_all_or_none_so_a_column_never_mixes_wrapping_with_cuts() -> None:
    """newuser12 #8: at 80 the Finding column wrapped its top rows onto a second line and cut the rows below
    them with "…". Where the list has no second line for every row that wants one, no row takes one."""
    from diskdoctor.app.tui.advice_rows import plan_rows

    titles = ["a long title that wants two lines here " * 2] * 3
    subjects = [("/a",), ("/b",), ("/c",)]
    assert plan_rows(titles, subjects, 60, 8, 2, 24).heights == (1, 1, 1)
    assert plan_rows(titles, subjects, 60, 8, 3, 24).heights == (2, 2, 2)
