"""The Benchmark form folded into one line while a run goes on a short terminal, fitted to its width."""

from __future__ import annotations

from collections.abc import Iterator

from diskdoctor.app.core.bench.profile_name import base_profile, run_title
from diskdoctor.probes.wal_params import WalParams
from diskdoctor.widgets.fit_text import SEPARATOR, fit_forms, fit_words
from rich.console import Console, ConsoleOptions
from rich.text import Text

from . import run as bench_run

LEAD, PROFILE, DIRECTORY, BS, AMOUNT, LOAD = range(6)
SHRINK_ORDER = (LEAD, DIRECTORY, LOAD, PROFILE, LEAD, PROFILE, PROFILE, DIRECTORY)
"""What gives way first when the line is too wide: the key's words, the directory (cut at a "/"; the status
line under the run names it whole), the arrivals' word, the profile's longer names, the key's last word, the
profile's name, and last the directory; the figures (bytes, size or seconds, the writes/s) never do."""


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
            self.parts[BS], self.parts[AMOUNT] = (f"{params.bs:,} B",), (amount,)
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
        chosen = fit_forms(self.parts, width, SHRINK_ORDER, path=DIRECTORY)
        text = Text(fit_words(SEPARATOR.join(part for part in chosen if part), width), no_wrap=True, end="")
        text.stylize("bold yellow", 0, 1)
        text.stylize("dim", 1, len(chosen[LEAD]))
        return text

    @property
    def plain(self) -> str:
        """The whole line, unfitted."""
        return SEPARATOR.join(forms[0] for forms in self.parts if forms[0])

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        yield self.line(options.max_width)
