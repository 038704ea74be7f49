"""A footer that always fits one line: help first, then the keys in order, the last dropped when narrow."""

from __future__ import annotations

from collections.abc import Iterator

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer
from textual.widgets._footer import FooterKey, FooterLabel, KeyGroup

HELP_ACTION = "help"
GUIDES_ACTION = "guides"
"""The walkthroughs key comes right after help: a new user's way in on every screen."""
PALETTE_CELLS = 13
"""The docked "^p palette" key and its separator."""


class FittedFooter(Footer):
    """Compact footer; keys that do not fit are left out (they stay in F1 help and the palette).

    Order of importance: the help key, the guides key, then the focused widget's keys, then the screen's
    in the order they are declared, then the screen switcher (1 2 3). The least important go first.
    """

    def __init__(self) -> None:
        super().__init__(compact=True)
        self._fitted_width = 0

    def _shown(self) -> list[tuple[Binding, bool, str]]:
        """Bindings to show, one per action, help first."""
        by_action: dict[str, tuple[Binding, bool, str]] = {}
        for _, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show and binding.action not in by_action:
                by_action[binding.action] = (binding, enabled, tooltip)
        ordered = sorted(by_action.values(), key=lambda item: (item[0].action != HELP_ACTION,
                                                               item[0].action != GUIDES_ACTION))
        return ordered

    def _cells(self, binding: Binding) -> int:
        key = self.app.get_key_display(binding)
        if binding.group is not None:  # a compact group: its keys side by side, no space between
            return len(key)
        return len(key) + 1 + len(binding.description) + 1

    def _fitting(self, width: int) -> list[tuple[Binding, bool, str]]:
        shown = self._shown()
        grouped = [item for item in shown if item[0].group is not None]
        group_cells = sum(self._cells(b) for b, _, _ in grouped) + (
            len(grouped[0][0].group.description) + 2 if grouped and grouped[0][0].group else 0)
        single = [item for item in shown if item[0].group is None]
        room = width - PALETTE_CELLS - group_cells
        while single and sum(self._cells(b) for b, _, _ in single) > room:
            single.pop()
        return single + grouped

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        self._fitted_width = self.size.width or self.app.size.width
        items = self._fitting(self._fitted_width)
        self.styles.grid_size_columns = len(items)
        yield from self._single_keys([item for item in items if item[0].group is None])
        grouped = [item for item in items if item[0].group is not None]
        if grouped and grouped[0][0].group is not None:
            with KeyGroup(classes="-compact"):
                for binding, enabled, tooltip in grouped:
                    yield FooterKey(binding.key, self.app.get_key_display(binding), "", binding.action,
                                    disabled=not enabled, tooltip=tooltip or binding.description,
                                    classes="-grouped").data_bind(compact=Footer.compact)
            yield FooterLabel(grouped[0][0].group.description)
        yield from self._palette_key()

    def _single_keys(self, items: list[tuple[Binding, bool, str]]) -> Iterator[FooterKey]:
        for binding, enabled, tooltip in items:
            yield FooterKey(binding.key, self.app.get_key_display(binding), binding.description,
                            binding.action, disabled=not enabled,
                            tooltip=tooltip).data_bind(compact=Footer.compact)

    def _palette_key(self) -> Iterator[FooterKey]:
        if not (self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE):
            return
        found = self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        if found is None:
            return
        _, binding, enabled, _ = found
        yield FooterKey(binding.key, self.app.get_key_display(binding), binding.description, binding.action,
                        classes="-command-palette", disabled=not enabled,
                        tooltip=binding.tooltip or binding.description)

    def on_resize(self, event: events.Resize) -> None:
        """Fit again when the terminal width changes."""
        if event.size.width != self._fitted_width and self._bindings_ready:
            self.call_after_refresh(self.recompose)
