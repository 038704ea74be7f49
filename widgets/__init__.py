"""Textual widgets that draw the values they are given; they never import probes."""

from __future__ import annotations

from .finding_card import CardContent, FindingCard
from .layer_table import DetailGroup, DetailRow, LayerTable
from .stack_tree import StackRow, StackTree

__all__ = ["CardContent", "DetailGroup", "DetailRow", "FindingCard", "LayerTable", "StackRow", "StackTree"]
