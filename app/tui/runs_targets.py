"""The Runs list's target column: one format on every row, its parts dropped in one order as it narrows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from diskdoctor.widgets.fit_text import ELLIPSIS, fit_paths, path_ellipsis
from rich.cells import cell_len

from ..base.filesystem_words import filesystem_on

if TYPE_CHECKING:
    from ..core.runs.record import SavedRun


def several_hosts(runs: list[SavedRun]) -> bool:
    """Whether the runs come from more than one host: only then does each target name its host (as the
    kind column shows only where the runs differ in kind); one host's name is in each run's details."""
    return len({run.host.hostname or "?" for run in runs}) > 1


def target_forms(run: SavedRun, hosts: bool) -> tuple[str, ...]:
    """The target from shortest to whole: "/mnt/x (xfs)", "/mnt/x (xfs on sdb1)" ("/dev/shm (tmpfs: in
    memory)" where no disk is under it), then with its host ("… on etcd-2") when `hosts`."""
    target = run.stack.target
    shortest = f"{target.directory} ({target.fstype})"
    with_device = f"{target.directory} ({filesystem_on(target.fstype, target.device, short=True)})"
    return (shortest, with_device, *([f"{with_device} on {run.host.hostname or '?'}"] if hosts else []))


def target_level(runs: list[SavedRun], width: int, hosts: bool) -> int:
    """The longest form (an index into `target_forms`) that every run's target fits in `width` cells: each
    row then says the same parts (the host goes first, then the device), never one row more than another."""
    levels = len(target_forms(runs[0], hosts)) if runs else 1
    return next((level for level in range(levels - 1, 0, -1)
                 if all(cell_len(target_forms(run, hosts)[level]) <= width for run in runs)), 0)


def target_cell(run: SavedRun, width: int, level: int, hosts: bool,
                among: frozenset[str] = frozenset()) -> str:
    """The run's target in the form `level` (see target_level), cut where it does not fit: its directory
    in the middle at a "/" ("/var/…/mnt-xfs (xfs)"), keeping what tells it from the other runs' directories
    `among` (`fit_paths`: "…/pytest-1157/…/mnt (xfs)" beside "…/pytest-1158/…/mnt (xfs)"), its filesystem
    type whole."""
    text = target_forms(run, hosts)[level]
    if cell_len(text) <= width:
        return text
    suffix = f" ({run.stack.target.fstype})"
    directory, room = run.stack.target.directory, max(width - cell_len(suffix), 1)
    return (fit_paths(among, room).get(directory) or path_ellipsis(directory, room)) + suffix


def target_cells(runs: list[SavedRun], width: int) -> list[str]:
    """Every run's target in `width` cells, all in one form."""
    hosts = several_hosts(runs)
    level = target_level(runs, width, hosts)
    among = frozenset(run.stack.target.directory for run in runs)  # cut once per width for all rows
    return [target_cell(run, width, level, hosts, among) for run in runs]


def least_target_cell(run: SavedRun) -> str:
    """The shortest the target is cut to: its last component and filesystem type ("…/mnt-xfs (xfs)")."""
    directory, fstype = run.stack.target.directory, run.stack.target.fstype
    last = directory.rstrip("/").rsplit("/", 1)[-1]
    return f"{directory if last == directory else ELLIPSIS + '/' + last} ({fstype})"
