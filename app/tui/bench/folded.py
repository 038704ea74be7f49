"""The Benchmark form folded into one line while a run goes on a short terminal, fitted to its width."""

from __future__ import annotations

from collections.abc import Iterator

from diskdoctor.app.core.bench.profile_name import base_profile, run_title
from diskdoctor.probes.wal_params import WalParams
from diskdoctor.widgets.fit_text import LEAST_PATH, SEPARATOR, fit_words, path_ellipsis
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions
from rich.text import Text

from . import run as bench_run

LEAD, PROFILE, DIRECTORY, BS, AMOUNT, LOAD = range(6)
SHRINK_ORDER = (LEAD, AMOUNT, LOAD, PROFILE, BS, LEAD, PROFILE, PROFILE)
"""What gives way, in turn, before the directory loses its last folder (newuser17 #6: `/tmp/ne…7-tmpfs` beside
`5 s` said twice and `2,300 B`): the key's words, the amount when the run's name already says it ("etcd WAL
(custom: 5 s) · … · 5 s"), the arrivals' word, the profile's longer names, the bytes per write, the key's
last word, the profile's name. The directory stays whole while the first three go; after them it is cut at a
"/" (its last folder whole; the status line under the run names it whole) before each further step. The
size or seconds and the writes/s never go."""
CUT_FROM = 3
"""The steps of SHRINK_ORDER taken before the directory may be cut (the key's words, a repeated amount and
the arrivals' word are worth less than the path's folders)."""


def rates_text(rates: tuple[float, ...]) -> str:
    """The loads as a reader takes them: "50, 500" (newuser16 #6 read "50,500" as fifty thousand five
    hundred); the CLI's `--rate 50,500` and the field accept either."""
    return ", ".join(f"{rate:g}" for rate in rates)


class FoldedForm:
    """"e: edit settings · etcd · /mnt/x · 2,300 B · 22 MiB · 50, 500/s steady", fitted where it is drawn."""

    def __init__(self, params: object, directory: str) -> None:
        kind = bench_run.kind_of(params)
        self.parts: list[tuple[str, ...]] = [("e: edit settings", "e: edit", "e"),
                                             self._profile(params, kind), (directory,),
                                             (), (), ()]
        if isinstance(params, WalParams):
            amount = f"{params.duration_s:g} s" if params.duration_s else f"{params.size >> 20} MiB"
            said = amount in self.parts[PROFILE][0]  # "etcd WAL (custom: 5 s)" says it: it goes first
            self.parts[BS], self.parts[AMOUNT] = (f"{params.bs:,} B", ""), (amount, "") if said else (amount,)
            rates = rates_text(params.rates)
            self.parts[LOAD] = (f"{rates}/s {params.arrival}", f"{rates}/s") if rates else ("closed loop",)
        self.parts = [forms or ("",) for forms in self.parts]

    @staticmethod
    def _profile(params: object, kind: str) -> tuple[str, ...]:
        """The run's name, longest first: "etcd WAL (custom: 5 s)", "etcd (custom)", "etcd", nothing."""
        if not isinstance(params, WalParams):
            return (kind, "")
        base = base_profile(params)
        custom = (f"{base} (custom)",) if params.profile == "custom" else ()
        return (run_title(params, kind), *custom, base, "")

    def line(self, width: int) -> Text:
        """The line in `width` cells, the key "e" highlighted."""
        chosen = self._fitted(width)
        text = Text(fit_words(SEPARATOR.join(part for part in chosen if part), width), no_wrap=True, end="")
        text.stylize("bold yellow", 0, 1)
        text.stylize("dim", 1, len(chosen[LEAD]))
        return text

    def _fitted(self, width: int) -> list[str]:
        """Each part's form for `width` cells: steps of SHRINK_ORDER until the directory shows whole, or,
        from step CUT_FROM, cut at a "/" with its last folder whole; else cut in its middle, else dropped."""
        step = [0] * len(self.parts)
        directory = self.parts[DIRECTORY][0]
        least = cell_len(path_ellipsis(directory, cell_len(directory.rstrip("/").rsplit("/", 1)[-1]) + 2))
        for taken, part in enumerate((None, *SHRINK_ORDER)):
            if part is not None and step[part] + 1 < len(self.parts[part]):
                step[part] += 1
            chosen = [forms[at] for forms, at in zip(self.parts, step, strict=True)]
            if not chosen[AMOUNT] and self.parts[AMOUNT][0] not in chosen[PROFILE]:  # no longer said there
                chosen[AMOUNT] = self.parts[AMOUNT][0]
            room = width - cell_len(SEPARATOR.join(text for at, text in enumerate(chosen)
                                                   if text and at != DIRECTORY)) - cell_len(SEPARATOR)
            if cell_len(directory) <= room or (taken >= CUT_FROM and room >= least):
                chosen[DIRECTORY] = path_ellipsis(directory, room)
                return chosen
        chosen[DIRECTORY] = path_ellipsis(directory, room) if room >= LEAST_PATH else ""
        return chosen

    @property
    def plain(self) -> str:
        """The whole line, unfitted."""
        return SEPARATOR.join(forms[0] for forms in self.parts if forms[0])

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        yield self.line(options.max_width)
