"""The installed diskdoctor version, read from the package metadata only when asked for."""

from __future__ import annotations

import os
import sys
from functools import lru_cache

FALLBACK_VERSION = "0.1.0"
"""Used by a frozen binary or an unpacked tree, where there is no package metadata."""
DIST_PREFIX = "diskdoctor-"
DIST_SUFFIX = ".dist-info"


def _dist_info_version() -> str | None:
    """The version in the name of the installed diskdoctor-VERSION.dist-info folder (the wheel format
    puts it there), found on sys.path without importlib.metadata and the email parser (~20 ms)."""
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if name.startswith(DIST_PREFIX) and name.endswith(DIST_SUFFIX):
                return name[len(DIST_PREFIX):-len(DIST_SUFFIX)]
    return None


@lru_cache(maxsize=1)
def installed_version() -> str:
    """The version from the package metadata: the dist-info folder's name, else importlib.metadata."""
    found = _dist_info_version()
    if found:
        return found
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("diskdoctor")
    except PackageNotFoundError:
        return FALLBACK_VERSION


def __getattr__(name: str) -> str:
    """`__version__` for callers that import it by name."""
    if name == "__version__":
        return installed_version()
    raise AttributeError(name)
