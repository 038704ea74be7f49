"""The import direction of architecture.md: probes load no UI, widgets never import probes."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).parent.parent


def _loaded_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint('\\n'.join(sys.modules))"],
                         capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_probes_load_no_textual_or_rich() -> None:
    modules = [p.stem for p in (REPO / "probes").glob("*.py") if p.stem != "__init__"]
    imports = "\n".join(f"import diskdoctor.probes.{m}" for m in modules)
    loaded = _loaded_after(imports)
    ui = sorted(m for m in loaded if m.split(".")[0] in ("textual", "rich"))
    assert ui == [], f"probes pulled in UI modules: {ui[:5]}"


def test_widgets_do_not_import_probes() -> None:
    for path in (REPO / "widgets").glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            assert not any("probes" in name for name in names), f"{path.name} imports {names}"
    loaded = _loaded_after("import diskdoctor.widgets")
    assert "diskdoctor.probes" not in loaded
