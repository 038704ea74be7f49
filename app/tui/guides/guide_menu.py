"""The walkthrough menu (g on any screen, or the command palette): pick a question to be guided through."""

from __future__ import annotations

from diskdoctor.widgets.keyed_lists import KeyedOptionList
from diskdoctor.widgets.wrap_text import WordWrap
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from .guide import Guide


def titled_option(title: str, note: str | None, *, bold: bool = True) -> RenderableType:
    """A list entry: its title, its wrapped lines four in, then its note indented by two under it, every
    wrapped line of the note too (a hanging indent, so a wrapped title or description never reads as the
    next entry's title); paths break only after a "/"."""
    head = WordWrap(Text(title, style="bold" if bold else ""), hang=4)
    return Group(head, Padding(WordWrap(Text(note, style="dim" if bold else ""), hang=0),
                               (0, 0, 0, 2))) if note else head


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
            yield KeyedOptionList(*(Option(titled_option(g.title, g.about), id=g.key) for g in self.guides),
                                  id="guide-menu-list")
            yield Static(Text("Enter opens it · Esc closes · every step is also a screen of its own",
                              style="dim"))

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
