"""One rule for cutting a path (newuser19 #5): Stack cut mountpoints mid-word (`/srv/postgres…ime_recovery`),
TRIM at 80 too (`/srv/postgresq…time_recovery`); `fit_path` keeps the first folders and the last component
whole, drops whole middle folders as "…", and cuts inside the last component only when it alone does not
fit, after "…/"; Stack, TRIM and Advice draw every path that way."""

from __future__ import annotations

import re

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.widgets.fit_text import fit_path
from rich.cells import cell_len

WAL = "/srv/postgresql/16/main/pg_wal_archive_for_point_in_time_recovery"
KUBELET = ("/var/lib/kubelet/pods/8f0c2a4e-5b1d-4c0e-9a77-3c1f2d4e5f60/volumes/kubernetes.io~csi/"
           "pvc-4d5e6f70-8192-4a3b-bc4d-5e6f708192a3/mount")
CUT_AT_SLASH = re.compile(r"(/[^/…]+)*/?…/[^…]*(…[^/…]+)?")
"""A path cut at a "/": whole folders, "…/", then the last component (itself cut once in its middle)."""


def test_a_path_that_fits_is_whole() -> None:
    assert fit_path(WAL, len(WAL)) == WAL
    assert fit_path("/", 1) == "/"


def test_middle_folders_go_whole_and_the_first_and_last_stay() -> None:
    assert fit_path(WAL, 60) == "/srv/postgresql/…/pg_wal_archive_for_point_in_time_recovery"
    assert fit_path(WAL, 49) == "/srv/…/pg_wal_archive_for_point_in_time_recovery"
    assert fit_path(KUBELET, 26) == "/var/lib/kubelet/…/mount"
    assert fit_path(KUBELET, 12) == "/var/…/mount"


def test_only_a_last_component_too_long_is_cut_inside_after_a_slash() -> None:
    assert fit_path(WAL, 43) == "…/pg_wal_archive_for_point_in_time_recovery"
    cut = fit_path(WAL, 26)
    assert cut.startswith("…/pg_wal_") and cut.endswith("recovery") and cell_len(cut) == 26
    assert fit_path("/tmp/newuser19-ext4mnt", 12) == "…/newus…4mnt"


def test_every_width_gives_one_form_at_most_the_width() -> None:
    for path in (WAL, KUBELET, "/tmp/newuser19-ext4mnt", "/a/b"):
        for width in range(7, len(path)):
            cut = fit_path(path, width)
            assert cell_len(cut) <= width and CUT_AT_SLASH.fullmatch(cut), (path, width, cut)


def test_too_narrow_one_folder_and_other_text_are_cut_in_the_middle() -> None:
    assert fit_path(WAL, 6) == "/sr…ry"
    assert fit_path("/averyveryverylongfolder", 10) == "/aver…lder"
    assert fit_path("luks-elasticsearch-hot", 10) == "luks-…-hot"
    assert fit_path(WAL, 0) == ""


def test_paths_that_would_read_alike_keep_the_folders_that_tell_them_apart() -> None:
    other = KUBELET.replace("pvc-4d5e", "pvc-9a0b")
    assert fit_path(KUBELET, 29) == fit_path(other, 29) == "/var/lib/kubelet/pods/…/mount"
    mine, theirs = fit_path(KUBELET, 60, frozenset({other})), fit_path(other, 60, frozenset({KUBELET}))
    assert mine != theirs and mine.endswith("/pvc-4d5e6f70-8192-4a3b-bc4d-5e6f708192a3/mount"), mine
    assert cell_len(mine) <= 60 and CUT_AT_SLASH.fullmatch(mine)


def _screen_lines(app: DiskDoctorApp) -> list[str]:
    """What the screen draws, line by line."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def one_folder_started(head: str, tail: str, path: str) -> bool:
    """Whether "HEAD…TAIL" is `path` with one folder left out but its start (8 cells or more) shown:
    "/tmp/lead-a-rather-long…/ext4mnt"."""
    before, _, started = head.rpartition("/")
    if not (before or head.startswith("/")) or not tail.startswith("/") or len(started) < 8:
        return False
    folder = path[len(before) + 1:len(path) - len(tail)]
    return (path.startswith(before + "/") and path.endswith(tail) and "/" not in folder
            and folder.startswith(started) and len(folder) > len(started))


def _cut_at_slash(cut: str, path: str) -> bool:
    """Whether `cut` is `path` cut by the rule: whole folders, "…/", the last component(s) whole (one folder
    left out may show its start), or "…/" and the last component cut once in its middle."""
    head, _, tail = cut.partition("…")
    if one_folder_started(head, tail, path):
        return True
    if (head and not (head.endswith("/") and path.startswith(head))) or not tail.startswith("/"):
        return False
    if path.endswith(tail):
        return True
    last = path.rsplit("/", 1)[-1]
    start, _, end = tail[1:].partition("…")
    return not head and last.startswith(start) and last.endswith(end) and "/" not in start + end


def _cut_paths(lines: list[str]) -> list[tuple[str, str]]:
    """Every cut form of the long-names fixture's two long mountpoints shown, with the path it stands for."""
    words = [word.strip("(),'\"") for line in lines for word in line.split()]
    return [(word, WAL if any(key in word for key in ("srv", "postgres", "pg_", "recovery")) else KUBELET)
            for word in words if "…" in word and "/" in word
            and any(key in word for key in ("srv", "postgres", "pg_", "recovery", "/var", "kube", "mount"))]


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)])
@pytest.mark.parametrize("key", ["1", "2", "4"])
async def test_stack_trim_and_advice_cut_long_mountpoints_at_a_slash(key: str, size: tuple[int, int]) -> None:
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=size) as pilot:
        await pilot.app.workers.wait_for_complete()
        await pilot.press(key)
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.pause()
        lines = _screen_lines(app)
        said = any("cut at the edge" in line for line in lines)  # a command's word cut at a card's edge
        cut = [(word, path) for word, path in _cut_paths(lines) if not (said and word.endswith("…"))]
        assert cut, "\n".join(lines)
        wrong = [word for word, path in cut if not _cut_at_slash(word, path)]
        assert not wrong, (wrong, "\n".join(lines))


def test_an_advice_title_cuts_its_path_at_a_slash() -> None:
    from diskdoctor.app.tui.advice_screen import fit_title

    title = f"fdatasync on {WAL} is slow under load"
    shown = fit_title(title, 50)
    assert shown.startswith("fdatasync on …/pg_wal_") and shown.endswith(" is slow under load"), shown
    assert _cut_at_slash(shown.split()[2], WAL), shown


def test_cut_last_components_that_would_read_alike_keep_the_end_that_tells_them_apart() -> None:
    mine, theirs = "/lab/thin_passdown", "/lab/thin_nopassdown"
    assert fit_path(mine, 11) == fit_path(theirs, 11) == "…/thin…down"
    shown = {fit_path(mine, 11, frozenset({theirs})), fit_path(theirs, 11, frozenset({mine}))}
    assert len(shown) == 2 and all(cut.startswith("…/") and len(cut) == 11 for cut in shown), shown


@pytest.mark.parametrize("width", range(30, 62, 2))
@pytest.mark.parametrize("lines", [1, 2])
def test_an_advice_title_cut_at_its_end_never_cuts_its_path_too(width: int, lines: int) -> None:
    """newuser19 at 80x24: `Discard reaches the bottom of …/newuser…4mnt's…`: a path cut inside its last
    component and the title's end cut after it. Now the path is whole, cut with its last component whole,
    or left out where the end goes anyway."""
    from diskdoctor.app.tui.advice_rows import wrapped_title
    from diskdoctor.app.tui.advice_screen import fit_title

    title = "Discard reaches the bottom of /tmp/newuser19-ext4mnt's stack, but nothing trims it"
    shown = wrapped_title(title, width, lines, fit_title)
    assert all(cell_len(line) <= width for line in shown.split("\n")), shown
    if shown.endswith("…"):
        path = [word.removesuffix("…") for word in shown.split() if "/" in word]
        assert not path or path[0] in ("/tmp/newuser19-ext4mnt's", "…/newuser19-ext4mnt's"), shown


def test_advice_subjects_that_would_read_alike_are_still_cut_at_a_slash() -> None:
    from diskdoctor.app.tui.advice_rows import subject_lines

    other = KUBELET.replace("pvc-4d5e", "pvc-9a0b")
    singles = frozenset({KUBELET, other})
    mine, theirs = (subject_lines((path,), 60, 1, singles)[0][0] for path in (KUBELET, other))
    assert mine != theirs and _cut_at_slash(mine, KUBELET) and _cut_at_slash(theirs, other), (mine, theirs)


def test_two_paths_that_differ_only_in_a_middle_folder_keep_it() -> None:
    """newuser21 #2 at 80x24: two pytest runs' mounts both read `…/loops0/mnt-ext4-discard` (TRIM, Stack):
    the folder that tells them apart is kept where it fits, the others dropped as `…`."""
    one = "/tmp/pytest-of-root/pytest-737/loops0/mnt-ext4-discard"
    two = "/tmp/pytest-of-root/pytest-801/loops0/mnt-ext4-discard"
    both = frozenset({one, two})
    assert fit_path(one, 31, both) == "…/pytest-737/…/mnt-ext4-discard"
    assert fit_path(two, 31, both) == "…/pytest-801/…/mnt-ext4-discard"
    for width in range(31, len(one)):
        assert fit_path(one, width, both) != fit_path(two, width, both), width
        assert len(fit_path(one, width, both)) <= width
