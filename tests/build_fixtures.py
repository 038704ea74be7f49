"""Regenerate the committed fixture sysroots: python tests/build_fixtures.py."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from support.fixture_scenarios import SCENARIOS
from support.trim_scenarios import TRIM_FIXTURES

FIXTURES = Path(__file__).parent / "fixtures"


def main() -> None:
    """Rebuild every scenario under tests/fixtures/<name>/."""
    for name, build in {**SCENARIOS, **TRIM_FIXTURES}.items():
        target = FIXTURES / name
        shutil.rmtree(target, ignore_errors=True)
        build(target)
        print(f"wrote {target}")


if __name__ == "__main__":
    main()
