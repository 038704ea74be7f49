"""`python -m diskdoctor.probes.engine KIND CONFIG`: the engine child, started by diskdoctor bench."""

from __future__ import annotations

import sys

from .main import main

sys.exit(main(sys.argv[1:]))
