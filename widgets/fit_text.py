"""Fitting text into a width without losing its meaning: ellipsis in the middle, parts dropped by priority."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from os.path import commonprefix

from rich.cells import cell_len

ELLIPSIS = "…"
SEPARATOR = " · "


def middle_ellipsis(text: str, width: int) -> str:
    """`text` cut in the middle to `width` cells: "/var/lib/…/data" keeps both ends of a path.

    Paths keep their last component whole when there is room for it, since it names the place.
    """
    if width <= 0:
        return ""
    if cell_len(text) <= width:
        return text
    if width == 1:
        return ELLIPSIS
    tail_room = width - 1
    last = text.rsplit("/", 1)[-1] if "/" in text.rstrip("/") else ""
    if last and len(last) + 2 <= tail_room and len(last) < len(text) - 1:
        tail = "/" + last
        head = text[: width - 1 - len(tail)]
        return head + ELLIPSIS + tail
    head_len = (tail_room + 1) // 2
    tail_len = tail_room - head_len
    return text[:head_len] + ELLIPSIS + (text[-tail_len:] if tail_len else "")


LEAST_LAST_CELLS = 5
"""A path's last component is cut after "…/" to no fewer cells than this; narrower, the path is cut in its
middle."""


LEAST_FRAGMENT = 5
"""Cells of a dropped folder's end shown after the "…" (fewer, as "…2a3/mount", read as noise, not a name);
the cut starts at the next whole folder instead ("…/volumes")."""


def path_ellipsis(path: str, width: int, *, whole_folders: bool = False) -> str:
    """`path` cut to `width` cells with one ellipsis: its last component (the place's own name) whole, as
    many whole folders from the start as fit, then "…" and as much of the END of the dropped middle as the
    room left holds, cut inside a folder where it must be ("/var/lib/kubelet/pods/…c1f2d4e5f60/volumes/
    kubernetes.io~csi/pvc-0c1d/mount": no room thrown away; a piece under `LEAST_FRAGMENT` cells is left
    out, "…/volumes"; with `whole_folders`, every piece of a folder is, as Advice names). A last component
    too long for the width is cut in its middle after "…/" ("…/pg_wal_ar…recovery"), as `fit_path` does;
    narrower, the path is."""
    if width <= 0 or cell_len(path) <= width or cell_len(path) != len(path):
        return middle_ellipsis(path, width)
    parts = path.rstrip("/").split("/")
    if path.startswith("/") and len(parts) > 1:
        parts[0:2] = ["/" + parts[1]]  # the root's "/" goes with the top folder: "/var"
    if len(parts) < 2:
        return middle_ellipsis(path, width)
    if len(parts[-1]) + 2 > width:
        if width < LEAST_LAST_CELLS + 2:
            return middle_ellipsis(path, width)
        return f"{ELLIPSIS}/{middle_ellipsis(parts[-1], width - 2)}"
    inner, last = parts[:-1], parts[-1]
    head: list[str] = []
    while len(head) < len(inner) - 1 and len("/".join([*head, inner[len(head)]])) + 3 + len(last) <= width:
        head.append(inner[len(head)])
    shown = "/".join(head) + "/" if head else ""
    room = width - len(shown) - 2 - len(last)  # cells after "…" for the dropped middle's end
    middle = "/".join(inner[len(head):])
    piece = middle[len(middle) - room:] if room > 0 else ""
    if piece and not piece.startswith("/") and (len(piece) == len(middle) or middle[-len(piece) - 1] == "/"):
        piece = piece[1:]  # a whole folder right after "…" reads as cut ("…loops0"): say it is ("…oops0")
    fragment = piece.split("/", 1)[0]
    if fragment and (whole_folders or len(fragment) < LEAST_FRAGMENT):
        piece = piece[len(fragment):]  # "…/volumes", not "…s/volumes"
    return f"{shown}{ELLIPSIS}{piece}/{last}"


@lru_cache(maxsize=8192)  # drawn again on every repaint of a row; a column's paths rarely change
def last_component(path: str) -> str:
    """A path's last component ("recovery" of "/srv/…/recovery/"): what names the place."""
    return path.rstrip("/").rsplit("/", 1)[-1]


def keeps_last_component(path: str, cut: str) -> bool:
    """Whether `cut` shows `path`'s last component whole (a cut inside a name is the last resort)."""
    return cut.endswith(last_component(path))


def fit_path(path: str, width: int, others: frozenset[str] = frozenset(), *,
             whole_folders: bool = False) -> str:
    """The one rule for a path in `width` cells: whole when it fits; else the first folders and the last
    component whole, the middle dropped as one "…" with as much of its end as the room holds
    ("/srv/postgresql/…16/main/pg_wal", `path_ellipsis`; with `whole_folders`, no folder cut inside:
    "/srv/postgresql/…/main/pg_wal"); only when even the last component does not fit is it cut inside, in its
    middle after "…/" ("…/pg_wal_ar…recovery"). Shown beside `others`, the cut keeps what tells it from theirs
    (`fit_paths` with its folders whole, as Advice sizes its column by; a list of rows should call that once
    for all of them). Other text: its middle."""
    if others or whole_folders:
        return fit_paths(others | {path}, width, whole_folders=True, inside=not whole_folders)[path]
    if width <= 0 or cell_len(path) <= width:
        return middle_ellipsis(path, width)
    last = path.rstrip("/").rsplit("/", 1)[-1]
    if (not path.startswith("/") or cell_len(path) != len(path) or not last or last == path.strip("/")
            or (len(last) + 2 > width and width < LEAST_LAST_CELLS + 2)):
        return middle_ellipsis(path, width)  # not a path, one folder, or too narrow: its middle
    if len(last) + 2 > width:
        return f"{ELLIPSIS}/{middle_ellipsis(last, width - 2)}"
    return path_ellipsis(path, width)


LEAST_KEPT_CELLS = 4
"""A folder kept because it tells paths apart is cut in its middle to no fewer cells than this ("py…7")."""

MANY_RIVALS = 32
"""Above this many values in one place, a cut keeps the end ("…1157") instead of searching for the cut that
tells it from each (`distinct_cut` compares with every rival: 5,000 loop mounts were 27 s)."""


@lru_cache(maxsize=64)  # one column of a group, asked once per member
def _common_ends(rivals: frozenset[str]) -> tuple[int, int]:
    """How many characters all `rivals` share at their start and at their end."""
    return len(commonprefix(list(rivals))), len(commonprefix([rival[::-1] for rival in rivals]))


def _apart_cut(text: str, cells: int, rivals: frozenset[str]) -> str:
    """`text` cut to `cells` keeping what tells it from `rivals`: `distinct_cut`; among many, the end or the
    start that holds all of what differs between them ("…k1234/" of "disk1234"), else its middle."""
    if len(rivals) <= MANY_RIVALS or cells < 2 or cell_len(text) != len(text) or len(text) <= cells:
        return distinct_cut(text, cells, rivals)
    start, same_end = _common_ends(rivals)
    end = len(text) - min(same_end, len(text) - start)
    if len(text) - start <= cells - 1:  # what differs is in the end: "…k1234"
        return ELLIPSIS + text[len(text) - (cells - 1):]
    if end <= cells - 1:  # in the start: "volume-0123…"
        return text[:cells - 1] + ELLIPSIS
    return middle_ellipsis(text, cells)


def _one_path(path: str, width: int, whole_folders: bool) -> str:
    """`fit_path` of one path alone (with `whole_folders`, no folder cut inside)."""
    if not whole_folders or width <= 0 or cell_len(path) <= width:
        return fit_path(path, width)
    last = last_component(path)
    if (not path.startswith("/") or cell_len(path) != len(path) or not last or last == path.strip("/")
            or len(last) + 2 > width):
        return fit_path(path, width)
    return path_ellipsis(path, width, whole_folders=True)


@lru_cache(maxsize=256)  # rows are drawn again on every repaint and scroll: cut once per set and width
def fit_paths(paths: frozenset[str], width: int, *, whole_folders: bool = False,
              inside: bool = True) -> Mapping[str, str]:
    """Every path of a set shown together (a column's rows) cut to `width` cells by `fit_path`, except where
    two or more would read the same: those keep the folders in which they differ, the others dropped as "…"
    ("…/pytest-1157/…/mnt-gpt-p1" beside "…/pytest-1158/…/mnt-gpt-p1", as many whole folders from the start
    and end as fit), such a folder or the last component cut in its middle where it must be, keeping the end
    that tells it apart (`distinct_cut`; with `whole_folders`, a folder is kept whole or the one-path cut
    stands; without `inside`, no folder is cut inside even in the one-path cut). Linear in the rows: only
    rows whose cuts clash are looked at again."""
    cuts = {path: _one_path(path, width, not inside) for path in paths}
    alike: dict[str, list[str]] = {}
    for path, cut in cuts.items():
        alike.setdefault(cut, []).append(path)
    taken = set(cuts.values())
    for cut, group in alike.items():
        if len(group) < 2:
            continue
        apart = _told_apart(sorted(group), width, whole_folders, inside)
        shown = set(apart.values())
        if len(shown) == len(group) and not shown & (taken - {cut}):
            cuts.update(apart)
            taken |= shown
    return cuts


def _parts(path: str) -> list[str]:
    """A path's components, the root's "/" with the top folder ("/var", "lib", "x")."""
    parts = path.rstrip("/").split("/")
    parts[0:2] = ["/" + parts[1]]
    return parts


def _told_apart(group: list[str], width: int, whole_folders: bool, inside: bool = True) -> dict[str, str]:
    """Paths whose cuts read the same, each cut to `width` keeping the folders (and last component) in which
    the group differs; text that is not a path is cut in its middle keeping the end that tells it apart."""
    rivals = frozenset(group)
    paths = [path for path in group if path.startswith("/") and path.strip("/") and " " not in path
             and cell_len(path) == len(path)]
    cuts = {path: _apart_cut(path, width, rivals) for path in group if path not in paths}
    split = {path: _parts(path) for path in paths}
    depth = max((len(parts) - 1 for parts in split.values()), default=0)
    columns = [frozenset(parts[at] if at < len(parts) - 1 else "" for parts in split.values())
               for at in range(depth)]
    lasts = frozenset(parts[-1] for parts in split.values())
    differ = [at for at, column in enumerate(columns) if len(column) > 1]
    for path, parts in split.items():
        least = len(path) if whole_folders else LEAST_KEPT_CELLS
        cut = _keeping(parts, differ, columns, lasts, width, least)
        cuts[path] = cut if cut is not None else _one_path(path, width, not inside)
    return cuts


def _keeping(parts: list[str], differ: list[int], columns: list[frozenset[str]], lasts: frozenset[str],
             width: int, least: int) -> str | None:
    """`parts` drawn in `width` cells with its folders at `differ` and its last component kept (cut in their
    middle, a folder to no fewer than `least` cells, against the others' in `columns`/`lasts`, where they
    must be), whole folders from the start and the end added where room is left; None where even the cut
    forms do not fit."""
    inner = parts[:-1]
    shown = {at: inner[at] for at in differ if at < len(inner) and inner[at]}
    last = parts[-1]

    def drawn(kept: dict[int, str], end: str) -> str:
        pieces: list[str] = []
        for at in range(len(inner)):
            if at in kept:
                pieces.append(kept[at])
            elif not pieces or pieces[-1] != ELLIPSIS:
                pieces.append(ELLIPSIS)
        return "/".join([*pieces, end])

    for at in sorted(shown, key=lambda at: -len(shown[at])):  # the longest kept folder gives way first
        over = len(drawn(shown, last)) - width
        if over <= 0:
            break
        cells = max(least, len(shown[at]) - over)
        if cells < len(shown[at]):
            shown[at] = _apart_cut(inner[at], cells, columns[at])
    over = len(drawn(shown, last)) - width
    if over > 0 and len(last) - over >= LEAST_LAST_CELLS:
        last = _apart_cut(last, len(last) - over, lasts)
    if len(drawn(shown, last)) > width:
        return None
    for order in (range(len(inner)), range(len(inner) - 1, -1, -1)):  # whole folders from the start, the end
        for at in order:
            if at in shown:
                continue
            more = {**shown, at: inner[at]}
            if len(drawn(more, last)) > width:
                break
            shown = more
    return drawn(shown, last)


def labelled_path_ellipsis(text: str, width: int) -> str:
    """A path with a note after it ("/srv/…/pg_wal_archive (ext4)") cut as `path_ellipsis` cuts the path,
    the note kept whole; other text is cut in its middle."""
    found = re.fullmatch(r"(/[^,]*?)( \([^()/]*\))?", text)
    if found is None or cell_len(text) <= width:
        return middle_ellipsis(text, width)
    note = found[2] or ""
    if cell_len(note) + 3 > width:
        return middle_ellipsis(text, width)
    return path_ellipsis(found[1], width - cell_len(note)) + note


Part = tuple[str | tuple[str, ...], int]
"""A status part: its text, or its forms longest first ("+4 hidden: ROTA, SCHED, …", "+4 hidden"), and its
priority (0 is highest)."""


def part_text(part: Part) -> str:
    """A part's longest form."""
    text = part[0]
    return text[0] if isinstance(text, tuple) else text


def fit_parts(parts: Sequence[Part], width: int, separator: str = SEPARATOR) -> str:
    """Join (text, priority) parts, the lowest priority (0 is highest) giving way first until they fit: a
    part with shorter forms takes the next one, then is dropped.

    The part with the highest priority is kept, and cut with an ellipsis at its end if it alone is too wide.
    """
    forms = [text if isinstance(text, tuple) else (text,) for text, _ in parts]
    step = [0] * len(parts)
    kept = [index for index, _ in enumerate(parts) if forms[index] and forms[index][0]]

    def joined() -> str:
        return separator.join(forms[index][step[index]] for index in kept)

    while kept and cell_len(joined()) > width:
        shorter = [index for index in kept if step[index] + 1 < len(forms[index])]
        if len(kept) > 1:
            worst = max(kept, key=lambda index: (parts[index][1], index))
            if step[worst] + 1 < len(forms[worst]):
                step[worst] += 1
            else:
                kept.remove(worst)
        elif shorter:
            step[shorter[0]] += 1
        else:
            break
    line = joined()
    if cell_len(line) > width:
        line = line[: max(width - 1, 0)] + ELLIPSIS
    return line


def fit_end(text: str, width: int) -> str:
    """`text` cut at its end to `width` cells, with an ellipsis saying it was cut."""
    if width <= 0:
        return ""
    if cell_len(text) <= width:
        return text
    cut = text
    while cut and cell_len(cut) > width - 1:
        cut = cut[:-1]
    return cut.rstrip() + ELLIPSIS


LEAST_PATH = 12
"""A path cut to fit never gets fewer cells than this ("/tmp/…/data"), while other parts can still shrink."""


def fit_forms(parts: Sequence[Sequence[str]], width: int, order: Sequence[int], *, path: int | None = None,
              separator: str = SEPARATOR) -> list[str]:
    """Each part's form for a line of `width` cells: its first (longest) form, then, step by step in `order`
    (part indexes, one step each), the named part's next shorter form ("" drops it) until the line fits.

    The part at `path` has one form; its first step in `order` lets it be cut in the middle to the room
    left (never under LEAST_PATH cells), a second drops it. A part given no shorter form (a figure) is never
    cut here; a line that still does not fit once `order` is spent comes back as it is, for `fit_words` to
    cut at a word.
    """
    step = [0] * len(parts)
    cut_path = False
    taken = iter(order)
    while True:
        chosen = [forms[at] if at < len(forms) else "" for forms, at in zip(parts, step, strict=True)]
        if path is not None and cut_path and chosen[path]:
            others = [text for at, text in enumerate(chosen) if text and at != path]
            room = width - cell_len(separator.join(others)) - (cell_len(separator) if others else 0)
            chosen[path] = path_ellipsis(chosen[path], max(room, LEAST_PATH))
        if cell_len(separator.join(text for text in chosen if text)) <= width:
            return chosen
        following = next(taken, None)
        if following is None:
            return chosen
        if following == path and cut_path:
            step[path] = len(parts[path])  # past its forms: dropped
        elif following == path:
            cut_path = True
        elif step[following] + 1 < len(parts[following]):
            step[following] += 1


@lru_cache(maxsize=4096)  # drawn again on every repaint of the row; the names rarely change
def distinct_cut(text: str, width: int, others: frozenset[str] = frozenset()) -> str:
    """`text` cut in the middle to `width` cells like `middle_ellipsis`, but with the cut moved to keep the
    end that tells it apart from `others` ("vg0-t…down" beside "vg0-p…down", not "vg0-…down" twice)."""
    plain = middle_ellipsis(text, width)
    if plain == text or width < 3 or not others or cell_len(text) != len(text):
        return plain
    rivals = [other for other in others if other != text]
    if not rivals:
        return plain

    def clashes(head: int, tail: int) -> int:
        start, end = text[:head], text[len(text) - tail:] if tail else ""
        return sum(1 for other in rivals if len(other) >= head + tail
                   and other.startswith(start) and other.endswith(end))

    default_head = plain.index(ELLIPSIS)
    room = width - 1
    best = (clashes(default_head, room - default_head), 0, default_head)
    if best[0] == 0:
        return plain
    for head in range(1, room):
        found = (clashes(head, room - head), abs(head - default_head), head)
        best = min(best, found)
    head = best[2]
    return text[:head] + ELLIPSIS + text[len(text) - (room - head):]


_FIGURE = r"\d[\d,.]*(?:\s?(?:ns|µs|us|ms|s|%|x|×|[KMGT]i?B(?:/s)?|IOPS|/s))?"
_FIGURE_TITLE = re.compile(rf"^(?P<what>.+?) is (?P<figure>{_FIGURE})(?P<rest>.*)$")
_AGAINST = ((re.compile(r"^, at or over the (?P<limit>.+?) threshold$"), "≥"),
            (re.compile(r"^: passes the (?P<limit>.+?) threshold with little headroom$"), "<"))
_BARE_NUMBER = re.compile(r"^[(\[]?\d[\d,.]*$")
_STATISTIC = re.compile(r"^(?:p\d+(?:\.\d+)?|median|mean|max)$")


def figure_first(title: str, at_least: str = "≥") -> str:
    """A finding's title with its figure first, for a list cell that may be cut at its end:
    "WAL p99 fdatasync from due at 500/s steady is 15.6 ms, at or over the 10 ms threshold" reads
    "WAL p99 15.6 ms ≥ 10 ms · fdatasync from due at 500/s steady" (a title without "is <figure>" stays);
    `at_least` is the caller's sign for "at or over" (the one its verdicts say elsewhere)."""
    found = _FIGURE_TITLE.match(title)
    if found is None:
        return title
    figure, rest = found["figure"], found["rest"]
    for pattern, sign in _AGAINST:
        against = pattern.match(rest)
        if against is not None:
            sign = at_least if sign == "≥" else sign
            figure, rest = f"{figure} {sign} {against['limit']}", ""
            break
    words = found["what"].split(" ")
    lead = next((index + 1 for index, word in enumerate(words) if _STATISTIC.match(word)), 0)
    head = " ".join([*words[:lead], figure]) + rest
    tail = " ".join(words[lead:])
    return f"{head}{SEPARATOR}{tail}" if tail else head


def fit_words(text: str, width: int) -> str:
    """`text` cut at its end to `width` cells with an ellipsis, never inside or just after a number: a
    figure is shown with its unit ("15.6 ms", "500/s") or not at all; other words may be cut."""
    if width <= 0:
        return ""
    if cell_len(text) <= width:
        return text
    kept = text[: max(width - 1, 0)]
    words = kept.split(" ")
    if text[len(kept)] not in " ;,:)" and any(char.isdigit() for char in words[-1]):
        words.pop()  # the cut falls inside a word with a figure in it (not just before its punctuation)
    while len(words) > 1 and (not words[-1] or _BARE_NUMBER.match(words[-1])):
        words.pop()  # "discard_max_bytes 0…" or "is 15.6…" would read as a cut number
    return " ".join(words).rstrip(" ·,:;(") + ELLIPSIS
