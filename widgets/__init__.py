"""Textual widgets that draw the values they are given; they never import probes."""

from __future__ import annotations

from .finding_card import CardContent, FindingCard
from .latency_bars import LatencyBars
from .layer_table import DetailGroup, DetailRow, LayerTable
from .layer_time_table import LayerTimeRow, LayerTimeTable
from .percentile_chart import PercentileChart
from .stack_tree import StackRow, StackTree

__all__ = ["CardContent", "DetailGroup", "DetailRow", "FindingCard", "LatencyBars", "LayerTable",
           "LayerTimeRow", "LayerTimeTable", "PercentileChart", "StackRow", "StackTree"]
