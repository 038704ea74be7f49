"""The walkthrough menu (g on any screen, or the command palette): pick a question to be guided through."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from .guide import Guide


class GuideMenu(ModalScreen[str | None]):
    """Returns the key of the chosen walkthrough, or None."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, guides: list[Guide]) -> None:
        super().__init__()
        self.guides = guides

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="guide-menu"):
            yield Static(Text("Guided walkthroughs: one step at a time, ending in a verdict", style="bold"),
                         classes="dialog-title")
            yield OptionList(*(Option(Text.assemble((g.title, "bold"), "\n  ", (g.about, "dim")), id=g.key)
                               for g in self.guides), id="guide-menu-list")
            yield Static(Text("Enter opens it · Esc closes · every step is also a screen of its own",
                              style="dim"))

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
