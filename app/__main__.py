"""`python -m diskdoctor.app` runs the CLI."""

from __future__ import annotations

import sys

from .launcher import main

sys.exit(main())
