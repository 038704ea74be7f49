"""The parts of a walkthrough: a question, a page that explains what was found, a step that runs
something, and the verdict; and the context they share (the answers and results so far)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol

from diskdoctor.app.core.findings.finding import Finding
from diskdoctor.app.core.snapshot import read_snapshot
from diskdoctor.app.core.trim.doctor import TrimVerdict
from diskdoctor.probes.host import Host, MountedFs, read_host
from diskdoctor.probes.root import Root
from diskdoctor.probes.trim_facts import TrimFacts
from rich.text import Text

from ..host_snapshot import HostSnapshot

if TYPE_CHECKING:
    from .quick_bench import QuickResult, QuickSizes


class StepHost(Protocol):
    """What a running step drives: the walkthrough screen (its context, its step index, its App)."""

    ctx: GuideContext
    index: int
    app: Any

    def finish_step(self, index: int, result: Text) -> None:
        """Show the step's result and let the walk go on."""

LIVE_ONLY = "needs the live host: skipped on a capture"


class StepKind(str, Enum):
    """What the user does on a step (the screen draws each kind its own way)."""

    QUESTION = "question"
    INFO = "info"
    RUN = "run"
    VERDICT = "verdict"


@dataclass
class GuideContext:
    """Everything a walkthrough learned so far, shared by its steps; `snapshot` is the app's shared one."""

    root: Root
    sizes: QuickSizes
    snapshot: HostSnapshot | None = None
    answers: dict[str, Any] = field(default_factory=dict)
    results: dict[str, Any] = field(default_factory=dict)
    runs: list[QuickResult] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    selected: tuple[str, str] | None = None
    """The directory or filesystem chosen on a screen before the guide opened, and where it came from
    ("chosen on Stack", "on sda3, chosen on Stack"): a question about a directory or a filesystem offers it
    first."""

    @property
    def live(self) -> bool:
        """Whether this is the live host (benchmarks, trim now, processes and the monitor need it)."""
        return self.root.live

    def host(self) -> Host:
        """The shared snapshot's Host, or a fresh read when the app has none yet (worker threads only)."""
        if self.snapshot is None:
            self.snapshot = HostSnapshot(0, read_host(self.root))
        return self.snapshot.host

    def trim(self) -> tuple[TrimFacts, tuple[TrimVerdict, ...]]:
        """TRIM facts and verdicts of the shared snapshot (read here when it has none yet)."""
        snapshot = self.snapshot
        if snapshot is not None and snapshot.trim_facts is not None:
            return snapshot.trim_facts, snapshot.trim_verdicts
        read = read_snapshot(self.root, host=self.host())
        self.snapshot = HostSnapshot(snapshot.generation if snapshot else 0, read.host, read.trim_facts,
                                     read.verdicts)
        return read.trim_facts, read.verdicts

    def mount(self) -> MountedFs | None:
        """The filesystem the walkthrough is about (the chosen directory's, or the chosen mountpoint)."""
        path = self.answers.get("dir") or self.answers.get("mountpoint")
        return self.host().mount_for_path(path) if path else None


@dataclass(frozen=True)
class Choice:
    """One offered answer: what the list shows, the value kept, and a line saying where it came from."""

    label: str
    value: str
    note: str = ""


@dataclass
class StepView:
    """What a step shows when entered: its text, the choices (a question), and a typed answer's hint."""

    text: Text
    choices: list[Choice] = field(default_factory=list)
    typed: str | None = None
    """Placeholder of the text field for an answer not in the list (None: no field)."""
    default: str = ""


Say = Callable[[str], None]


class Step(ABC):
    """One page of a walkthrough; `view` runs in a worker thread when the page is entered."""

    kind = StepKind.INFO
    needs_live = False

    def __init__(self, title: str) -> None:
        self.title = title

    def skip_reason(self, ctx: GuideContext) -> str | None:
        """Why this step cannot be done here (None when it can); the page then says so."""
        return LIVE_ONLY if self.needs_live and not ctx.live else None

    @abstractmethod
    def view(self, ctx: GuideContext) -> StepView:
        """The page's content (may read the host; never writes)."""


class Question(Step):
    """One question: pick from the list, or type an answer when `typed` allows it."""

    kind = StepKind.QUESTION

    @abstractmethod
    def answer(self, ctx: GuideContext, value: str) -> str | None:
        """Keep the answer in the context; return why it cannot be used (one line), or None."""


class Action(Step):
    """A step that does something in a worker when the user starts it (a benchmark, a monitor reading)."""

    kind = StepKind.RUN

    @abstractmethod
    def run(self, ctx: GuideContext, say: Say) -> Text:
        """Do it (in a worker thread), reporting progress through `say`; returns the result text."""


class DialogAction(Step):
    """A step that runs through the app's own dialogs on the UI thread (trim now: confirm, then progress)."""

    kind = StepKind.RUN

    @abstractmethod
    def start(self, screen: StepHost) -> None:
        """Open the dialogs; they call `screen.finish_step` with the result."""


class Verdict(Step):
    """The last page: the answer to the walkthrough's question, the findings behind it, a report."""

    kind = StepKind.VERDICT
