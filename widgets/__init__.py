"""Textual widgets that draw the values they are given; they never import probes."""

from __future__ import annotations

from .latency_bars import LatencyBars
from .layer_table import DetailGroup, DetailRow, LayerTable
from .layer_time_table import LayerTimeRow, LayerTimeTable
from .percentile_chart import PercentileChart
from .stack_tree import StackRow, StackTree

__all__ = ["DetailGroup", "DetailRow", "LatencyBars", "LayerTable", "LayerTimeRow", "LayerTimeTable",
           "PercentileChart", "StackRow", "StackTree"]
