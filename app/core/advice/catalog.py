"""The catalog of rules: importing it registers every rule module with the findings registry.

Registration order breaks severity ties, so the modules are imported in one fixed order (bench, TRIM,
etcd metrics, mounts, geometry, hardware, queues, software, TRIM-LONG): within each scope the same order
as when the registry imported them itself."""

from __future__ import annotations

from ..bench import caveat_rules as bench_caveats
from ..bench import rules as bench
from ..trim import rules as trim

# isort: off
from .rules import etcd_metrics, mounts  # mounts before geometry, as the rules registered before
from .rules import geometry, hardware, queues, software, trim_long
# isort: on

RULE_MODULES = (bench, bench_caveats, etcd_metrics, geometry, hardware, mounts, queues, software, trim,
                trim_long)
"""Every module that registers rules (static imports: the frozen binary holds them all)."""
