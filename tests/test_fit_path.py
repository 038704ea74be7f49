"""One rule for cutting a path (newuser19 #5): Stack cut mountpoints mid-word (`/srv/postgres…ime_recovery`),
TRIM at 80 too (`/srv/postgresq…time_recovery`); `fit_path` keeps the first folders and the last component
whole, drops whole middle folders as "…", and cuts inside the last component only when it alone does not
fit, after "…/"; Stack, TRIM and Advice draw every path that way."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.widgets.fit_text import ELLIPSIS, LEAST_FRAGMENT, fit_path
from rich.cells import cell_len

WAL = "/srv/postgresql/16/main/pg_wal_archive_for_point_in_time_recovery"
KUBELET = ("/var/lib/kubelet/pods/8f0c2a4e-5b1d-4c0e-9a77-3c1f2d4e5f60/volumes/kubernetes.io~csi/"
           "pvc-4d5e6f70-8192-4a3b-bc4d-5e6f708192a3/mount")


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
            assert cell_len(cut) <= width and cut_by_the_rule(cut, path), (path, width, cut)


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
    assert cell_len(mine) <= 60 and cut_by_the_rule(mine, KUBELET)


def _screen_lines(app: DiskDoctorApp) -> list[str]:
    """What the screen draws, line by line."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def cut_by_the_rule(cut: str, path: str) -> bool:
    """Whether `cut` is `path` cut by the rule: whole folders from the start, one "…", then the END of the
    dropped middle (a piece of a folder at least LEAST_FRAGMENT cells, or none) and the last component whole;
    or "…/" and the last component cut once in its middle (paths17 #6: no room thrown away)."""
    if ELLIPSIS not in cut:
        return cut == path
    last = path.rstrip("/").rsplit("/", 1)[-1]
    head, _, tail = cut.partition(ELLIPSIS)
    if ELLIPSIS in tail:  # the last component cut inside
        start, _, end = tail[1:].partition(ELLIPSIS)
        return (not head and tail.startswith("/") and last.startswith(start) and last.endswith(end)
                and "/" not in start + end and ELLIPSIS not in end)
    if head and not head.endswith("/"):
        return False
    fragment = tail.split("/", 1)[0]
    return (path.startswith(head) and path.endswith(tail) and tail.endswith("/" + last)
            and len(head) + len(tail) < len(path) and (not fragment or len(fragment) >= LEAST_FRAGMENT))


def _cut_at_slash(cut: str, path: str) -> bool:
    """Whether `cut` is `path` cut by the rule (`cut_by_the_rule`)."""
    return cut_by_the_rule(cut, path)


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


def test_the_room_left_after_whole_folders_shows_the_end_of_the_middle() -> None:
    """newuser24 #6: TRIM at 120 drew `/var/lib/kubelet/pods/…/mount` in a 66-cell column (37 empty), Stack
    at 200 cut to 74 of 88 cells: after the whole folders that fit, the rest of the room shows the END of the
    dropped middle, cut inside a folder once, so every width past the last component is used."""
    assert fit_path(KUBELET, 50) == "/var/lib/kubelet/pods/…a3b-bc4d-5e6f708192a3/mount"
    assert fit_path(KUBELET, 88) == ("/var/lib/kubelet/pods/8f0c2a4e-5b1d-4c0e-9a77-3c1f2d4e5f60/volumes/"
                                     "…d-5e6f708192a3/mount")
    assert fit_path(KUBELET, 30) == "/var/lib/kubelet/pods/…/mount"  # "…5f/mount" would be noise
    assert fit_path(KUBELET, 50, whole_folders=True) == "/var/lib/kubelet/pods/…/mount"  # Advice's names
    for path in (WAL, KUBELET, "/tmp/pytest-of-root/pytest-1701/loops0/mnt-ext4-discard"):
        last = path.rsplit("/", 1)[-1]
        for width in range(len(last) + 2, len(path)):
            cut = fit_path(path, width)
            assert cut.count(ELLIPSIS) == 1 and cut_by_the_rule(cut, path), (width, cut)
            assert len(cut) >= width - LEAST_FRAGMENT + 1, (width, cut)  # never more than 2 cells unused


def test_a_whole_folder_right_after_the_ellipsis_is_never_shown_as_if_cut() -> None:
    """paths16's `/tmp/…loops0/mnt` read as a folder cut inside, though `loops0` was whole: a piece after the
    `…` either starts with its "/" (`…/loops0/`) or is visibly cut (`…oops0/`), at every width."""
    path = "/tmp/pytest-of-root/pytest-1352/loops0/mnt-ext4-discard"
    for width in range(24, len(path)):
        cut = fit_path(path, width)
        after = cut.split("…", 1)[1].split("/", 1)[0] if "…" in cut else ""
        assert not after or after not in path.split("/"), (width, cut)
