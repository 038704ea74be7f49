"""How the Advice list's rows fit the room they have: the Finding and Subjects widths from what the rows
hold, and a second line for a row whose title or subjects would be cut while the list has lines to spare."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from diskdoctor.widgets.fit_text import (
    ELLIPSIS,
    LEAST_LAST_CELLS,
    fit_end,
    fit_path,
    keeps_last_component,
    last_component,
)
from diskdoctor.widgets.wrap_text import break_offsets
from rich.cells import cell_len

ROW_LINES = 2
"""A row never takes more lines than this: the list stays a list (the card shows everything whole)."""


@dataclass(frozen=True)
class RowPlan:
    """The Finding and Subjects widths and each row's lines."""

    title: int
    subjects: int
    heights: tuple[int, ...]
    subjects_wrap: bool = True
    """Whether a Subjects cell goes on on a second line: only when every row's subjects are then whole."""


@lru_cache(maxsize=8192)
def title_lines(text: str, width: int) -> int:
    """Lines `text` takes wrapped between words in `width` cells (a figure never split from its unit)."""
    if cell_len(text) <= width:
        return 1
    return len(break_offsets(text, max(width, 1))) + 1


LONG_WORD_CELLS = 16
"""A name or path in a title longer than this (and than half its column) may be cut in the middle."""


@lru_cache(maxsize=8192)
def title_cut(text: str, width: int, lines: int) -> int:
    """About the cells of `text` cut away in `lines` lines of `width` cells (as wrapped_title draws it): 0
    when it is whole, else at least 1, counted from where its last line starts (a title wrapped between
    words into a third line is cut though its length is under `lines` times `width`)."""
    if title_lines(text, width) <= lines:
        return 0
    rest = text if lines < 2 else text[break_offsets(text, max(width, 1))[0]:].strip()
    return max(cell_len(rest) - max(width - 1, 0), 1)


@lru_cache(maxsize=8192)
def short_names(text: str, width: int, lines: int) -> str:
    """`text` with its long paths, then its long names, cut in the middle until it fits `lines` lines of
    `width` cells: a path to half the column, then to LONG_WORD_CELLS (the subject column names it too),
    a name to half the column. A title's first line then reads "BLOCKED at luks-elastics…volume-01
    (dm-crypt without", not "BLOCKED at" with the name wrapped away and then cut off whole. Where even that
    does not fit, the paths stay whole: the title's end is cut, and a path cut as well read
    "…/newuser…4mnt's…" (newuser19)."""
    half = max(width // 2, LONG_WORD_CELLS)
    words = text.split(" ")
    longest = sorted(range(len(words)), key=lambda index: -cell_len(words[index]))
    paths = [index for index in longest if words[index].lstrip("('\"").startswith("/")]
    names = [index for index in longest if index not in paths]
    steps = [*((i, half) for i in paths), *((i, LONG_WORD_CELLS) for i in paths), *((i, half) for i in names)]
    whole = list(words)
    for index, room in steps:
        if title_lines(" ".join(words), width) <= lines:
            break
        if cell_len(words[index]) > room:
            words[index] = fit_path(whole[index], room)  # cut once, from the whole word
    if title_lines(" ".join(words), width) > lines:  # its end is cut anyway: paths whole for `fit_title`
        words = [whole[index] if index in paths else word for index, word in enumerate(words)]
    return " ".join(words)


def wrapped_title(text: str, width: int, lines: int, cut: Callable[[str, int], str]) -> str:
    """`text` in at most `lines` lines of `width` cells ("\\n" between them), its long names cut in the
    middle where it would not fit (short_names), the last line cut by `cut(text, width)` when the rest
    does not fit."""
    text = short_names(text, width, max(lines, 1))
    if lines < 2 or cell_len(text) <= width:
        return cut(text, width)
    offsets = break_offsets(text, max(width, 1))
    first = text[: offsets[0]].rstrip()
    rest = text[offsets[0]:].strip()
    return f"{first}\n{cut(rest, width)}"


@lru_cache(maxsize=8192)
def subject_lines(subjects: tuple[str, ...], width: int, lines: int,
                  singles: frozenset[str] = frozenset()) -> tuple[tuple[str, ...], int]:
    """A row's subjects in at most `lines` lines of `width` cells, and how many are shown whole: one subject
    cut at a "/" where it does not fit (`fit_path`, keeping what tells it apart from `singles`: the
    column's other subjects); several as "N: first, second", the list going on on the next line, else
    with whole subjects left out ("N: /, /tmp/x, … +2", `_dropped`); a long path goes on after a "/" where
    a second line holds the rest."""
    if width < 1:
        return ("",), 0
    if len(subjects) == 1:
        text = subjects[0]
        if cell_len(text) <= width:
            return (text,), 1
        wrapped = wrap_at_slashes(text, width) if lines > 1 else []
        if 1 < len(wrapped) <= lines:  # a long path goes on after a "/"
            return tuple(wrapped), 1
        return (subject_cut(text, width, singles),), 0
    words = [f"{subject}," for subject in subjects[:-1]] + [subjects[-1]]
    words[0] = f"{len(subjects)}: {words[0]}"
    packed = _pack(words, width)
    if packed is not None and len(packed) <= lines:
        return tuple(packed), len(words)
    wrapped = wrap_at_slashes(" ".join(words), width) if lines > 1 else []
    if 1 < len(wrapped) <= lines and all(cell_len(line) <= width for line in wrapped):
        return tuple(wrapped), len(words)  # a long path goes on after a "/"
    return _dropped(subjects, width, lines, singles)


def _dropped(subjects: tuple[str, ...], width: int, lines: int,
             others: frozenset[str]) -> tuple[tuple[str, ...], int]:
    """A merged list that does not fit, cut by leaving out whole subjects from its end ("4: /,
    /tmp/newuser20-tmpfs, … +2"), in the card's order at every width (newuser22 #12: shortest first at 120,
    alphabetical at 200), each one shown whole or not at all (newuser20 #2: `…/newuser…ext4mnt` cut in its
    name); where no subject fits whole, the first one cut by `fit_path` (keeping what tells it from
    `others`) with its last component whole, else only the count in the same form ("2: … +2", newuser22 #1:
    `2 subjects: …` below `2: /, … +1`): the card names them all."""
    count = len(subjects)
    for shown in range(count - 1, 0, -1):
        words = [f"{subject}," for subject in subjects[:shown]]
        words[0] = f"{count}: {words[0]}"
        packed = _pack([*words, f"{ELLIPSIS} +{count - shown}"], width)
        if packed is not None and len(packed) <= lines:
            return tuple(packed), shown
    head, tail = f"{count}: ", f", {ELLIPSIS} +{count - 1}"
    room = width - cell_len(head) - cell_len(tail)
    cut = fit_path(subjects[0], room, others, whole_folders=True) if room >= LEAST_SUBJECT_CUT else ""
    if cut and keeps_last_component(subjects[0], cut):  # the first cut at a "/" like every path, the rest
        return (f"{head}{cut}{tail}",), 0                # counted
    named = _one_named(subjects, width, others)
    if named:
        return (named,), 0
    room = width - cell_len(head)
    cut = fit_path(subjects[0], room, others, whole_folders=True) if room >= LEAST_LAST_CELLS + 2 else ""
    if cut and keeps_last_component(subjects[0], cut):  # the count kept, the first cut at a "/" (newuser18)
        return (f"{head}{cut}",), 0
    counted = f"{count}: {ELLIPSIS} +{count}"  # no name cut inside (newuser21 #9: `2: …/pg_wa…very, … +1`)
    return (counted if cell_len(counted) <= width else fit_end(f"{ELLIPSIS} +{count}", width),), 0


def _one_named(subjects: tuple[str, ...], width: int, others: frozenset[str]) -> str:
    """"N: …/name +k": the first subject (in the card's order) whose cut at a "/" keeps its last component
    whole in `width` cells, the others counted ("" when none fits): a cell never names none of its subjects
    (newuser23 #5: `2: … +2` read as four)."""
    head, tail = f"{len(subjects)}: ", f" +{len(subjects) - 1}"
    room = width - cell_len(head) - cell_len(tail)
    for subject in subjects:
        cut = fit_path(subject, room, others, whole_folders=True) if room > 0 else ""
        if cut and keeps_last_component(subject, cut):
            return f"{head}{cut}{tail}"
    if others & frozenset(subjects):  # "+1" tells it from its own row's others (newuser24 #7: two mounts)
        return _one_named(subjects, width, others - frozenset(subjects))
    return ""


def one_named_cells(subjects: Sequence[str]) -> int:
    """The fewest cells a merged Subjects cell needs to name one subject by its last component whole
    ("2: …/mount +1"); what the planner leaves it when a title would be cut otherwise."""
    def named(subject: str) -> int:
        return min(cell_len(subject), cell_len(last_component(subject)) + 2)  # whole, or "…/name"

    return cell_len(f"{len(subjects)}:  +{len(subjects) - 1}") + min(map(named, subjects))


def subject_cut(text: str, width: int, singles: frozenset[str]) -> str:
    """A single subject in `width` cells, cut by the one rule for paths (`fit_path`: at a "/"), keeping
    what tells it apart from the other `singles` where two would read the same."""
    return fit_path(text, width, singles)


LEAST_SUBJECT_CUT = 12
"""A subject of a list is cut in its middle to no fewer cells than this ("/srv/…/recovery")."""


def _pack(words: list[str], width: int) -> list[str] | None:
    """`words` in lines of `width` cells, a space between; None when one word is wider than a line."""
    lines: list[str] = []
    for word in words:
        if cell_len(word) > width:
            return None
        if lines and cell_len(lines[-1]) + 1 + cell_len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def plan_rows(titles: Sequence[str], subjects: Sequence[Sequence[str]], room: int, least_subjects: int,
              spare_lines: int, least_title: int, header: int = 0) -> RowPlan:
    """Widths for the Finding and Subjects columns sharing `room` cells (Subjects never under
    `least_subjects`) and each row's lines: a second line for every row that wants one when `spare_lines`
    hold them all, else none (a column never mixes wrapped rows with rows cut "…"). Of the widths tried,
    the one with the least of the titles cut away (a path the row's Subjects cell shows counts short:
    named_elsewhere), then of single subjects, then the fewest subjects of merged rows hidden, then the
    fewest second lines, then the fewest Subjects cells on two lines (a title wraps before a short list of
    subjects does: newuser16 #2): a title wider than its column, or a merged list, goes on a second line
    where the list has lines to spare, and the blank columns go to whichever column is cut (Subjects never
    under `header` cells). Where `least_subjects` leaves a title cut and a narrower Subjects column
    (its paths cut to "…/name", `_least_cut`) keeps every title whole, that one (newuser20 #2: a title
    ending "…" at 200 beside a long single path)."""
    apart = _least_apart(subjects, least_subjects)  # two cut paths never read the same where cells allow
    if apart < max((cell_len(row[0]) for row in subjects if len(row) == 1), default=0) and apart < room // 2:
        least_subjects = apart
    plan = _planned(titles, subjects, room, least_subjects, spare_lines, least_title, header)
    least = _least_apart(subjects, max([header, *(_least_cut(tuple(row)) for row in subjects)]))
    if least >= least_subjects or not _cuts_a_title(titles, subjects, plan):
        return plan
    cut = _planned(titles, subjects, room, least, spare_lines, least_title, header)
    return plan if _cuts_a_title(titles, subjects, cut) else cut  # titles whole where the room allows


def _least_cut(row: tuple[str, ...]) -> int:
    """The fewest cells a Subjects cell is cut to so that titles fit whole: a single path's "…/last" (its
    name, `fit_path`), a merged list's "N: … +N"; the card names every subject whole."""
    if len(row) > 1:  # one subject named by its last component (newuser23 #5)
        return one_named_cells(row)
    last = row[0].rstrip("/").rsplit("/", 1)[-1] if row else ""
    return min(cell_len(row[0]) if row else 0, max(cell_len(last) + 2, LEAST_SUBJECT_CUT))


def _least_apart(subjects: Sequence[Sequence[str]], least: int) -> int:
    """`least`, or more where single subjects cut to it would read the same (`fit_path` keeps the ends that
    tell them apart where it can: two pytest mounts differing in their middle need more cells)."""
    singles = sorted({row[0] for row in subjects if len(row) == 1})
    others = frozenset(subject for row in subjects for subject in row)
    widest = max((cell_len(subject) for subject in singles), default=least)
    for width in range(least, widest):
        cuts = [fit_path(subject, width, others) for subject in singles]
        if len(set(cuts)) == len(cuts):
            return width
    return max(least, widest)


def _cuts_a_title(titles: Sequence[str], subjects: Sequence[Sequence[str]], plan: RowPlan) -> bool:
    """Whether `plan` cuts a title (beyond a path the row's Subjects cell names)."""
    return any(title_cut(named_elsewhere(title, tuple(row)), plan.title, lines)
               for title, row, lines in zip(titles, subjects, plan.heights, strict=True))


def _planned(titles: Sequence[str], subjects: Sequence[Sequence[str]], room: int, least_subjects: int,
             spare_lines: int, least_title: int, header: int) -> RowPlan:
    """The best plan with the Subjects column never under `least_subjects` cells."""
    longest = max((cell_len(title) for title in titles), default=least_title)
    high = max(min(longest, room - least_subjects), 1)
    low = max(min(least_title, high), 1)
    best: tuple[tuple[int, ...], RowPlan] | None = None
    for width in range(high, low - 1, -1):
        plan, score = _try(titles, subjects, width, room - width, spare_lines)
        if best is None or score < best[0]:
            best = (score, plan)
    assert best is not None
    plan = _narrowed(titles, subjects, room, spare_lines, *best)
    return _subjects_narrowed(titles, subjects, room, spare_lines, plan, header)


def _subjects_narrowed(titles: Sequence[str], subjects: Sequence[Sequence[str]], room: int, spare_lines: int,
                       plan: RowPlan, header: int) -> RowPlan:
    """`plan` with the Subjects column no wider than its widest drawn line and the cells it leaves to the
    Finding column, where a title is cut (newuser20 #2: a column sized for a list that is cut anyway, beside
    titles ending "…"); the subjects read the same."""
    if not _cuts_a_title(titles, subjects, plan):
        return plan
    others = frozenset(subject for row in subjects for subject in row)
    drawn = max((cell_len(line) for row, lines in zip(subjects, plan.heights, strict=True)
                 for line in subject_lines(tuple(row), plan.subjects, lines if plan.subjects_wrap else 1,
                                           others)[0]), default=plan.subjects)
    drawn = max(drawn, header)
    if drawn >= plan.subjects:
        return plan
    _, score = _try(titles, subjects, plan.title, plan.subjects, spare_lines)
    wider, wider_score = _try(titles, subjects, room - drawn, drawn, spare_lines)
    return wider if wider_score[:3] <= score[:3] else plan


def _narrowed(titles: Sequence[str], subjects: Sequence[Sequence[str]], room: int, spare_lines: int,
              score: tuple[int, ...], plan: RowPlan) -> RowPlan:
    """`plan` with the Finding column as wide as its widest drawn line and the cells it does not use given
    to Subjects, where every title takes as many lines and fewer cells are cut in all (a path in a title
    may be cut more where the Subjects column then shows it whole): a short title beside a wrapped one
    leaves no blank cells while a subject is cut."""
    drawn = max((cell_len(line) for title, lines in zip(titles, plan.heights, strict=True)
                 for line in wrapped_title(title, plan.title, lines, _keep).split("\n")), default=plan.title)
    if drawn >= plan.title:
        return plan
    narrow, narrow_score = _try(titles, subjects, drawn, room - drawn, spare_lines)
    weighed = [named_elsewhere(title, tuple(row)) for title, row in zip(titles, subjects, strict=True)]
    same_lines = all(title_lines(title, drawn) == title_lines(title, plan.title) for title in weighed)
    less_cut = narrow_score[0] + narrow_score[1] <= score[0] + score[1] and narrow_score[2] <= score[2]
    return narrow if same_lines and less_cut else plan


def _keep(text: str, width: int) -> str:
    return text


def _try(titles: Sequence[str], subjects: Sequence[Sequence[str]], width: int, subjects_width: int,
         spare_lines: int) -> tuple[RowPlan, tuple[int, ...]]:
    heights: list[int] = []
    titles_cut = singles_cut = hidden = subjects_wrapped = 0
    weighed = [named_elsewhere(title, tuple(row)) for title, row in zip(titles, subjects, strict=True)]
    wanted = [min(ROW_LINES, max(title_lines(title, width), _subject_needs(tuple(row), subjects_width)))
              for title, row in zip(weighed, subjects, strict=True)]
    wrap = sum(lines - 1 for lines in wanted) <= spare_lines  # one rule for the column: every row or none
    subjects_wrap = all(subject_lines(tuple(row), subjects_width, ROW_LINES)[1] == len(row)
                        for row in subjects)
    if not subjects_wrap:  # some subject is cut even on two lines: every Subjects cell is one line, cut alike
        wanted = [min(ROW_LINES, title_lines(title, width)) for title in weighed]
        wrap = sum(lines - 1 for lines in wanted) <= spare_lines
    for title, row, lines in zip(weighed, subjects, wanted if wrap else [1] * len(wanted), strict=True):
        heights.append(lines)
        titles_cut += title_cut(title, width, lines)
        drawn, shown = subject_lines(tuple(row), subjects_width, lines if subjects_wrap else 1)
        subjects_wrapped += len(drawn) > 1
        if len(row) == 1:
            singles_cut += 0 if shown else max(cell_len(row[0]) - subjects_width, 0)
        else:
            hidden += len(row) - shown
    extra = sum(heights) - len(heights)
    plan = RowPlan(width, subjects_width, tuple(heights), subjects_wrap)
    return plan, (titles_cut, singles_cut, hidden, extra, subjects_wrapped, -width)


@lru_cache(maxsize=8192)
def named_elsewhere(title: str, subjects: tuple[str, ...]) -> str:
    """`title` as the planner weighs it: a long path it shares with its Subjects cell cut to
    LONG_WORD_CELLS, since that column shows it (the title may cut it; the Finding column is sized from
    the rest of its words, and Subjects gets the room that shows the path whole)."""
    for subject in subjects:
        if subject.startswith("/") and cell_len(subject) > LONG_WORD_CELLS and subject in title:
            title = title.replace(subject, fit_path(subject, LONG_WORD_CELLS))
    return title


@lru_cache(maxsize=8192)
def _subject_needs(row: tuple[str, ...], width: int) -> int:
    """Lines a row's subjects would like: a second one only when it shows more (a merged list's subjects, a
    long path whole)."""
    return 1 + (subject_lines(row, width, 2)[1] > subject_lines(row, width, 1)[1])


LONG_PATH_CELLS = 24
"""A word this long (or longer than half the line) is a long path: it may go on after a `/` in a wrapped
line; a shorter one goes whole to the next line."""


def wrap_at_slashes(text: str, width: int) -> list[str]:
    """`text` in lines of `width` cells broken at spaces, so that a short name is never split (newuser23
    #10: `… /lab/` then `raid1, …`); only a long path (LONG_PATH_CELLS, or half the line) goes on after a
    `/` (after its last whole component), from where the line is, and inside a component only when one is
    longer than a line."""
    width = max(width, 1)
    lines, line = [], ""
    for word in (word for word in text.split(" ") if word):
        joined = f"{line} {word}" if line else word
        if cell_len(joined) <= width:
            line = joined
            continue
        if cell_len(word) <= max(width // 2, LONG_PATH_CELLS):  # a name: the whole of it on the next line
            lines.append(line)
            line = word
            continue
        line = f"{line} " if line else ""  # a long path: on after a "/", from where the line is
        for piece in (piece for piece in re.split(r"(?<=/)", word) if piece):
            if line.strip() and cell_len(line + piece) > width:
                lines.append(line.rstrip())
                line = ""
            while cell_len(piece) > width:  # one component longer than the line: cut it
                lines.append(piece[:width])
                piece = piece[width:]
            line += piece
    if line.strip():
        lines.append(line.rstrip())
    return lines or [""]
