"""The installed diskdoctor version, read from the package metadata once."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("diskdoctor")
except PackageNotFoundError:  # running from a frozen binary or an unpacked tree
    __version__ = "0.1.0"
