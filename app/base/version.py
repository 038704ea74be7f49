"""The installed diskdoctor version, read from the package metadata only when asked for."""

from __future__ import annotations

from functools import lru_cache

FALLBACK_VERSION = "0.1.0"
"""Used by a frozen binary or an unpacked tree, where there is no package metadata."""


@lru_cache(maxsize=1)
def installed_version() -> str:
    """The version from the package metadata (importlib.metadata costs ~20 ms, so it is imported here)."""
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
