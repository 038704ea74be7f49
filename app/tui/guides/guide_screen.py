"""The walkthrough screen: one step at a time with a progress line, Back/Next (keys and buttons), a Start
for steps that run something, and on the verdict page the findings and a report."""

from __future__ import annotations

from dataclasses import dataclass

from diskdoctor.app.base.errors import UsageError
from diskdoctor.probes.root import Root
from diskdoctor.widgets.fitted_footer import FittedFooter
from diskdoctor.widgets.keyed_lists import KeyedOptionList
from diskdoctor.widgets.text_field import TextField
from diskdoctor.widgets.wrap_text import WrappedText
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.widgets import Button, Header, OptionList, Static
from textual.widgets.option_list import Option

from ..host_snapshot import HostSnapshot, SnapshotScreen
from ..screen_help import GUIDE_HELP
from ..selection import SCREEN_NAMES, chosen
from .guide import Guide
from .guide_menu import titled_option
from .quick_bench import QuickSizes
from .steps import Action, DialogAction, GuideContext, Question, Step, StepKind, StepView


@dataclass
class StepViewReady(Message):
    """A step's page was prepared in a worker."""

    index: int
    view: StepView


@dataclass
class StepProgress(Message):
    """A running step reports progress (one line)."""

    index: int
    line: str


@dataclass
class StepRan(Message):
    """A running step finished; `text` is its result."""

    index: int
    text: Text


def progress_line(guide: Guide, index: int, total: int, title: str) -> Text:
    """e.g. "etcd · step 3 of 8: TRIM  ●●●○○○○○"."""
    text = Text.assemble((f"{guide.short} · step {index + 1} of {total}: ", "bold"))
    text.append(title, style="bold cyan")
    text.append("  " + "●" * (index + 1) + "○" * (total - index - 1), style="cyan")
    return text


def run_keys_line(ran: bool) -> str:
    """The line under a runnable step's text naming its keys as the buttons and footer name them."""
    return "Run again (s) runs it once more; Next (n) goes on." if ran else \
        "Start (s) runs it; Skip (n) goes on without it."


class GuideScreen(SnapshotScreen):
    """One walkthrough: a question or step per page, Back/Next, a verdict with findings and a report."""

    SCREEN_HELP = GUIDE_HELP
    TITLE = "Guide"
    """The name the title row lights before the walkthrough's title."""
    BINDINGS = [
        Binding("n", "next", "Next", tooltip="Answer and go to the next step (Enter in a list does too)."),
        Binding("n", "skip", "Skip", tooltip="Go on without running this step (as the Skip button)."),
        Binding("b", "back", "Back", tooltip="The previous step (answers and results are kept)."),
        Binding("s", "start", "Start",
                tooltip="Run this step (a short benchmark, trim now, a monitor reading)."),
        Binding("s", "run_again", "Run again", tooltip="Run this step again (as the Run again button)."),
        Binding("f", "findings", "Findings", tooltip="Open the findings behind the verdict (Advice screen)."),
        Binding("escape", "leave", "Leave",
                tooltip="Leave the walkthrough (g or the palette brings it back)."),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, root: Root, guide: Guide, sizes: QuickSizes | None = None) -> None:
        super().__init__()
        self.guide = guide
        self.ctx = GuideContext(root, sizes or QuickSizes())
        self.steps: list[Step] = guide.steps()
        self.index = 0
        self.view: StepView | None = None
        self.busy = False
        self.ran: dict[int, Text] = {}

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static("", id="guide-progress")
        with VerticalScroll(id="guide-body"):
            yield WrappedText("", id="guide-text")
            yield Static("", id="guide-keys")
            yield KeyedOptionList(id="guide-choices")
            yield TextField(id="guide-typed")
            yield Static("", id="guide-error")
            yield WrappedText("", id="guide-result")
        with Horizontal(id="guide-buttons"):
            yield Button("◀ Back", id="guide-back", compact=True)
            yield Button("Start", id="guide-start", variant="warning", compact=True)
            yield Button("Next ▶", id="guide-next", variant="primary", compact=True)
            yield Button("Findings", id="guide-findings", compact=True)
            yield Button("Save report", id="guide-report", compact=True)
        yield FittedFooter()

    def on_mount(self) -> None:
        self.sub_title = self.guide.title
        self.ctx.snapshot = getattr(self.app, "snapshot", None)
        selection = chosen(self.app)
        path = selection and (selection.directory or selection.mountpoint)
        if selection is not None and path:  # the one selection: what the guide offers first
            by = f"chosen on {SCREEN_NAMES.get(selection.by, selection.by)}"
            below = selection.kname if selection.above else None  # a device row: the first filesystem on it
            self.ctx.selected = (path, f"on {below}, {by}" if below else by)
        self.enter(0)

    def show_snapshot(self, snapshot: HostSnapshot) -> None:
        """Later steps use the newest shared snapshot (the page being shown stays as it was read)."""
        self.ctx.snapshot = snapshot

    @property
    def step(self) -> Step:
        return self.steps[self.index]

    def enter(self, index: int) -> None:
        """Show step `index`: its page is prepared off the UI thread (it may read the host)."""
        self.index, self.view = index, None
        step = self.step
        self.query_one("#guide-progress", Static).update(
            progress_line(self.guide, index, len(self.steps), step.title))
        self.query_one("#guide-error", Static).update("")
        self.query_one("#guide-result", Static).update(self.ran.get(index, Text("")))
        self.query_one("#guide-choices", OptionList).display = False
        typed = self.query_one("#guide-typed", TextField)
        typed.display, typed.value = False, ""
        skipped = step.skip_reason(self.ctx)
        if skipped:
            self.query_one("#guide-text", Static).update(Text(f"{step.title}: {skipped}.", style="yellow"))
        else:
            self.query_one("#guide-text", Static).update(Text("Reading…", style="dim"))
            self.prepare(index)
        self._refresh_buttons()

    @work(thread=True, exclusive=True, group="guide-view", exit_on_error=False,
          description="prepare a guide step")
    def prepare(self, index: int) -> None:
        """Worker: the step's page (reading the host, processes or findings as the step needs)."""
        try:
            view = self.steps[index].view(self.ctx)
        except UsageError as err:
            view = StepView(Text(str(err), style="bold red"))
        except Exception as err:  # a probe bug must never kill the walkthrough
            view = StepView(Text(f"could not prepare this step: {type(err).__name__}: {err}",
                                 style="bold red"))
        self.post_message(StepViewReady(index, view))

    def on_step_view_ready(self, message: StepViewReady) -> None:
        if message.index != self.index:
            return
        self.view = view = message.view
        self.query_one("#guide-text", Static).update(view.text)
        choices = self.query_one("#guide-choices", OptionList)
        choices.clear_options()
        if view.choices:
            choices.add_options([Option(titled_option(c.label, c.note, bold=False), id=str(i))
                                 for i, c in enumerate(view.choices)])
            chosen = self.ctx.answers.get(self.step.title) or view.default
            values = [c.value for c in view.choices]
            choices.highlighted = values.index(chosen) if chosen in values else 0
        choices.display = bool(view.choices)
        typed = self.query_one("#guide-typed", TextField)
        typed.display = view.typed is not None
        if view.typed is not None:
            typed.placeholder = view.typed
            earlier = self.ctx.answers.get(self.step.title, "")
            if earlier and earlier not in [c.value for c in view.choices]:
                typed.value = earlier  # a typed answer is shown again when the user comes back
        if view.choices:
            choices.focus()
        elif view.typed is not None:
            typed.focus()
        self._refresh_buttons()

    def _runnable(self) -> bool:
        """Whether this step runs something here (a Start button and key)."""
        return self.step.kind is StepKind.RUN and self.step.skip_reason(self.ctx) is None

    def _refresh_buttons(self) -> None:
        """The buttons, the keys in the footer and the key line under a runnable step's text, all named
        alike: Start/Run again (s), Skip/Next (n) (newuser19 #6: a `Run again` button over `s Start`)."""
        last, runnable, ran = self.index == len(self.steps) - 1, self._runnable(), self.index in self.ran
        self.query_one("#guide-back", Button).disabled = self.index == 0 or self.busy
        start = self.query_one("#guide-start", Button)
        start.display = runnable
        start.disabled = self.busy
        start.label = "Run again" if ran else "Start"
        nxt = self.query_one("#guide-next", Button)
        nxt.display = not last
        nxt.disabled = self.busy
        nxt.label = "Skip ▶" if runnable and not ran else "Next ▶"
        for name in ("findings", "report"):
            self.query_one(f"#guide-{name}", Button).display = last
        keys = self.query_one("#guide-keys", Static)
        keys.display = runnable and not last
        keys.update(Text(run_keys_line(ran), style="dim"))
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys only where they make sense, named as the buttons are: Start before a run and Run again
        after it, Skip on a runnable step not run yet and Next elsewhere, Findings on the verdict."""
        step, ran = self.step, self.index in self.ran
        if action in ("start", "run_again"):
            return self._runnable() and not self.busy and ran is (action == "run_again")
        if action == "findings":
            return step.kind is StepKind.VERDICT
        if action == "back":
            return self.index > 0 and not self.busy
        if action in ("next", "skip"):
            skipping = self._runnable() and not ran
            return self.index < len(self.steps) - 1 and not self.busy and skipping is (action == "skip")
        return True

    @on(Button.Pressed, "#guide-next")
    @on(OptionList.OptionSelected, "#guide-choices")
    @on(TextField.Submitted, "#guide-typed")
    def action_next(self) -> None:
        """Keep the answer (a question) and go on; a wrong answer is marked and the page stays."""
        if self.busy or self.index >= len(self.steps) - 1:
            return
        step = self.step
        if isinstance(step, Question) and step.skip_reason(self.ctx) is None:
            if self.view is None:
                return
            value = self.query_one("#guide-typed", TextField).value.strip()
            choices = self.query_one("#guide-choices", OptionList)
            if not value and self.view.choices and choices.highlighted is not None:
                value = self.view.choices[choices.highlighted].value
            problem = step.answer(self.ctx, value)
            if problem:
                self.query_one("#guide-error", Static).update(Text(problem, style="bold red"))
                return
            self.ctx.answers[step.title] = value
        self.enter(self.index + 1)

    def action_skip(self) -> None:
        """n on a step not run yet: on without running it (the Skip button)."""
        self.action_next()

    @on(Button.Pressed, "#guide-back")
    def action_back(self) -> None:
        if self.index > 0 and not self.busy:
            self.enter(self.index - 1)

    @on(Button.Pressed, "#guide-start")
    def action_start(self) -> None:
        """Run the step; a step that changes the host asks first (trim now)."""
        step = self.step
        if not isinstance(step, (Action, DialogAction)) or self.busy or step.skip_reason(self.ctx):
            return
        if isinstance(step, DialogAction):
            step.start(self)
            return
        self.busy = True
        self.query_one("#guide-result", Static).update(Text("starting…", style="dim"))
        self._refresh_buttons()
        self.run_step(self.index)

    def action_run_again(self) -> None:
        """s after a run: the step once more (the Run again button)."""
        self.action_start()

    @work(thread=True, exclusive=True, group="guide-run", exit_on_error=False, description="run a guide step")
    def run_step(self, index: int) -> None:
        """Worker: run the step (benchmarks run in the engine child; this thread only waits)."""
        step = self.steps[index]
        assert isinstance(step, Action)
        try:
            text = step.run(self.ctx, lambda line: self.post_message(StepProgress(index, line)))
        except Exception as err:  # TargetError, UsageError, a probe bug: one line on the page
            text = Text.assemble((f"{type(err).__name__ if not str(err) else err}", "bold red"))
        self.post_message(StepRan(index, text))

    def on_step_progress(self, message: StepProgress) -> None:
        if message.index == self.index and self.busy:
            self.query_one("#guide-result", Static).update(Text(message.line, style="cyan"))

    def on_step_ran(self, message: StepRan) -> None:
        self.finish_step(message.index, message.text)

    def finish_step(self, index: int, text: Text) -> None:
        """Show a step's result and let the user go on (also used by interactive steps)."""
        self.busy = False
        self.ran[index] = text
        if index == self.index:
            self.query_one("#guide-result", Static).update(text)
            self._refresh_buttons()
            self.query_one("#guide-next", Button).focus()

    @on(Button.Pressed, "#guide-findings")
    def action_findings(self) -> None:
        """The Advice screen with this walkthrough's benchmark results judged too."""
        show = getattr(self.app, "show_findings", None)
        if show is not None:
            self.app.call_later(show, self.ctx)

    @on(Button.Pressed, "#guide-report")
    def save_report(self) -> None:
        self.app.action_write_report()

    def action_leave(self) -> None:
        leave = getattr(self.app, "leave_guide", None)
        if leave is not None and not self.busy:
            self.app.call_later(leave)
        elif self.busy:
            self.notify("a step is still running; wait for it to finish", severity="warning")
