"""The help screen (F1 or ?): what the current screen shows, every key, its colours and words, its sources."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from diskdoctor.widgets.keyed_lists import KeyedScroll
from rich.table import Table
from rich.text import Text
from textual.actions import parse
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from .screen_help import ScreenHelp

EXTRA_KEYS = (("↑ ↓", "move in a list, table or tree (PgUp/PgDn a page at a time)"),
              ("j / k", "down / up in a list, table or tree, as in less and vim"),
              ("g / G", "first / last row of a list, table or tree (Home / End the same)"),
              ("→ ←", "open / close a row of the stack tree (← on a closed row goes to its parent)"),
              ("Tab / Shift+Tab", "move focus between panes and fields"),
              ("Esc", "leave a text field (its keys then work again); close help and dialogs"),
              ("^p", "command palette: every action of every screen, searchable"))
"""Keys no binding lists (Textual's own, and the tree's), written the way the footer writes keys."""


CLOSE_LINE = "Esc, ? or F1 closes · j/k scroll · g/G top/end"
"""On the help's bottom border, so it shows without scrolling at every size."""


SPELLED = {"pgdn": "PgDn", "pgup": "PgUp", "pagedown": "PgDn", "pageup": "PgUp"}
"""Keys spelled as the keyboard and the rest of the help do (Textual shows "pgdn": newuser14 #10)."""


def key_display(binding: Binding, display: Callable[[Binding], str]) -> str:
    """The keys of a binding as a person reads them: 'Esc / ?' for "escape,question_mark"."""
    if binding.key_display:
        return binding.key_display
    shown = [display(Binding(key.strip(), binding.action)) for key in binding.key.split(",")]
    return " / ".join(dict.fromkeys(SPELLED.get(key.lower(), key[:1].upper() + key[1:])
                                    if len(key) > 1 and key.isalpha() else key for key in shown))


def bindings_of(screen: Screen[object], app_bindings: Iterable[Binding | tuple[str, ...]]) -> list[Binding]:
    """The screen's own bindings, then the app's, each once (what the footer may not have room for), only
    those the screen has now (`has_now`); an app key saying what a screen key says (^c and q: Quit) is
    left out, one line being enough."""
    seen: set[str] = set()
    said: set[str] = set()
    result = []
    own = [(binding, False) for binding in screen.BINDINGS]
    for binding, of_app in [*own, *((binding, True) for binding in app_bindings)]:
        if not isinstance(binding, Binding) or not binding.description or binding.action in seen:
            continue
        if (of_app and binding.description in said) or not has_now(screen, binding, of_app):
            continue
        seen.add(binding.action)
        said.add(binding.description)
        result.append(binding)
    return result


def has_now(screen: Screen[object], binding: Binding, of_app: bool = False) -> bool:
    """Whether the screen has this key in its current mode: its check_action does not refuse it (Start on a
    capture, Advice's `a` while not narrowed to one subject), and it is not one of the screen's
    LIVE_ONLY_ACTIONS on a capture (they only say that the live host is needed)."""
    namespace, name, parameters = parse(binding.action)
    node = screen.app if of_app or namespace == "app" else screen
    if node.check_action(name, parameters) is False:
        return False
    root = getattr(screen, "root", None)
    live_only = name in getattr(screen, "LIVE_ONLY_ACTIONS", ())
    return not (live_only and root is not None and not getattr(root, "live", True))


def help_text(help_data: ScreenHelp, keys: list[tuple[str, str]]) -> list[Text | Table]:
    """The help as renderables: a paragraph, the keys, the words and colours, the sources."""
    parts: list[Text | Table] = [Text(help_data.title, style="bold underline"), Text(help_data.shows)]
    key_table = Table.grid(padding=(0, 2))
    key_table.add_column(style="bold cyan", no_wrap=True, width=max((len(key) for key, _ in keys), default=4))
    key_table.add_column(ratio=1)
    for key, meaning in keys:  # plain text: "[" and "[host busy]" are words here, not markup
        key_table.add_row(Text(key), Text(meaning))
    parts += [Text("\nKeys", style="bold"), key_table]
    if not help_data.words:
        return parts
    word_table = Table.grid(padding=(0, 2))
    word_table.add_column(no_wrap=True, width=max(len(word) for word, _, _ in help_data.words))
    word_table.add_column(ratio=1)
    for word, style, meaning in help_data.words:
        word_table.add_row(Text(word, style=style), Text(meaning))
    parts += [Text("\nColours and words", style="bold"), word_table,
              Text("\nWhere the figures come from", style="bold"),
              Text("\n".join(f"• {source}" for source in help_data.sources))]
    return parts


class HelpScreen(ModalScreen[None]):
    """Help for one screen; Esc, ?, F1 or q close it."""

    BINDINGS = [Binding("escape,question_mark,f1,q", "close", "Close help")]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > KeyedScroll { width: 96; max-width: 100%; height: auto; max-height: 100%;
                               border: thick $primary; background: $surface; padding: 0 1; }
    HelpScreen Static { height: auto; padding-right: 1; }  /* a cell between the text and the scrollbar */
    """

    def __init__(self, help_data: ScreenHelp, keys: list[tuple[str, str]]) -> None:
        super().__init__()
        self.help_data = help_data
        self.keys = keys

    def compose(self) -> ComposeResult:
        with KeyedScroll(id="help-body"):
            for part in help_text(self.help_data, self.keys):
                yield Static(part)

    def on_mount(self) -> None:
        body = self.query_one("#help-body", KeyedScroll)
        body.border_title = f"Help: {self.help_data.title}"
        body.border_subtitle = CLOSE_LINE
        body.focus()

    def action_close(self) -> None:
        self.dismiss(None)
