"""Errors the user caused or the environment imposed: shown as one line, exit code 2."""

from __future__ import annotations

EXIT_OK = 0
EXIT_CHECK_FAILED = 1
EXIT_USAGE = 2
EXIT_INCONCLUSIVE = 3
"""A benchmark verdict neither passed nor failed: its confidence interval straddles the threshold."""


class UsageError(Exception):
    """Bad arguments, a bad sysroot or an unusable environment; the message is shown as is."""
