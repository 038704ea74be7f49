"""PyInstaller entry point: the frozen binary runs the diskdoctor CLI."""

from __future__ import annotations

import sys

from diskdoctor.app.launcher import main

if __name__ == "__main__":
    sys.exit(main())
