"""newuser23 #3: at 80x24 two rows read the same where their paths differ only in a middle folder (TRIM cut
`/tmp/pytest-of-root/pytest-1157/…/loops0/mnt-gpt-p1` and the same path under `pytest-1158` both to
`…/loops0/mnt-gpt-p1`; Stack's `loop0` and `loop5` both read `…/loops0/mnt-ext4-discard`). `fit_paths`
cuts the paths shown together keeping the folder that tells them apart, once per set and width."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from conftest import FIXTURES
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.root import Root
from diskdoctor.widgets.fit_text import ELLIPSIS, fit_path, fit_paths
from rich.cells import cell_len

RUN = "/tmp/pytest-of-root/pytest-{}/test_trim_on_live_loops0/loops0/{}"
ONE, TWO = RUN.format(1157, "mnt-gpt-p1"), RUN.format(1158, "mnt-gpt-p1")
XFS_ONE, XFS_TWO = RUN.format(1157, "mnt-xfs"), RUN.format(1158, "mnt-xfs")


def test_twin_paths_keep_the_folder_that_differs() -> None:
    cuts = fit_paths(frozenset({ONE, TWO, XFS_ONE, XFS_TWO, "/", "/boot/efi"}), 26)
    assert fit_path(ONE, 26) == fit_path(TWO, 26)  # one at a time they read the same
    assert cuts[ONE] == "…/pytest-1157/…/mnt-gpt-p1" and cuts[TWO] == "…/pytest-1158/…/mnt-gpt-p1"
    assert cuts["/"] == "/" and cuts["/boot/efi"] == "/boot/efi"


@pytest.mark.parametrize("width", range(16, len(ONE) + 1))  # TRIM never goes under 16 cells
def test_every_width_reads_apart_and_fits(width: int) -> None:
    paths = frozenset({ONE, TWO, XFS_ONE, XFS_TWO})
    cuts = fit_paths(paths, width)
    assert len(set(cuts.values())) == len(paths), cuts
    assert all(cell_len(cut) <= width for cut in cuts.values()), cuts
    unique = fit_paths(frozenset({ONE, "/srv/data"}), width)  # a path unlike the others: the one-path rule
    assert unique[ONE] == fit_path(ONE, width)


def test_a_narrow_width_cuts_the_differing_folder_keeping_its_telling_end() -> None:
    cuts = fit_paths(frozenset({ONE, TWO}), 22)
    assert cuts[ONE].endswith("/mnt-gpt-p1") and "157/" in cuts[ONE] and "158/" in cuts[TWO], cuts


def test_several_differing_folders_are_all_kept() -> None:
    paths = frozenset({"/a/run-1/x/p/mnt", "/a/run-1/y/p/mnt", "/a/run-2/x/p/mnt"})
    cuts = fit_paths(paths, 14)
    assert len(set(cuts.values())) == 3 and all(len(cut) <= 14 for cut in cuts.values()), cuts


def test_not_paths_are_cut_in_their_middle_apart() -> None:
    mine, theirs = "/lab/thin_passdown", "/lab/thin_nopassdown"
    cuts = fit_paths(frozenset({mine, theirs}), 11)
    assert cuts[mine] != cuts[theirs] and all(cut.startswith(f"{ELLIPSIS}/") for cut in cuts.values())


def test_five_thousand_rows_are_cut_in_linear_time() -> None:
    paths = frozenset(RUN.format(run, f"mnt-{disk}") for run in range(1000) for disk in range(5))
    start = time.perf_counter()
    cuts = fit_paths(paths, 26)
    assert time.perf_counter() - start < 2.0
    assert len(set(cuts.values())) == len(paths)
    start = time.perf_counter()
    assert fit_paths(paths, 26) is cuts  # cut once per set and width, not once per repaint
    assert time.perf_counter() - start < 0.01


def _twins(tmp_path: Path) -> Root:
    """captured-loops with its ext4 and GPT loops mounted at twin paths that differ in one middle folder."""
    root = tmp_path / "twins"
    shutil.copytree(FIXTURES / "captured-loops", root, symlinks=True)
    moved = {"/tmp/diskdoctor-fixture-gobvbu_1/mnt-ext4-discard": RUN.format(1157, "mnt-ext4-discard"),
             "/tmp/diskdoctor-fixture-gobvbu_1/mnt-gpt-p1": RUN.format(1158, "mnt-ext4-discard")}
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            text = path.read_bytes()
            changed = text
            for old, new in moved.items():
                changed = changed.replace(old.encode(), new.encode())
            if changed != text:
                path.write_bytes(changed)
    return Root(str(root), live=False)


@pytest.mark.parametrize("key", ["1", "2"])
async def test_twin_mountpoints_read_apart_on_stack_and_trim_at_80x24(tmp_path: Path, key: str) -> None:
    app = DiskDoctorApp(_twins(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.app.workers.wait_for_complete()
        await pilot.press(key)
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.pause()
        lines = [strip.text for strip in app.screen._compositor.render_strips()]
        cells = [word for line in lines for word in line.split() if word.endswith("/mnt-ext4-discard")]
        # before: `…/loops0/mnt-ext4-discard` twice
        assert len(cells) == 2 and cells[0] != cells[1], "\n".join(lines)
        assert {cell.split("/")[1][-1] for cell in cells} == {"7", "8"}, cells  # pytest-1157, pytest-1158


def test_trim_headings_give_way_so_twins_keep_their_folder_whole() -> None:
    from diskdoctor.app.tui.trim_screen import COLUMNS, HEADING_CHOICES, TIMER_COLUMNS, headings_and_room

    twins = [(RUN.format(run, "mnt-ext4-discard"), "ext4", "unscheduled", "off", "none", "1")
             for run in (1157, 1158)]
    # whole headings leave 25 cells: `…/py…7/…/mnt-ext4-discard`; the short ones free the folder whole
    labels, room = headings_and_room(twins, 80)
    assert labels == TIMER_COLUMNS, labels
    cuts = fit_paths(frozenset(row[0] for row in twins), room)
    assert "/pytest-1157/" in cuts[twins[0][0]] and "/pytest-1158/" in cuts[twins[1][0]], cuts
    assert HEADING_CHOICES == (COLUMNS, TIMER_COLUMNS)  # never `Periodic trim` beside `Warn` (#13d)


def test_runs_on_twin_directories_read_apart_in_the_runs_list() -> None:
    import dataclasses

    from diskdoctor.app.tui.runs_targets import target_cells
    from diskdoctor.probes.wal_target import Target
    from support.runs_support import STACK, saved_run

    runs = []
    for index, run_id in enumerate((1157, 1158)):
        directory = RUN.format(run_id, "mnt-xfs")
        target = Target(directory, directory, "xfs", "loop2", ("loop2",))
        run = saved_run(20 + index, slow_ms=2.0)
        runs.append(dataclasses.replace(run, stack=dataclasses.replace(STACK, target=target),
                                        record=dataclasses.replace(run.record, target=target)))
    for width in range(28, 60):
        cells = target_cells(runs, width)
        assert cells[0] != cells[1] and all(cell_len(cell) <= width for cell in cells), (width, cells)
    assert target_cells(runs, 32) == ["…/pytest-1157/…/mnt-xfs (xfs)", "…/pytest-1158/…/mnt-xfs (xfs)"]


def test_monitor_sorted_rows_keep_the_folder_that_tells_twin_mountpoints_apart() -> None:
    from diskdoctor.app.tui.monitor_screen import sorted_cell
    from diskdoctor.probes.io_monitor import LayerSample, MonitorRow

    twins = {name: (RUN.format(run, "mnt-ext4-discard"),) for name, run in (("loop1", 1157), ("loop5", 1158))}
    among = frozenset(mounts[0] for mounts in twins.values())
    layers = {name: LayerSample(MonitorRow(name, name, "loop", 0), None, None) for name in twins}
    cells = {sorted_cell(layers[name], mounts, 40, "", among).plain for name, mounts in twins.items()}
    assert cells == {"loop1 …/pytest-1157/…/mnt-ext4-discard",
                     "loop5 …/pytest-1158/…/mnt-ext4-discard"}, cells


def test_five_thousand_twins_whose_telling_folder_is_cut_stay_apart_and_fast() -> None:
    """One group of 5,000 clashing cuts (`…/mnt` each): a kept folder cut to its telling end, not searched
    against every rival (27 s before `MANY_RIVALS`)."""
    paths = frozenset(f"/srv/disk{index}/mnt" for index in range(5000))
    start = time.perf_counter()
    cuts = fit_paths(paths, 12)
    assert time.perf_counter() - start < 3.0
    assert len(set(cuts.values())) == len(paths) and cuts["/srv/disk1234/mnt"] == "…/…k1234/mnt", cuts
