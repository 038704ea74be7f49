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
"""The docked "^p palette" key and its separator (it keeps its word: a new user's way to every command)."""
KEPT_ACTIONS = frozenset({HELP_ACTION, GUIDES_ACTION, "filter", "app.quit", "quit", "write_report"})
"""Keys that stay at every width: help, guides, the filter, quit and the report; others are left out first."""
Shown = tuple[Binding, bool, str]
"""A binding to show, whether it is enabled, and its tooltip."""
SHORT_LABELS = {"Run again": "Again", "Run longer": "Longer", "fio side by side": "fio",
                "Re-read stack": "Re-read", "Directory": "Dir", "Direction": "Dir", "Threshold": "Limit",
                "Expand all": "Expand", "Clear picks": "Clear", "Watch a database": "Watch",
                "Stop and save": "Stop", "Leave field": "Leave", "Peak window": "Peak", "Copy fixes": "Copy",
                "Sources": "Src"}
"""A key's label in few cells, for a narrow terminal (else its first word); every label stays whole in F1
help and the palette."""


MAX_LEFT_OUT_IN_FULL = 1
"""Full labels stay while they leave out at most this many keys (the last declared, e.g. w Report); more,
and every key gets its short label instead."""


def short_label(description: str) -> str:
    """The label a key shows when the full ones do not all fit."""
    return SHORT_LABELS.get(description, description.split(" ")[0])


class FittedFooter(Footer):
    """Compact footer that always fits one line: the keys with their full labels when at most one is left
    out for room, else with short ones (and the palette key without its word), and only then the last keys
    left out (they stay in F1 help and the palette).

    Order of importance: the help key, the guides key, then the focused widget's keys, then the screen's
    in the order they are declared; key groups (the screen switcher 1-6, a screen's own) always show.
    """

    DEFAULT_CSS = """
    FittedFooter KeyGroup.-spaced { margin: 0; }
    FittedFooter KeyGroup.-spaced FooterKey.-grouped { margin: 0 1 0 0; }
    """

    def __init__(self) -> None:
        super().__init__(compact=True)
        self._fitted_width = 0
        self.short = False
        """Whether the keys show their short labels (the terminal is too narrow for the full ones)."""

    def _shown(self) -> list[Shown]:
        """Bindings to show, one per action, help first."""
        by_action: dict[str, tuple[Binding, bool, str]] = {}
        for _, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show and binding.action not in by_action:
                by_action[binding.action] = (binding, enabled, tooltip)
        ordered = sorted(by_action.values(), key=lambda item: (item[0].action != HELP_ACTION,
                                                               item[0].action != GUIDES_ACTION))
        return ordered

    def _label(self, binding: Binding) -> str:
        return short_label(binding.description) if self.short else binding.description

    def _cells(self, binding: Binding) -> int:
        key = self.app.get_key_display(binding)
        if binding.group is not None:  # a group: its keys side by side (a space between unless compact)
            return len(key) + (0 if binding.group.compact else 1)
        return len(key) + 1 + len(self._label(binding)) + 1

    def _group_cells(self, group: Binding.Group, items: list[Shown]) -> int:
        """The cells a key group takes: its keys and its label, or "1-6" alone when short."""
        if self.short and _span(items):
            return len(_span(items)) + 2
        return sum(self._cells(b) for b, _, _ in items) + len(group.description) + 2

    @staticmethod
    def _groups(shown: list[Shown]) -> dict[Binding.Group, list[Shown]]:
        """The grouped keys by their group, in order."""
        groups: dict[Binding.Group, list[Shown]] = {}
        for item in shown:
            if item[0].group is not None:
                groups.setdefault(item[0].group, []).append(item)
        return groups

    def _fitting(self, width: int) -> list[Shown]:
        """The keys that fit in `width`; sets `short` when they fit only with short labels."""
        shown = self._shown()
        groups = self._groups(shown)
        single = [item for item in shown if item[0].group is None]
        for self.short in (False, True):
            group_cells = sum(self._group_cells(group, items) for group, items in groups.items())
            room = width - PALETTE_CELLS - group_cells
            fitting = list(single)
            while sum(self._cells(b) for b, _, _ in fitting) > room:
                optional = [item for item in fitting if item[0].action not in KEPT_ACTIONS]
                if not optional:
                    break
                fitting.remove(optional[-1])  # the last declared of the keys that may go
            for item in single:  # a shorter key left out may still fit in the room the others left
                used = sum(self._cells(b) for b, _, _ in fitting)
                if item not in fitting and used + self._cells(item[0]) <= room:
                    fitting = [kept for kept in single if kept in fitting or kept is item]
            if len(single) - len(fitting) <= MAX_LEFT_OUT_IN_FULL:
                break
        return fitting + [item for items in groups.values() for item in items]

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        self._fitted_width = self.size.width or self.app.size.width
        items = self._fitting(self._fitted_width)
        singles = [item for item in items if item[0].group is None]
        groups = self._groups(items)
        self.styles.grid_size_columns = len(singles) + 2 * len(groups) + 1
        yield from self._single_keys(singles)
        for group, grouped in groups.items():
            span = _span(grouped) if self.short else ""
            if span:  # "1-6": the screen keys in three cells
                binding, enabled, _ = grouped[0]
                with KeyGroup(classes="-compact"):
                    yield FooterKey(binding.key, span, "", binding.action, disabled=not enabled,
                                    tooltip=f"{span}: {group.description}",
                                    classes="-grouped").data_bind(compact=Footer.compact)
                continue
            with KeyGroup(classes="-compact" if group.compact else "-compact -spaced"):
                for binding, enabled, tooltip in grouped:
                    yield FooterKey(binding.key, self.app.get_key_display(binding), "", binding.action,
                                    disabled=not enabled, tooltip=tooltip or binding.description,
                                    classes="-grouped").data_bind(compact=Footer.compact)
            yield FooterLabel(group.description)
        yield from self._palette_key()

    def _single_keys(self, items: list[Shown]) -> Iterator[FooterKey]:
        for binding, enabled, tooltip in items:
            yield FooterKey(binding.key, self.app.get_key_display(binding), self._label(binding),
                            binding.action, disabled=not enabled,
                            tooltip=tooltip or binding.description).data_bind(compact=Footer.compact)

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


def _span(items: list[Shown]) -> str:
    """"1-6" for a group of consecutive one-digit keys (the screen switcher), else ""."""
    keys = [binding.key for binding, _, _ in items]
    if len(keys) < 3 or not all(len(key) == 1 and key.isdigit() for key in keys):
        return ""
    if [int(key) for key in keys] != list(range(int(keys[0]), int(keys[0]) + len(keys))):
        return ""
    return f"{keys[0]}-{keys[-1]}"
