"""The findings registry: every rule is a small function registered with its metadata; it imports no rule
module (the advice catalog does)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .finding import Finding
from .vocabulary import Severity, Word

TYPE_CHECKING = False  # not typing's: importing typing costs every start-up ~2 ms
if TYPE_CHECKING:
    from typing import Any


class Scope(Word):
    """What a rule looks at, which decides the context it is called with."""

    TRIM = "trim"
    """One mounted filesystem's TRIM context (core.trim.rules.TrimContext)."""
    FILESYSTEM = "filesystem"
    """One mounted filesystem on a block device (core.advice.contexts.FsContext)."""
    DEVICE = "device"
    """One block device (core.advice.contexts.DeviceContext)."""
    HOST = "host"
    """The whole host, once (core.advice.contexts.AdviceInput)."""
    BENCH = "bench"
    """One benchmark result document (core.bench.rules.BenchContext)."""


@dataclass(frozen=True)
class Rule:
    """One rule: the ids it can report, what it checks, its worst severity and the sources behind it."""

    ids: tuple[str, ...]
    scope: Scope
    checks: str
    severity: Severity
    sources: tuple[str, ...]
    run: Callable[[Any], Iterable[Finding]]

    @property
    def name(self) -> str:
        """The function's name, e.g. crypt_blocked."""
        return getattr(self.run, "__name__", self.ids[0])


_REGISTRY: list[Rule] = []


def rule(*ids: str, scope: Scope, checks: str, severity: Severity,
         sources: tuple[str, ...] = ()) -> Callable[[Callable[[Any], Iterable[Finding]]],
                                                   Callable[[Any], Iterable[Finding]]]:
    """Register the decorated function as a rule (in definition order, which breaks severity ties)."""
    def register(function: Callable[[Any], Iterable[Finding]]) -> Callable[[Any], Iterable[Finding]]:
        _REGISTRY.append(Rule(tuple(ids), scope, checks, severity, sources, function))
        return function
    return register


def all_rules() -> list[Rule]:
    """Every rule registered so far (the advice catalog imports every rule module, so with it: all)."""
    return list(_REGISTRY)


def rules_for(scope: Scope) -> list[Rule]:
    """The rules of one scope, in registration order."""
    return [entry for entry in all_rules() if entry.scope == scope]


def run_rules(scope: Scope, context: object) -> list[Finding]:
    """Every finding the rules of `scope` report for one context, in rule order."""
    return [finding for entry in rules_for(scope) for finding in entry.run(context)]


def rule_for_id(finding_id: str) -> Rule | None:
    """The rule that reports `finding_id`, for its metadata (sources, what it checks)."""
    return next((entry for entry in all_rules() if finding_id in entry.ids), None)
