"""Command palette entries: every action of every screen, with its key, runnable from anywhere."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from textual.actions import parse as parse_action
from textual.app import SystemCommand
from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.screen import Screen

if TYPE_CHECKING:
    from .app import DiskDoctorApp


@dataclass(frozen=True)
class ScreenAction:
    """One palette entry: which screen, which action, the key that does the same, and what it does."""

    mode: str
    screen_title: str
    action: str
    key: str
    description: str
    help: str

    @property
    def text(self) -> str:
        """e.g. "Benchmark: Start (s)"."""
        return f"{self.screen_title}: {self.description} ({self.key})"


def works_here(app: DiskDoctorApp, screen_class: type[Screen[None]], binding: Binding,
               opened_on: Screen[object] | None = None) -> bool:
    """Whether `binding` of a screen of `screen_class` works now: on the screen the palette opened on, as F1
    says it (help_screen.has_now); on another, none of the class's LIVE_ONLY_ACTIONS on a capture (Pause and
    Watch on the Monitor, Trim now, a benchmark's Start)."""
    if type(opened_on) is screen_class:
        from .help_screen import has_now  # loaded with the palette, not at start-up

        return has_now(opened_on, binding)
    _, name, _ = parse_action(binding.action)  # "workload(-1)": the action "workload"
    return app.root_to_read.live or name not in getattr(screen_class, "LIVE_ONLY_ACTIONS", frozenset())


def screen_actions(app: DiskDoctorApp, first: str | None = None,
                   opened_on: Screen[object] | None = None) -> list[ScreenAction]:
    """Every described binding of every screen that works there now (`works_here`), those of the screen
    `first` (the one the palette opened on, `opened_on`) first, then the app's own (switch screen, help)
    and the guides."""
    actions = []
    modes = sorted(app.SCREENS_BY_MODE, key=lambda mode: mode != first)  # stable: the rest keep their order
    for mode in modes:
        title = app.SCREENS_BY_MODE[mode][0]
        screen_class = app.screen_class(mode)
        for binding in screen_class.BINDINGS:
            if not isinstance(binding, Binding) or binding.action.startswith("app."):
                continue
            if binding.description and works_here(app, screen_class, binding, opened_on):
                actions.append(ScreenAction(mode, title, binding.action, app.get_key_display(binding),
                                            binding.description, binding.tooltip))
    for binding in app.BINDINGS:
        if isinstance(binding, Binding) and binding.description:
            actions.append(ScreenAction("", "diskdoctor", binding.action, app.get_key_display(binding),
                                        binding.description, binding.tooltip))
    from .app import GUIDES_KEY
    from .guides.catalog import guides

    guides_key = app.get_key_display(Binding(GUIDES_KEY, "guides"))
    for guide in guides():
        actions.append(ScreenAction("", "Guide", f"open_guide({guide.key!r})", guides_key, guide.title,
                                    guide.about))
    return actions


OTHER_SCREEN_SCORE = 0.95
"""For the same match, the commands of the screen the palette opened on come before other screens'."""
SYSTEM_SCORE = 0.5
"""Textual's own commands (theme, keys, screenshot, quit) rank below the app's for the same match."""


class ScreenActionsProvider(Provider):
    """Finds "bench", "trim", "sources"... in every screen's actions (the footer only shows one screen's),
    then Textual's own commands after them."""

    def _app(self) -> DiskDoctorApp:
        return self.app  # type: ignore[return-value]

    def _hits(self) -> list[tuple[ScreenAction, object]]:
        app = self._app()
        return [(action, partial(app.run_screen_action, action.mode, action.action))
                for action in screen_actions(app, app.current_mode, self.screen)]

    def _system(self) -> list[SystemCommand]:
        """Textual's commands for the screen the palette was opened on, by name."""
        return sorted(self.app.get_system_commands(self.screen), key=lambda command: command.title)

    async def discover(self) -> Hits:
        for action, command in self._hits():
            yield DiscoveryHit(action.text, command, help=action.help or None)  # type: ignore[arg-type]
        for system in self._system():
            if system.discover:
                yield DiscoveryHit(system.title, system.callback, help=system.help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for action, command in self._hits():
            score = max(matcher.match(action.text), matcher.match(action.help) * 0.8)
            if action.mode != self._app().current_mode:
                score *= OTHER_SCREEN_SCORE
            if score > 0:
                yield Hit(score, matcher.highlight(action.text), command,  # type: ignore[arg-type]
                          help=action.help or None)
        for system in self._system():
            score = matcher.match(system.title)
            if score > 0:
                yield Hit(score * SYSTEM_SCORE, matcher.highlight(system.title), system.callback,
                          help=system.help)
