"""The TRIM details' layers, one line each at the width they are drawn in: the names whole where they
fit, each sysfs source path shortened to its device before a name is cut."""

from __future__ import annotations

import re

from diskdoctor.probes.discard_path import DiscardLayer
from diskdoctor.widgets.fit_text import distinct_cut
from rich.cells import cell_len
from rich.text import Text

from ..base.formatting import human_bytes
from ..core.trim.doctor import TrimVerdict, layer_marker

SYSFS_SOURCE = re.compile(r"^/sys/block/(?P<device>[^/\s]+)/queue/discard_max_bytes$")
"""Where a layer's discard limits are read: only its device differs from layer to layer."""
NAME_MIN_CELLS = 12
"""A layer's name is never cut shorter than this (its lines wrap instead)."""
HEADING = "Layers, top to bottom (discard_max_bytes / granularity):"
SHORT_HEADING = "Layers, top down (discard_max_bytes / granularity in /sys/block/DEV/queue):"
"""The heading when each line names only its DEV (the full paths would not leave the names whole)."""


def _sources(layers: tuple[DiscardLayer, ...], short: bool) -> list[str]:
    """Each layer's source as its line shows it: the full path, or (`short`) the device of its sysfs path."""
    if not short:
        return [layer.source for layer in layers]
    return [found["device"] if (found := SYSFS_SOURCE.match(layer.source)) else layer.source
            for layer in layers]


def _fixed_cells(layers: tuple[DiscardLayer, ...], markers: list[str], sources: list[str]) -> int:
    """The cells of a layer line besides its name: indent, kind, limits, source and the widest marker."""
    kind = max((len(layer.kind) for layer in layers), default=0)
    marker = max((len(f"  ← {m}") for m in markers if m), default=0)
    return 2 + 2 + kind + 2 + len("000.0G / 000.0G") + 2 + max(map(cell_len, sources), default=0) + marker


def layer_lines(verdict: TrimVerdict, width: int = 0) -> Text:
    """The heading and one line per layer (name, kind, discard_max_bytes / granularity, source, a marker on
    the layer that stops discard), fitted to `width` cells (0: as wide as they are): the full source paths
    when every name stays whole beside them, else each source's device (the heading names the folder), else
    the names cut in the middle, keeping the end that tells them apart, to no less than NAME_MIN_CELLS."""
    layers = verdict.reach.layers
    markers = [layer_marker(verdict, layer.kname) or "" for layer in layers]
    longest = max((cell_len(layer.name) for layer in layers), default=0)
    short = False
    sources = _sources(layers, short)
    if width and longest + _fixed_cells(layers, markers, sources) > width:
        short = all(SYSFS_SOURCE.match(layer.source) for layer in layers)
        sources = _sources(layers, short)
    room = width - _fixed_cells(layers, markers, sources) if width else longest
    name_width = max(min(longest, room), min(longest, NAME_MIN_CELLS))
    names = frozenset(layer.name for layer in layers)
    kind_width = max((len(layer.kind) for layer in layers), default=0)
    source_width = max(map(cell_len, sources), default=0) if any(markers) else 0  # the markers line up
    text = Text(SHORT_HEADING if short else HEADING, "bold")
    for layer, marker, source in zip(layers, markers, sources, strict=True):
        name = distinct_cut(layer.name, name_width, names)
        name += " " * (name_width - cell_len(name))
        text.append(f"\n  {name}  {layer.kind:<{kind_width}}  {human_bytes(layer.discard_max_bytes):>6} / "
                    f"{human_bytes(layer.discard_granularity):<6}", "bold red" if marker else "")
        text.append(f"  {source:<{source_width}}" if marker else f"  {source}", "dim")
        text.append(f"  ← {marker}" if marker else "", "bold red")
    return text
