"""Fitting text into a width without losing its meaning: ellipsis in the middle, parts dropped by priority."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

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


LEAST_FOLDER_START = 8
"""Cells a dropped folder's start must get to be shown before the "…" (fewer, as "/v…/newuser12", say less
than the folder left out whole)."""


def path_ellipsis(path: str, width: int) -> str:
    """`path` cut at its "/" boundaries to `width` cells with one ellipsis in the middle: its last component
    (the place's own name) whole, then as many folders from the start as fit, then from the end
    ("/srv/postgresql/16/…/pg_wal_archive", else "…/pg_wal_archive"); where one folder alone is left out, its
    start shows if at least `LEAST_FOLDER_START` cells of it fit ("/tmp/lead-a-rather-long…/ext4mnt", not
    "/tmp/…/ext4mnt" in a wide column; "/v…/newuser12" said less). A last component too long for the width
    is cut in its middle after "…/" ("…/pg_wal_ar…recovery"), as `fit_path` does; narrower, the path is."""
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
    inner, head, tail = parts[:-1], [], [parts[-1]]

    def drawn(head_parts: list[str], tail_parts: list[str]) -> int:
        """Cells of "HEAD/…/TAIL" ("…/TAIL" without a head)."""
        return len("/".join(head_parts)) + (1 if head_parts else 0) + 2 + len("/".join(tail_parts))

    start, end = 0, len(inner)
    while start < end and drawn([*head, inner[start]], tail) <= width:
        head, start = [*head, inner[start]], start + 1
    while end > start and drawn(head, [inner[end - 1], *tail]) <= width:
        tail, end = [inner[end - 1], *tail], end - 1
    slack = width - drawn(head, tail)
    shown = "/".join(head) + "/" if head else ""
    if end - start == 1 and slack >= LEAST_FOLDER_START and len(inner[start]) > slack:
        shown += inner[start][:slack]  # one long folder left out: its start ("/tmp/lead-a-rather-long…/x")
    return shown + ELLIPSIS + "/" + "/".join(tail)


@lru_cache(maxsize=8192)  # drawn again on every repaint of a row; a column's paths rarely change
def last_component(path: str) -> str:
    """A path's last component ("recovery" of "/srv/…/recovery/"): what names the place."""
    return path.rstrip("/").rsplit("/", 1)[-1]


def keeps_last_component(path: str, cut: str) -> bool:
    """Whether `cut` shows `path`'s last component whole (a cut inside a name is the last resort)."""
    return cut.endswith(last_component(path))


def fit_path(path: str, width: int, others: frozenset[str] = frozenset()) -> str:
    """The one rule for a path in `width` cells: whole when it fits; else cut at its "/" boundaries, the first
    folders and the last component whole, the middle ones dropped as "…" ("/srv/postgresql/16/…/pg_wal",
    `path_ellipsis`); only when even the last component does not fit is it cut inside, in its middle after
    "…/" ("…/pg_wal_ar…recovery"). Where that cut reads like one of `others`' cuts, the folders are kept from
    the end instead ("/var/…/pvc-4d5e/mount" beside "/var/…/pvc-9a0b/mount"), a cut last component keeps the
    end that tells it apart (`distinct_cut`). Other text: its middle, the end that tells it apart kept."""
    if width <= 0 or cell_len(path) <= width:
        return middle_ellipsis(path, width)
    last = path.rstrip("/").rsplit("/", 1)[-1]
    if (not path.startswith("/") or cell_len(path) != len(path) or not last or last == path.strip("/")
            or (len(last) + 2 > width and width < LEAST_LAST_CELLS + 2)):
        return distinct_cut(path, width, others)  # not a path, one folder, or too narrow: its middle
    if len(last) + 2 > width:  # its cut keeps the end that tells it from the others' ("…/thin_…opassdown")
        lasts = frozenset(other.rstrip("/").rsplit("/", 1)[-1] for other in others if other.startswith("/"))
        return f"{ELLIPSIS}/{distinct_cut(last, width - 2, lasts)}"
    cut = path_ellipsis(path, width)
    if not any(other != path and fit_path(other, width) == cut for other in others):
        return cut
    tail_cut = _tail_first(path, width)
    if not any(other != path and tail_cut in (fit_path(other, width), _tail_first(other, width))
               for other in others if other.startswith("/") and other.strip("/") and cell_len(other) > width):
        return tail_cut
    return _kept_difference(path, width, others) or tail_cut  # they differ only in a middle folder


def _parts(path: str) -> list[str]:
    """A path's components, the root's "/" with the top folder ("/var", "lib", "x")."""
    parts = path.rstrip("/").split("/")
    parts[0:2] = ["/" + parts[1]]
    return parts


def _kept_difference(path: str, width: int, others: frozenset[str]) -> str | None:
    """`path` cut to its last component and the middle folder that tells it from an other of the same last
    component ("…/pytest-737/…/mnt-ext4-discard" beside "…/pytest-801/…/mnt-ext4-discard"), whole folders
    from the start before it where they fit; None where no such form fits `width`."""
    parts = _parts(path)
    for other in sorted(others):
        if other == path or not other.startswith("/") or not other.strip("/"):
            continue
        if cell_len(other) != len(other):  # wide characters: cell counts would not be string lengths
            continue
        theirs = _parts(other)
        if theirs[-1] != parts[-1]:
            continue
        pairs = zip(parts[:-1], theirs[:-1], strict=False)
        index = next((at for at, (mine, their) in enumerate(pairs) if mine != their), None)
        if not index:  # the same folders, or the first differs (a head-first cut shows it)
            continue
        between = "/" if index == len(parts) - 2 else f"/{ELLIPSIS}/"
        shown = f"{ELLIPSIS}/{parts[index]}{between}{parts[-1]}"
        if len(shown) > width:
            return None
        head = 0
        while head < index - 1 and len("/".join(parts[:head + 1])) + 1 + len(shown) <= width:
            head += 1
        return ("/".join(parts[:head]) + "/" if head else "") + shown
    return None


def _tail_first(path: str, width: int) -> str:
    """`path` cut at its "/" boundaries keeping whole folders from its end, then from its start."""
    parts = _parts(path)
    tail, end = [parts[-1]], len(parts) - 1
    while end > 0 and len("/".join([parts[end - 1], *tail])) + 2 <= width:
        tail, end = [parts[end - 1], *tail], end - 1
    head: list[str] = []
    while len(head) < end and len("/".join([*head, parts[len(head)]])) + 3 + len("/".join(tail)) <= width:
        head = [*head, parts[len(head)]]
    return ("/".join(head) + "/" if head else "") + ELLIPSIS + "/" + "/".join(tail)


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
