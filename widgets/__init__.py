"""Textual widgets that draw the values they are given; they never import probes.

Names are imported on first use, so importing one widget module does not load every other one; the only
code of ours they use is app/base (units).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

_HOMES = {"CardContent": "finding_card", "FindingCard": "finding_card", "LatencyBars": "latency_bars",
          "DetailGroup": "layer_table", "DetailRow": "layer_table", "LayerTable": "layer_table",
          "LayerTimeRow": "layer_time_table", "LayerTimeTable": "layer_time_table",
          "PercentileChart": "percentile_chart", "StackRow": "stack_tree", "StackTree": "stack_tree",
          "StatusLine": "status_line", "TextField": "text_field"}

if TYPE_CHECKING:
    from .finding_card import CardContent, FindingCard
    from .latency_bars import LatencyBars
    from .layer_table import DetailGroup, DetailRow, LayerTable
    from .layer_time_table import LayerTimeRow, LayerTimeTable
    from .percentile_chart import PercentileChart
    from .stack_tree import StackRow, StackTree
    from .status_line import StatusLine
    from .text_field import TextField

__all__ = ["CardContent", "DetailGroup", "DetailRow", "FindingCard", "LatencyBars", "LayerTable",
           "LayerTimeRow", "LayerTimeTable", "PercentileChart", "StackRow", "StackTree", "StatusLine",
           "TextField"]


def __getattr__(name: str) -> Any:
    """Import a widget's module when its name is first used."""
    if name not in _HOMES:
        raise AttributeError(name)
    return getattr(import_module(f".{_HOMES[name]}", __name__), name)
