"""Each load of a WAL run as the chart drew it, kept so that after the run the chart, figures, histogram and
layer times show the load the verdict judged (not the closed-loop capacity run that happened to come last),
and `c` steps through the others."""

from __future__ import annotations

from dataclasses import dataclass, field

from diskdoctor.probes.engine.workloads.wal import WalLevel, WalResult
from diskdoctor.probes.wal_params import load_text
from rich.text import Text

Point = tuple[float, dict[str, float | None]]


@dataclass
class PhaseTrace:
    """One load: its chart title, every interval's chart values, and its figures at its last interval."""

    rate: float | None
    arrival: str
    label: str
    points: list[Point] = field(default_factory=list)
    stats: Text | None = None


def same_load(trace: PhaseTrace, level: WalLevel) -> bool:
    """Whether `trace` drew `level` (the closed loop's arrival is "closed" or whatever the engine said)."""
    if level.rate is None or trace.rate is None:
        return level.rate is None and trace.rate is None
    return abs(level.rate - trace.rate) < 1e-9 and level.arrival == trace.arrival


@dataclass
class PhaseTraces:
    """The loads of the run so far, in the order they ran, and which one is shown after the run."""

    traces: list[PhaseTrace] = field(default_factory=list)
    shown: int = -1
    judged: int | None = None

    def add(self, load: dict[str, object], label: str, point: Point, stats: Text) -> None:
        """One interval of the load `load` (a new load starts a new trace)."""
        rate = load.get("rate")
        rate = float(rate) if isinstance(rate, (int, float)) else None
        arrival = str(load.get("arrival") or "")
        last = self.traces[-1] if self.traces else None
        if last is None or (last.rate, last.arrival) != (rate, arrival):
            last = PhaseTrace(rate, arrival, label)
            self.traces.append(last)
        last.points.append(point)
        last.stats = stats
        self.shown = len(self.traces) - 1

    def judge(self, level: WalLevel | None) -> int | None:
        """Show `level`, the load the verdict judged; returns its index (None when it was not drawn)."""
        found = next((index for index, trace in enumerate(self.traces)
                      if level is not None and same_load(trace, level)), None)
        self.judged = found
        if found is not None:
            self.shown = found
        return found

    def step(self) -> PhaseTrace | None:
        """Show the next load (after the last, the first again)."""
        if not self.traces:
            return None
        self.shown = (self.shown + 1) % len(self.traces)
        return self.traces[self.shown]

    def title(self, index: int) -> str:
        """The chart's metric for the load at `index`: its label, which load of how many (`c`, Chart load,
        steps through them), and which load the verdict judged. A rate's load has its own verdict in the
        table (`under`), so it is never called "not judged" (newuser15 #3); the capacity's is not judged."""
        trace = self.traces[index]
        if len(self.traces) == 1:
            return f"{trace.label} ({'judged' if index == self.judged else 'not judged'})"
        load = f"load {index + 1} of {len(self.traces)}"
        if index == self.judged:
            return f"{trace.label} (judged: {load})"
        if trace.rate is None or self.judged is None:
            return f"{trace.label} ({load}: not judged)"
        return f"{trace.label} ({load}; the verdict judged load {self.judged + 1})"

    def level(self, result: WalResult, index: int) -> WalLevel | None:
        """The result's level that the trace at `index` drew."""
        trace = self.traces[index]
        return next((level for level in result.levels if same_load(trace, level)), None)


def level_text(level: WalLevel) -> str:
    """The level in words: "500 writes/s, steady" or "closed loop"."""
    return load_text(level.rate, level.arrival)
