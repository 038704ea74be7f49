"""The house of docs/dev/architecture.md: folders import only the ones below them, no cycles, few floors,
probes and the lower floors load no UI, widgets never import probes, and the document names every module."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from support.architecture_doc import ARCHITECTURE, render_modules, stale_section
from support.import_graph import cycles, longest_chain, read_modules

REPO = Path(__file__).parent.parent
LAYERS = (
    "diskdoctor.app.base",
    "diskdoctor.probes",
    "diskdoctor.app.core.process",
    "diskdoctor.app.core.stack",
    "diskdoctor.app.core.capture",
    "diskdoctor.app.core.findings",
    "diskdoctor.app.core.trim",
    "diskdoctor.app.core.snapshot",
    "diskdoctor.app.core.bench",
    "diskdoctor.app.core.runs",
    "diskdoctor.app.core.advice",
    "diskdoctor.app.core",
    "diskdoctor.app.text",
    "diskdoctor.app.report",
    "diskdoctor.app.cli",
    "diskdoctor.widgets",
    "diskdoctor.app.tui",
    "diskdoctor.app",
)
"""Bottom first: a module may import its own folder and the folders before it, never one after it."""
ALLOWED_CYCLES = [{"diskdoctor.app.tui.app", "diskdoctor.app.tui.commands"}]
"""Textual's command palette idiom: the App lists the palette provider, the provider drives the App."""
MAX_FLOORS = 10
NO_UI = {"diskdoctor.app.base": ("textual", "rich"), "diskdoctor.app.core": ("textual", "rich"),
         "diskdoctor.app.text": ("textual",), "diskdoctor.app.cli": ("textual",),
         "diskdoctor.probes": ("textual", "rich")}
"""What importing every module of a folder must not load."""

MODULES = read_modules()


def layer_of(module: str) -> int:
    """The index in LAYERS of the deepest folder holding `module`."""
    folder = max((folder for folder in LAYERS if module == folder or module.startswith(folder + ".")),
                 key=len)
    return LAYERS.index(folder)


def _loaded_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint('\\n'.join(sys.modules))"],
                         capture_output=True, text=True, check=True).stdout
    return set(out.split())


@pytest.mark.parametrize("folder", sorted(NO_UI))
def test_lower_floors_load_no_ui(folder: str) -> None:
    names = sorted(name for name in MODULES
                   if name.startswith(folder + ".") and not name.endswith("__main__"))
    loaded = _loaded_after("\n".join(f"import {name}" for name in names))
    ui = sorted(m for m in loaded if m.split(".")[0] in NO_UI[folder])
    assert ui == [], f"{folder} pulled in UI modules: {ui[:5]}"


def test_nothing_imports_upward() -> None:
    upward = [f"{name} -> {target}" for name, module in sorted(MODULES.items()) for target in module.imports
              if layer_of(target) > layer_of(name)]
    assert upward == []


def test_widgets_import_only_the_base() -> None:
    for path in (REPO / "widgets").glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            assert not any("probes" in name for name in names), f"{path.name} imports {names}"
    ours = {target for name, module in MODULES.items() if name.startswith("diskdoctor.widgets")
            for target in module.imports if not target.startswith("diskdoctor.widgets")}
    assert all(target.startswith("diskdoctor.app.base") for target in ours), sorted(ours)
    loaded = _loaded_after("import diskdoctor.widgets")
    assert "diskdoctor.probes" not in loaded


def test_no_import_cycles_but_the_palette_idiom() -> None:
    graph = {name: set(module.imports) for name, module in MODULES.items()}
    assert [sorted(c) for c in cycles(graph) if c not in ALLOWED_CYCLES] == []


def test_the_app_has_at_most_ten_floors() -> None:
    """Floors: the longest chain of app modules each importing the next when it is imported (imports in
    functions, which keep `--version` and `devices` light, and type-only imports start no chain)."""
    graph = {name: {t for t in module.on_import if t.startswith("diskdoctor.app")}
             for name, module in MODULES.items() if name.startswith("diskdoctor.app")}
    chain = longest_chain(graph)
    assert len(chain) - 1 <= MAX_FLOORS, " -> ".join(chain)


def test_every_module_says_what_it_is_for() -> None:
    assert [name for name, module in MODULES.items() if not module.summary] == []


def test_the_architecture_document_names_every_module() -> None:
    text = ARCHITECTURE.read_text()
    missing = [m.relative for m in MODULES.values() if f"`{m.relative}`" not in text]
    assert missing == [], f"docs/dev/architecture.md does not name {missing[:5]}"
    assert not stale_section(text), ("docs/dev/architecture.md's module list is stale: "
                                     "python tests/support/architecture_doc.py")
    assert render_modules(MODULES)
