"""A screen's title row: the screens as tabs (or the current one's key and name), then what it shows."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.text import Text

from .fit_text import ELLIPSIS, SEPARATOR, fit_end

CURRENT_STYLE = "bold reverse"
"""The current screen's tab (or its key and name alone): lit, as k9s and lazygit light theirs."""
OTHER_NAME_STYLE = "dim"
TABS_FROM = 120
"""The fewest columns every screen's tabs show in, whatever the description (on every screen alike); under it
the current screen's key and name alone, so an 80-column row keeps its description whole (six tabs take 59
cells: every screen's description was cut to three words, the Runs title lost "not in the capture")."""
FIRST_PART_CELLS = 12
"""Beside the chip, a description's first part (a host name) is cut down to this to keep its last part
beside it (a capture's name: newuser12 saw a long host name alone at 80 columns, nothing said a capture)."""
NAMED_FROM = 160
"""The fewest columns the app's name shows in, before the tabs, on every screen alike: where it fits beside
the tabs and each screen's shortest whole description (newuser18 saw the tabs move 12 columns between screens
at 120 when the name came and went with the description's length)."""


def host_ellipsis(host: str, width: int) -> str:
    """A host name cut to `width` cells keeping its start and its domain end: its first label whole and the
    longest whole ".label…" end that fits after it, else its last label in at most half the room after a cut
    start (`k8s-worker….internal`), else cut at its end."""
    if cell_len(host) <= width:
        return host
    if width <= 1:
        return ELLIPSIS[:width]
    keep = width - 1
    first = host.split(".", 1)[0]
    ends = [host[index:] for index, char in enumerate(host) if char == "." and index > 0]
    fits_after_first = [end for end in ends if cell_len(end) <= keep - cell_len(first)]
    last_label = [end for end in ends[-1:] if cell_len(end) <= keep // 2]
    end = (fits_after_first or last_label or [""])[0]
    if not end:
        return fit_end(host, width)
    start = fit_end(host[: len(host) - len(end)], width - cell_len(end))
    return start.replace("." + ELLIPSIS, ELLIPSIS) + end  # never "07.….example": the dot is the end's


def word_end(text: str, width: int) -> str:
    """`text` cut after its last whole word that leaves room for "…" (`Does discard reach…`), cut at its end
    when not even its first word fits."""
    if cell_len(text) <= width:
        return text
    words = text[: max(width - 1, 0) + 1].split(" ")[:-1]  # the words wholly before the cut
    kept = " ".join(words).rstrip(" ,;:·")
    return kept + ELLIPSIS if kept else fit_end(text, width)


class TitleRow:
    """One screen's title row, left-aligned, the whole width: a tab per screen (`1 Stack  2 TRIM …`, the
    current one lit; the app's name before them from NAMED_FROM columns, by the width alone, so the tabs start
    in one column on every screen) before the screen's description. Navigation never gives way to the
    description (newuser21 #3 saw Stack drop five tabs for a long host name): the description's middle
    " · " parts (a kernel) go first, then its first part (a host name) is cut keeping its start and its
    domain end (`host_ellipsis`) beside its last (a capture's name), then alone; a one-part description is
    cut after a whole word (`word_end`). Under TABS_FROM columns the current screen's chip shows alone, on
    every screen alike."""

    def __init__(self, app_name: str, tabs: Sequence[tuple[str, str]], name: str, description: str,
                 named_from: int = NAMED_FROM) -> None:
        self.app_name, self.tabs, self.name, self.description = app_name, tuple(tabs), name, description
        self.named_from = named_from
        self._fitted: dict[int, Text] = {}
        self.key = next((key for key, tab in self.tabs if tab == name), "")
        """The current screen's key ("" for a screen no key opens: a walkthrough, the database watch)."""

    def chip(self) -> Text:
        """The current screen's key and name, lit: ` 3 Benchmark `."""
        return Text(f" {self.key} {self.name} " if self.key else f" {self.name} ", style=CURRENT_STYLE)

    def strip(self) -> Text:
        """Every screen's key and name, the current one lit (just its chip for a screen no key opens)."""
        if not self.key:
            return self.chip()
        strip = Text()
        for key, name in self.tabs:
            if key == self.key:
                strip.append_text(self.chip())
            else:
                strip.append(f" {key} ", style="bold")
                strip.append(f"{name} ", style=OTHER_NAME_STYLE)
        return strip

    def descriptions(self, room: int) -> Iterator[str]:
        """The description in `room` cells, most whole first: whole, without its middle parts (a kernel), its
        first part cut (`host_ellipsis`) keeping its last whole (a capture's name: newuser12 saw a long host
        alone, nothing saying it was a capture), that first part alone cut; one part is cut after a word."""
        parts = self.description.split(SEPARATOR)
        yield self.description
        if len(parts) > 2:
            yield SEPARATOR.join([parts[0], parts[-1]])
        if len(parts) > 1:
            last_room = room - cell_len(SEPARATOR + parts[-1])
            if last_room >= min(FIRST_PART_CELLS, cell_len(parts[0])):
                yield host_ellipsis(parts[0], last_room) + SEPARATOR + parts[-1]
            yield host_ellipsis(parts[0], room)
        else:
            yield word_end(self.description, room)

    def forms(self, width: int) -> Iterator[Text]:
        """Every way to draw the row, most whole first: from TABS_FROM columns the tabs with the description
        giving way, else (or a row too narrow even so) the current screen's chip with it."""
        name = Text(f" {self.app_name} ", style="bold") if width >= self.named_from else Text()
        if width >= TABS_FROM:
            lead = Text.assemble(name, self.strip())
            for text in self.descriptions(width - lead.cell_len - 1):
                yield Text.assemble(lead, " ", text) if text else lead
        chip = Text.assemble(name, self.chip())
        for text in self.descriptions(width - chip.cell_len - 1):
            yield Text.assemble(chip, " ", text) if text else chip
        yield Text(fit_end(self.chip().plain, width), style=CURRENT_STYLE)

    def fitted(self, width: int) -> Text:
        """The first form that fits `width` cells (the forms after it are never made; measured and drawn,
        the row asks twice per width: the answer is kept)."""
        if width in self._fitted:
            return self._fitted[width]
        form = Text()
        for form in self.forms(width):
            if form.cell_len <= width:
                break
        self._fitted[width] = form
        return form

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        yield self.fitted(options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(self.chip().cell_len, self.fitted(options.max_width).cell_len)
