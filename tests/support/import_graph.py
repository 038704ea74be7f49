"""The import graph of this checkout's diskdoctor modules, read from the source (top-level and lazy imports).

Used by tests/test_layering.py and by docs/dev/architecture.md's generated module list."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
PACKAGES = {"app": "diskdoctor.app", "probes": "diskdoctor.probes", "widgets": "diskdoctor.widgets"}


@dataclass(frozen=True)
class Module:
    """One module: its dotted name, its file, its docstring's first sentence and what it imports."""

    name: str
    path: Path
    summary: str
    imports: frozenset[str]
    """Every diskdoctor module it imports anywhere (module level, in functions, for type checking)."""
    on_import: frozenset[str]
    """Those imported when it is imported: module-level imports outside `if TYPE_CHECKING:`."""

    @property
    def relative(self) -> str:
        """Its file relative to the repository."""
        return str(self.path.relative_to(REPO))


def _name_of(path: Path, top: str) -> str:
    parts = list(path.relative_to(REPO / top).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join([PACKAGES[top], *parts])


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _summary(tree: ast.Module) -> str:
    doc = " ".join((ast.get_docstring(tree) or "").split("\n\n")[0].split())
    return doc


def _eager_imports(body: list[ast.stmt]) -> list[ast.stmt]:
    """The import statements of a module body that run on import (also inside try/if, not TYPE_CHECKING)."""
    found: list[ast.stmt] = []
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, ast.If) and "TYPE_CHECKING" not in ast.unparse(node.test):
            found += _eager_imports(node.body) + _eager_imports(node.orelse)
        elif isinstance(node, ast.Try):
            found += _eager_imports(node.body) + _eager_imports(node.orelse) + _eager_imports(node.finalbody)
            for handler in node.handlers:
                found += _eager_imports(handler.body)
    return found


def read_modules() -> dict[str, Module]:
    """Every module under app/, probes/ and widgets/ with the diskdoctor modules it imports."""
    files = {_name_of(path, top): path for top in PACKAGES for path in sorted((REPO / top).rglob("*.py"))}
    modules = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text())
        found: set[str] = set()
        eager = {id(node) for node in _eager_imports(tree.body)}
        on_import: set[str] = set()
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom):
                base = _resolve(name, path.name == "__init__.py", node)
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in files else base
                           for alias in node.names]
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            for target in targets:
                while target and target not in files:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    found.add(target)
                    if id(node) in eager:
                        on_import.add(target)
        modules[name] = Module(name, path, _summary(tree), frozenset(found), frozenset(on_import))
    return modules


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    counter = 0
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def longest_chain(graph: dict[str, set[str]]) -> list[str]:
    """The longest path of imports (a cycle counts as one step), as the modules along it, top first."""
    merged = {node: node for node in graph}
    for component in cycles(graph):
        head = min(component)
        for member in component:
            merged[member] = head
    depth: dict[str, list[str]] = {}

    def chain(node: str) -> list[str]:
        if node not in depth:
            depth[node] = [node]
            below = [chain(child) for child in graph[node]
                     if merged[child] != merged[node] and child in graph]
            depth[node] = [node, *max(below, key=len, default=[])]
        return depth[node]

    return max((chain(node) for node in sorted(graph)), key=len, default=[])
