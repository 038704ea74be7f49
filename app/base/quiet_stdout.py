"""Write a whole text to standard output where a closed pipe (`diskdoctor --man | head`) is not an error."""

from __future__ import annotations

import contextlib
import os
import sys

from .errors import EXIT_OK, EXIT_USAGE


def write_stdout(text: str) -> int:
    """Write `text` and flush; 0, also when the reader went away; 2 (with one line) on another write error."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        _silence()
        return EXIT_OK
    except OSError as err:
        print(f"diskdoctor: error: cannot write output: {err.strerror or err}", file=sys.stderr)
        _silence()
        return EXIT_USAGE
    return EXIT_OK


def _silence() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
