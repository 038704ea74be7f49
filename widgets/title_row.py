"""A screen's title row: the screens as tabs (or the current one's key and name), then what it shows."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.text import Text

from .fit_text import SEPARATOR, fit_end, middle_ellipsis

CURRENT_STYLE = "bold reverse"
"""The current screen's tab (or its key and name alone): lit, as k9s and lazygit light theirs."""
OTHER_NAME_STYLE = "dim"
TABS_FROM = 120
"""The fewest columns the tabs of every screen show in; under it the current screen's key and name alone
(so the row looks the same on every screen at one width; an 80-column row needs its room for the host)."""
NAMED_FROM = 160
"""The fewest columns the app's name shows in, before the tabs, on every screen alike: where it fits beside
the tabs and each screen's shortest whole description (newuser18 saw the tabs move 12 columns between screens
at 120 when the name came and went with the description's length)."""
FIRST_PART_CELLS = 12
"""A description's first part (a host name) is cut in the middle down to this to keep its last part beside
it (a capture's name: newuser12 saw a long host name alone at 80 columns, nothing saying it was a capture)."""


class TitleRow:
    """One screen's title row, left-aligned, the whole width: from TABS_FROM columns the app's name and a
    tab per screen (`1 Stack  2 TRIM …`, the current one lit) before the screen's description, else the
    current screen's key and name alone (`3 Benchmark`); the app's name leads from NAMED_FROM columns, by the
    width alone, so the tabs start in one column on every screen. What must go goes least important first:
    the description's middle " · " parts (a kernel), then the other screens' tabs, then its
    first part is cut in the middle (a host name, keeping the capture's name after it), and only then is it
    cut at its end; the current screen's key and name stay."""

    def __init__(self, app_name: str, tabs: Sequence[tuple[str, str]], name: str, description: str,
                 tabs_from: int = TABS_FROM, named_from: int = NAMED_FROM) -> None:
        self.app_name, self.tabs, self.name, self.description = app_name, tuple(tabs), name, description
        self.tabs_from, self.named_from = tabs_from, named_from
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

    def whole(self) -> Iterator[str]:
        """The description whole, then with its middle parts left out (a kernel), no word cut."""
        parts = self.description.split(SEPARATOR)
        yield self.description
        if len(parts) > 2:
            yield SEPARATOR.join([parts[0], parts[-1]])

    def descriptions(self, room: int) -> Iterator[str]:
        """The description in `room` cells: whole, with fewer parts, then cut."""
        yield from self.whole()
        parts = self.description.split(SEPARATOR)
        last_room = room - cell_len(SEPARATOR + parts[-1])  # the last part whole, the first cut
        if len(parts) > 1 and last_room >= min(FIRST_PART_CELLS, cell_len(parts[0])):
            yield middle_ellipsis(parts[0], last_room) + SEPARATOR + parts[-1]
        yield fit_end(self.description, room)

    def forms(self, width: int) -> Iterator[Text]:
        """Every way to draw the row, most whole first."""
        name = Text(f" {self.app_name} ", style="bold") if width >= self.named_from else Text()
        if width >= self.tabs_from:
            for text in self.whole():  # beside the tabs only whole parts
                yield Text.assemble(name, self.strip(), " ", text)
        chip = Text.assemble(name, self.chip())
        room = width - chip.cell_len - 1
        for text in self.descriptions(room):
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
