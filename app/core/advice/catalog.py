"""The catalog of rules: importing it registers every rule module with the findings registry.

Registration order breaks severity ties, so the modules are imported in one fixed order (bench, etcd
metrics, geometry after the mount rules it reuses, hardware, queues, software, TRIM, TRIM-LONG)."""

from __future__ import annotations

from ..bench import rules as bench
from ..trim import rules as trim
from .rules import etcd_metrics, geometry, hardware, mounts, queues, software, trim_long

RULE_MODULES = (bench, etcd_metrics, geometry, hardware, mounts, queues, software, trim, trim_long)
"""Every module that registers rules (static imports: the frozen binary holds them all)."""
