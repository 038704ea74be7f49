"""Where a jump in a tree starts its view (newuser14 #8): the cursor's group whole with its title on top,
else its branch from the highest row that fits, never the tail of the group before on the top row."""

from __future__ import annotations

from diskdoctor.widgets.branch_scroll import branch_top

# Three groups of a tree: titles on lines 0, 5 and 9 (14 lines); the cursor's path runs title → cursor.


def test_a_group_that_fits_shows_whole_from_its_title() -> None:
    assert branch_top([5, 6, 7], 8, 8, [0, 5, 9, 6], 14, 6) == 5


def test_near_the_end_the_view_starts_on_a_title_that_keeps_the_group_whole() -> None:
    # 16 lines in 9 rows: the view scrolls to 7 at most, so the group of lines 9..12 cannot start it;
    # line 7 is the tail of the group before (5..8), so the view starts on that group's title instead
    assert branch_top([9, 10], 12, 11, [0, 5, 9, 13], 16, 9) == 5
    # no title or branch top keeps it whole: the view's lowest start (the table's end)
    assert branch_top([9, 10], 13, 11, [0, 5, 9], 14, 8) == 6


def test_a_tall_group_shows_the_branch_from_the_highest_row_that_fits() -> None:
    # a disk of 40 lines, the cursor on line 20 with two rows under it, in 8 rows: from its parent (18)
    assert branch_top([0, 3, 18, 20], 39, 22, [0, 3, 18, 20], 60, 8) == 18


def test_a_filter_keeps_the_match_in_the_upper_half() -> None:
    # the group fits whole (lines 0..12 in 20 rows) but its title is 10 rows over the match
    assert branch_top([0, 10], 12, 11, [0, 10], 40, 20) == 0
    assert branch_top([0, 10], 12, 11, [0, 10], 40, 20, above=10) == 0
    assert branch_top([0, 10], 12, 11, [0, 10], 40, 20, above=5) == 10


def test_no_cursor_or_no_rows_says_none() -> None:
    assert branch_top([], 0, 0, [], 10, 5) is None
    assert branch_top([0], 0, 0, [0], 10, 0) is None
