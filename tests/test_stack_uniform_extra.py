"""An extra column every row reads the same in (`yes`, `none`) cuts no mountpoint or name to be shown: at 80
columns ROTA and SCHED kept their cells while MOUNTPOINTS was cut (newuser23 #12); it is listed as hidden
and the details still say it."""

from __future__ import annotations

import pytest
from diskdoctor.widgets.stack_tree import EXTRA_HEADINGS, ColumnWidths, StackRow, row_label

MOUNTS = ("/var/lib/containers/storage/overlay", "/srv/postgres/data/pg_wal", "/home", "/boot/efi")


def widths(sched: tuple[str, ...]) -> ColumnWidths:
    seen = ColumnWidths()
    for index, mounts in enumerate(MOUNTS):
        row = StackRow(key=f"k{index}", name=f"nvme0n1p{index + 1}", kind="part", size="100G", trim="yes",
                       fstype="ext4", mounts=mounts, has_children=False,
                       extra=("yes", sched[index % len(sched)], "2T", "512B"))
        seen.see(row, 1)
    return seen


@pytest.mark.parametrize("width", [66, 70, 74, 77])
def test_uniform_rota_and_sched_cut_no_mountpoint(width: int) -> None:
    seen = widths(("none",))
    fitted = seen.fitted(width)
    if fitted.shown_extra:  # shown only where every mountpoint stays whole
        assert fitted.mounts == seen.mounts and fitted.name == seen.name, fitted
    else:
        assert EXTRA_HEADINGS[fitted.shown_extra:][:2] == ("ROTA", "SCHED")  # listed as hidden
    labels = []
    for index, mounts in enumerate(MOUNTS):
        row = StackRow(key=f"k{index}", name=f"nvme0n1p{index + 1}", kind="part", size="100G", trim="yes",
                       fstype="ext4", mounts=mounts, has_children=False, extra=("yes", "none", "2T", "512B"))
        labels.append(row_label(row, 1, fitted).plain)
    assert sum(mounts in label for mounts, label in zip(MOUNTS, labels, strict=True)) >= 3, labels


def test_a_column_that_tells_rows_apart_may_still_cut_a_mountpoint() -> None:
    seen = widths(("none", "mq-deadline"))
    assert seen.fitted(70).shown_extra == 2
    assert seen.fitted(70).mounts < seen.mounts


def test_a_same_valued_column_before_one_that_varies_gives_its_cells_to_the_mountpoints() -> None:
    """newuser24 #12: at 80 live, ROTA (`yes` on every loop) kept 5 cells beside SCHED while mountpoints were
    cut twice; only a same-valued column at the end was dropped. Now one is dropped wherever it is among the
    extra columns shown with a cut, and listed hidden."""
    seen = widths(("none", "mq-deadline"))  # ROTA the same on every row, SCHED varies
    plain = seen.fitted(70)
    assert plain.shown_extra == 2 and plain.skipped == (0,), plain
    assert plain.shown_indexes() == [1]
    assert plain.mounts == 70 - (seen.natural(2) - seen.mounts) + 5  # ROTA's 5 cells go to MOUNTPOINTS
    row = StackRow(key="k0", name="nvme0n1p1", kind="part", size="100G", trim="yes", fstype="ext4",
                   mounts=MOUNTS[0], has_children=False, extra=("yes", "mq-deadline", "2T", "512B"))
    label = row_label(row, 1, plain).plain
    assert "mq-deadline" in label and not label.rstrip().endswith("yes") and " yes " not in label[-20:], label
    assert len(label) <= 70, label
