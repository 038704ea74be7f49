"""A footer that shows every key of the screen, its own first and then the app's: on one line where all fit
(parted by a "│"), else on two."""

from __future__ import annotations

from collections.abc import Iterator

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import HorizontalGroup
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey, FooterLabel, KeyGroup

HELP_ACTION = "help"
GUIDES_ACTION = "guides"
"""The walkthroughs key comes right after help: a new user's way in on every screen."""
QUIT_ACTIONS = frozenset({"app.quit", "quit"})
"""Quit is declared by each screen but does the same everywhere: on two lines it sits with the app's keys."""
PALETTE_CELLS = 13
"""The docked "^p palette" key and its separator (it keeps its word: a new user's way to every command)."""
KEPT_ACTIONS = frozenset({HELP_ACTION, GUIDES_ACTION, "filter", *QUIT_ACTIONS, "write_report"})
"""Keys that stay at every width: help, guides, the filter, quit and the report; others are left out first
(only where a line cannot hold its keys even with short labels)."""
GAP = "│ "
"""Between the screen's own keys and the same-everywhere ones on a single line, as k9s and htop part them."""
GAP_CELLS = len(GAP) + 1
Shown = tuple[Binding, bool, str]
"""A binding to show, whether it is enabled, and its tooltip."""
SHORT_LABELS = {"Run again": "Again", "Run longer": "Longer", "fio side by side": "fio",
                "Re-read stack": "Re-read", "Directory": "Dir", "Direction": "Dir", "Threshold": "Threshold",
                "Expand all": "Expand", "Clear picks": "Clear", "Watch a database": "Watch",
                "Stop and save": "Stop", "Leave field": "Leave", "Peak window": "Peak", "Copy fixes": "Copy",
                "Sources": "Src"}
"""A key's label in few cells, for a narrow terminal (else its first word); every label stays whole in F1
help and the palette."""


def peer_lines(node: DOMNode, screen: Screen, width: int) -> int:
    """The lines the footers of `screen`'s peers take at `width` (the app's `footer_lines(screen, width)`,
    else 1): a screen's footer takes at least as many, so the content area keeps its height between them."""
    lines = getattr(node.app, "footer_lines", None)
    return int(lines(screen, width)) if callable(lines) else 1


def short_label(description: str) -> str:
    """The label a key shows when the full ones do not all fit."""
    return SHORT_LABELS.get(description, description.split(" ")[0])


class FittedFooter(Footer):
    """Compact footer that shows every key of the screen, as htop's and nano's do.

    One line when every key the screen declares fits on it with its full label: the screen's own keys,
    a "│", then the keys that are the same on every screen (help first), as k9s and htop part them; else two
    lines: the screen's own keys above (the focused widget's first, then the screen's in the order they are
    declared), and under them the keys that are the same on every screen (help, guides, quit, report, the
    screen switcher 1-6 and the palette). Only a line too narrow even for that (under about 70 columns)
    takes short labels, then loses keys, the last declared first; F1 help and the palette list every key.
    """

    DEFAULT_CSS = """
    FittedFooter KeyGroup.-spaced { margin: 0; }
    FittedFooter KeyGroup.-spaced FooterKey.-grouped { margin: 0 1 0 0; }
    FittedFooter.-two-lines { layout: vertical; height: 2; }
    FittedFooter .footer-line { width: 1fr; height: 1; }
    """

    def __init__(self) -> None:
        super().__init__(compact=True)
        self._fitted_width = 0
        self.short = False
        """Whether the screen's own keys show their short labels (the terminal is too narrow for the full)."""
        self._own_count = 0
        """On one line, how many of its keys are the screen's own (they come first, then a gap)."""
        self.lines = 1
        """How many lines the keys take: 2 when the screen's keys do not all fit on one."""
        self._composed: tuple[object, ...] | None = None
        """What the keys were last composed from (see `_layout_key`)."""

    def _shown(self) -> list[tuple[DOMNode, Binding, bool, str]]:
        """Bindings to show with the node that declares them, one per action, help first."""
        by_action: dict[str, tuple[DOMNode, Binding, bool, str]] = {}
        for node, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show and binding.action not in by_action:
                by_action[binding.action] = (node, binding, enabled, tooltip)
        return sorted(by_action.values(), key=lambda item: (item[1].action != HELP_ACTION,
                                                            item[1].action != GUIDES_ACTION))

    def _label(self, binding: Binding, short: bool) -> str:
        return short_label(binding.description) if short else binding.description

    def _cells(self, binding: Binding, short: bool) -> int:
        key = self.app.get_key_display(binding)
        if binding.group is not None:  # a group: its keys side by side (a space between unless compact)
            return len(key) + (0 if binding.group.compact else 1)
        return len(key) + 1 + len(self._label(binding, short)) + 1

    def _group_cells(self, group: Binding.Group, items: list[Shown], short: bool) -> int:
        """The cells a key group takes: its keys and its label ("1-6 screens": a range of keys says it is
        one, where "123456" read as one key), or "1-6" alone when short."""
        if _span(items):
            return len(_span(items)) + 2 + (0 if short else len(group.description))
        return sum(self._cells(b, short) for b, _, _ in items) + len(group.description) + 2

    def _line_cells(self, items: list[Shown], short: bool) -> int:
        """The cells a line of these keys takes."""
        groups = _groups(items)
        return (sum(self._cells(b, short) for b, _, _ in items if b.group is None)
                + sum(self._group_cells(group, grouped, short) for group, grouped in groups.items()))

    def _fit_line(self, items: list[Shown], room: int,
                  every: list[Shown] | None = None) -> tuple[list[Shown], bool]:
        """The keys of one line that fit in `room` cells and whether they take short labels: full labels when
        all fit (and all of `every`, the keys the line may come to show, so a label does not change as keys
        come and go: newuser8 saw `/ Directory t Threshold` during a run, `/ Dir t Limit` after it), else
        short ones, and only then the last declared of the keys that may go are left out."""
        if self._line_cells(items, short=False) <= room and \
                (every is None or self._line_cells(every, short=False) <= room):
            return items, False
        groups = _groups(items)
        room -= sum(self._group_cells(group, grouped, True) for group, grouped in groups.items())
        single = [item for item in items if item[0].group is None]
        fitting = list(single)
        while sum(self._cells(b, True) for b, _, _ in fitting) > room:
            optional = [item for item in fitting if item[0].action not in KEPT_ACTIONS]
            if not optional:
                break
            fitting.remove(optional[-1])
        for item in single:  # a shorter key left out may still fit in the room the others left
            used = sum(self._cells(b, True) for b, _, _ in fitting)
            if item not in fitting and used + self._cells(item[0], True) <= room:
                fitting = [kept for kept in single if kept in fitting or kept is item]
        return fitting + [item for grouped in groups.values() for item in grouped], True

    def _declared(self) -> list[Shown]:
        """Every key the screen and the app declare for the footer, whether or not it is shown right now (a
        key that comes and goes with the state, e.g. Cancel while a run goes, keeps its room)."""
        declared: dict[str, Shown] = {}
        for node in (self.screen, self.app):
            for cls in type(node).__mro__:
                for binding in Binding.make_bindings(cls.__dict__.get("BINDINGS", ())):
                    if binding.show and binding.description and binding.action not in declared:
                        declared[binding.action] = (binding, True, "")
        return list(declared.values())

    def _declared_own(self, own: list[Shown]) -> list[Shown]:
        """The screen's own keys it may come to show (those it declares, and those shown now); only those
        shown now while a focused field shows keys of its own (typing a filter is a mode of its own)."""
        app_actions = {binding.action for cls in type(self.app).__mro__
                       for binding in Binding.make_bindings(cls.__dict__.get("BINDINGS", ()))}
        screen = [item for item in self._declared()
                  if item[0].action not in app_actions and item[0].action not in QUIT_ACTIONS]
        screen_actions = {binding.action for binding, _, _ in screen}
        if any(binding.action not in screen_actions for binding, _, _ in own):
            return own
        every = {binding.action: (binding, enabled, tooltip) for binding, enabled, tooltip in own}
        for binding, enabled, tooltip in screen:
            every.setdefault(binding.action, (binding, enabled, tooltip))
        return list(every.values())

    def _fits_one_line(self, items: list[Shown], width: int) -> bool:
        """Whether one line holds these keys with their full labels and the palette key."""
        return self._line_cells(items, short=False) + PALETTE_CELLS <= width

    def _lines(self, width: int) -> list[tuple[list[Shown], bool]]:
        """The keys line by line, each with whether it takes short labels (the palette key is docked right
        on the last line). One line only when every key the screen declares fits on it with its full label
        and its peers' footers take one line too (newuser18 saw the content area grow and shrink by a row
        between screens at 120), so the footer does not grow and shrink as keys come and go with the screen's
        state or as the user switches screens; short labels only where a line cannot hold the full ones."""
        lines = self.own_lines(width)
        if len(lines) < peer_lines(self, self.screen, width):
            every = [item for items, _ in lines for item in items]
            own = every[:self._own_count]
            self._own_count = 0
            return [(own, False), self._fit_line(every[len(own):], width - PALETTE_CELLS)]
        return lines

    def own_lines(self, width: int) -> list[tuple[list[Shown], bool]]:
        """The keys line by line as this screen alone needs them (see `_lines`)."""
        shown = self._shown()
        self._own_count = 0
        every = [(binding, enabled, tooltip) for _, binding, enabled, tooltip in shown]
        own = [(b, e, t) for node, b, e, t in shown if node is not self.app and b.action not in QUIT_ACTIONS]
        app_wide = [item for item in every if item not in own]
        if not own:  # nothing of the screen's own to show (a benchmark on a capture): no empty line
            return [self._fit_line(every, width - PALETTE_CELLS)]
        if self._fits_one_line(every, width - GAP_CELLS) and \
                self._fits_one_line(self._declared(), width - GAP_CELLS):
            self._own_count = len(own)
            return [(own + app_wide, False)]  # the screen's own keys first, then the same-everywhere ones
        return [self._fit_line(own, width, self._declared_own(own)),
                self._fit_line(app_wide, width - PALETTE_CELLS)]

    def bindings_changed(self, screen: Screen) -> None:
        """The screen's keys may have changed (focus moved, the screen came back): compose the keys again
        only if what they show did. Textual's Footer composes every key widget again each time, and a
        screen switch announced it several times: most of a switch's CPU, for the same keys."""
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen:
            self.call_after_refresh(self._recompose_if_changed)

    async def _recompose_if_changed(self) -> None:
        """Only on the screen on top: under a dialog or the palette the footer keeps the keys it showed (help
        is off while a modal is up, and newuser13 saw `F1 Help` drop from the footer under them at 80)."""
        if not self.is_attached or self.app.screen is not self.screen:
            return
        width = self.size.width or self.app.size.width
        if self._composed is None or self._layout_key(width, self._lines(width)) != self._composed:
            await self.recompose()

    def _layout_key(self, width: int, lines: list[tuple[list[Shown], bool]]) -> tuple[object, ...]:
        """Everything the composed keys show: the width, each line's keys (key, action, label, enabled,
        tooltip) with their short-label choice, and the palette key."""
        keys = tuple((tuple((binding.key, binding.action, binding.description, enabled, tooltip)
                            for binding, enabled, tooltip in items), short) for items, short in lines)
        palette = self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        shown_palette = (palette[1].key, palette[2]) if palette is not None else None
        return (width, keys, shown_palette, self.show_command_palette, self.compact)

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            self._composed = None
            return
        self._fitted_width = self.size.width or self.app.size.width
        lines = self._lines(self._fitted_width)
        self._composed = self._layout_key(self._fitted_width, lines)
        self.lines = len(lines)
        self.short = lines[0][1]
        self.set_class(self.lines > 1, "-two-lines")
        if self.lines == 1:
            items, short = lines[0]
            own, app_wide = items[:self._own_count], items[self._own_count:]
            yield from self._keys(own, short)
            if own and app_wide:  # a key group's label ends with no margin: a space before the "│" too
                yield FooterLabel((" " if _groups(own) else "") + GAP, classes="footer-gap")
            yield from self._keys(app_wide, short)
            yield from self._palette_key()
            return
        for number, (items, short) in enumerate(lines, 1):
            with HorizontalGroup(classes="footer-line"):
                yield from self._keys(items, short)
                if number == len(lines):
                    yield from self._palette_key()

    def _keys(self, items: list[Shown], short: bool) -> Iterator[FooterKey | FooterLabel | KeyGroup]:
        """One line's keys: the single keys, then the key groups."""
        for binding, enabled, tooltip in (item for item in items if item[0].group is None):
            yield FooterKey(binding.key, self.app.get_key_display(binding), self._label(binding, short),
                            binding.action, disabled=not enabled,
                            tooltip=tooltip or binding.description).data_bind(compact=Footer.compact)
        for group, grouped in _groups(items).items():
            span = _span(grouped)
            if span:  # "1-6": the screen keys in three cells, their label where the line has room
                binding, enabled, _ = grouped[0]
                with KeyGroup(classes="-compact"):
                    yield FooterKey(binding.key, span, "", binding.action, disabled=not enabled,
                                    tooltip=f"{span}: {group.description}",
                                    classes="-grouped").data_bind(compact=Footer.compact)
                if not short:
                    yield FooterLabel(group.description)
                continue
            with KeyGroup(classes="-compact" if group.compact else "-compact -spaced"):
                for binding, enabled, tooltip in grouped:
                    yield FooterKey(binding.key, self.app.get_key_display(binding), "", binding.action,
                                    disabled=not enabled, tooltip=tooltip or binding.description,
                                    classes="-grouped").data_bind(compact=Footer.compact)
            yield FooterLabel(group.description)

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


def _groups(items: list[Shown]) -> dict[Binding.Group, list[Shown]]:
    """The grouped keys by their group, in order."""
    groups: dict[Binding.Group, list[Shown]] = {}
    for item in items:
        if item[0].group is not None:
            groups.setdefault(item[0].group, []).append(item)
    return groups


def _span(items: list[Shown]) -> str:
    """"1-6" for a group of consecutive one-digit keys (the screen switcher), else ""."""
    keys = [binding.key for binding, _, _ in items]
    if len(keys) < 3 or not all(len(key) == 1 and key.isdigit() for key in keys):
        return ""
    if [int(key) for key in keys] != list(range(int(keys[0]), int(keys[0]) + len(keys))):
        return ""
    return f"{keys[0]}-{keys[-1]}"
